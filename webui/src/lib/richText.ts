/**
 * Keeps only what the blog editor produces and the server allows: paragraphs, headings, bold,
 * italic, lists, links and images. Everything else is unwrapped (its text kept) or, for scripts,
 * styles and embeds, dropped. Runs in the browser (uses the DOM); the server sanitises again.
 */

const RENAME: Record<string, string> = {
  P: 'p',
  DIV: 'p',
  H1: 'h2',
  H2: 'h2',
  H3: 'h3',
  H4: 'h3',
  H5: 'h3',
  H6: 'h3',
  STRONG: 'strong',
  B: 'strong',
  EM: 'em',
  I: 'em',
  UL: 'ul',
  OL: 'ol',
  LI: 'li',
  A: 'a',
  IMG: 'img',
  BR: 'br',
};

const DROP = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'IFRAME', 'OBJECT', 'EMBED', 'HEAD', 'META', 'TITLE', 'NOSCRIPT', 'SVG', 'MATH', 'LINK', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'FORM']);

/** Links may point to the web, mail or phone; images to our uploads or the web. */
export function safeLink(href: string | null): string | null {
  const h = (href ?? '').trim();
  return /^(https?:\/\/|mailto:|tel:)/i.test(h) ? h : null;
}

export function safeImage(src: string | null): string | null {
  const s = (src ?? '').trim();
  return /^(\/uploads\/|https?:\/\/)/i.test(s) ? s : null;
}

function copyInto(from: Node, to: Node, doc: Document) {
  for (const n of Array.from(from.childNodes)) {
    if (n.nodeType === Node.TEXT_NODE) {
      to.appendChild(doc.createTextNode(n.textContent ?? ''));
      continue;
    }
    if (n.nodeType !== Node.ELEMENT_NODE) continue;
    const el = n as Element;
    if (DROP.has(el.tagName)) continue;
    const tag = RENAME[el.tagName];
    if (!tag) {
      copyInto(el, to, doc);
      continue;
    }
    if (tag === 'img') {
      const src = safeImage(el.getAttribute('src'));
      if (!src) continue;
      const img = doc.createElement('img');
      img.setAttribute('src', src);
      img.setAttribute('alt', el.getAttribute('alt') ?? '');
      to.appendChild(img);
      continue;
    }
    if (tag === 'a') {
      const href = safeLink(el.getAttribute('href'));
      if (!href) {
        copyInto(el, to, doc);
        continue;
      }
      const a = doc.createElement('a');
      a.setAttribute('href', href);
      copyInto(el, a, doc);
      to.appendChild(a);
      continue;
    }
    const out = doc.createElement(tag);
    if (tag !== 'br') copyInto(el, out, doc);
    // A "paragraph" inside a paragraph (pasted <div>s) is flattened.
    if (tag === 'p' && to instanceof Element && /^(P|H2|H3|LI)$/.test(to.tagName)) {
      copyInto(out, to, doc);
      to.appendChild(doc.createElement('br'));
      continue;
    }
    to.appendChild(out);
  }
}

export function sanitizeHtml(html: string): string {
  if (typeof document === 'undefined') return html;
  const doc = document.implementation.createHTMLDocument('');
  const src = doc.createElement('div');
  src.innerHTML = html;
  const out = doc.createElement('div');
  copyInto(src, out, doc);
  // Blocks inside paragraphs or headings (contentEditable makes <p><ul>…) move up to the top level.
  const flat = doc.createElement('div');
  for (const n of Array.from(out.childNodes)) for (const h of hoist(n, doc)) flat.appendChild(h);
  // Loose text and inline pieces at the top level go into paragraphs.
  const wrapped = doc.createElement('div');
  let para: HTMLElement | null = null;
  for (const n of Array.from(flat.childNodes)) {
    const block = n.nodeType === Node.ELEMENT_NODE && /^(P|H2|H3|UL|OL)$/.test((n as Element).tagName);
    if (block) {
      para = null;
      // Empty paragraphs and headings (left by Enter, or by parsing <p><ul>) are dropped.
      if (/^(P|H2|H3)$/.test((n as Element).tagName) && isBlank(n as Element)) continue;
      wrapped.appendChild(n);
    } else {
      if (n.nodeType === Node.TEXT_NODE && !para && !(n.textContent ?? '').trim()) continue;
      if (!para) {
        para = doc.createElement('p');
        wrapped.appendChild(para);
      }
      para.appendChild(n);
    }
  }
  const result = wrapped.innerHTML;
  return isBlank(wrapped) ? '' : result;
}

const BLOCK = /^(P|H2|H3|UL|OL)$/;

/** A node as top-level pieces: a paragraph or heading holding blocks is split around them. */
function hoist(n: Node, doc: Document): Node[] {
  if (n.nodeType !== Node.ELEMENT_NODE) return [n];
  const el = n as Element;
  if (!/^(P|H2|H3)$/.test(el.tagName) || !Array.from(el.children).some((c) => BLOCK.test(c.tagName))) return [n];
  const out: Node[] = [];
  let cur = doc.createElement(el.tagName.toLowerCase());
  const push = () => {
    if ((cur.textContent ?? '').trim() || cur.querySelector('img')) out.push(cur);
    cur = doc.createElement(el.tagName.toLowerCase());
  };
  for (const c of Array.from(el.childNodes)) {
    if (c.nodeType === Node.ELEMENT_NODE && BLOCK.test((c as Element).tagName)) {
      push();
      out.push(...hoist(c, doc));
    } else cur.appendChild(c);
  }
  push();
  return out;
}

function isBlank(el: Element): boolean {
  return !(el.textContent ?? '').trim() && !el.querySelector('img');
}

/** Text typed or pasted as plain text, as paragraphs. */
export function textToHtml(text: string): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return text
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${esc(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** Plain text of editor HTML (for the length check). */
export function htmlText(html: string): string {
  if (typeof document === 'undefined') return html.replace(/<[^>]*>/g, '');
  const d = document.createElement('div');
  d.innerHTML = html;
  return d.textContent ?? '';
}
