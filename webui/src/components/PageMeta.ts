import { useEffect } from 'preact/hooks';
import { i18n } from '../i18n';

function setMeta(name: string, content: string, attr: 'name' | 'property' = 'name') {
  let el = document.head.querySelector<HTMLMetaElement>(`meta[${attr}="${name}"]`);
  if (!el) {
    el = document.createElement('meta');
    el.setAttribute(attr, name);
    document.head.appendChild(el);
  }
  if (el.getAttribute('content') !== content) el.setAttribute('content', content);
}

/** Sets the page's title and description (and their Open Graph twins) while the page is shown. */
export function usePageMeta(title: string | undefined, description?: string) {
  const lang = i18n.language;
  useEffect(() => {
    const app = i18n.t('app.name');
    const full = title ? `${title} | ${app}` : `${app} | ${i18n.t('app.tagline')}`;
    // The server wrote the first page's tags already: an unchanged title is not set again.
    if (document.title !== full) document.title = full;
    const desc = description || i18n.t('app.description');
    setMeta('description', desc);
    setMeta('og:title', full, 'property');
    setMeta('og:description', desc, 'property');
  }, [title, description, lang]);
}
