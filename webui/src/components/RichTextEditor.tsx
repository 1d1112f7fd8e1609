import { useEffect, useRef, useState } from 'preact/hooks';
import { useTranslation } from '../i18n';
import { Dialog } from './Dialog';
import { Icon } from './Icon';
import { safeLink, sanitizeHtml, textToHtml } from '../lib/richText';
import { localDigits } from '../lib/digits';
import './rich-text.css';

interface Props {
  id: string;
  label: string;
  value: string;
  onChange: (html: string) => void;
  /** Uploads a picture and answers its address. */
  uploadImage: (file: File, onProgress: (f: number) => void) => Promise<string>;
  error?: string;
  hint?: string;
  placeholder?: string;
}

type Block = 'p' | 'h2' | 'h3';

interface State {
  block: Block;
  bold: boolean;
  italic: boolean;
  ul: boolean;
  ol: boolean;
}

const exec = (cmd: string, arg?: string) => document.execCommand(cmd, false, arg);

/**
 * A small rich-text editor on contentEditable: paragraphs, two heading levels, bold, italic,
 * lists, links and uploaded images, nothing else (pasted content is cleaned to that).
 */
export function RichTextEditor({ id, label, value, onChange, uploadImage, error, hint, placeholder }: Props) {
  const { t, i18n } = useTranslation();
  const ed = useRef<HTMLDivElement>(null);
  const last = useRef<string | null>(null);
  const range = useRef<Range | null>(null);
  const file = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<State>({ block: 'p', bold: false, italic: false, ul: false, ol: false });
  const [linkOpen, setLinkOpen] = useState(false);
  const [linkUrl, setLinkUrl] = useState('https://');
  const [linkText, setLinkText] = useState('');
  const [linkErr, setLinkErr] = useState('');
  const [upload, setUpload] = useState<number | null>(null);
  const [uploadErr, setUploadErr] = useState('');
  const [empty, setEmpty] = useState(!value);

  // Outside changes (loading, a restored draft) replace the content; our own edits do not, even
  // when a render carries a value we emitted a few keystrokes ago (that would move the caret).
  const emitted = useRef<string[]>([]);
  useEffect(() => {
    if (!ed.current || value === last.current || emitted.current.includes(value)) return;
    ed.current.innerHTML = sanitizeHtml(value);
    last.current = value;
    emitted.current = [];
    setEmpty(!value);
  }, [value]);

  const emit = () => {
    if (!ed.current) return;
    const html = sanitizeHtml(ed.current.innerHTML);
    last.current = html;
    emitted.current = [...emitted.current.slice(-19), html];
    setEmpty(!html);
    onChange(html);
  };

  const inside = (r: Range | null) => !!r && !!ed.current && ed.current.contains(r.commonAncestorContainer);

  const refresh = () => {
    const sel = document.getSelection();
    if (!sel?.rangeCount || !inside(sel.getRangeAt(0))) return;
    range.current = sel.getRangeAt(0).cloneRange();
    const fb = String(document.queryCommandValue('formatBlock') || '').toLowerCase();
    setState({
      block: fb === 'h2' || fb === 'h3' ? fb : 'p',
      bold: document.queryCommandState('bold'),
      italic: document.queryCommandState('italic'),
      ul: document.queryCommandState('insertUnorderedList'),
      ol: document.queryCommandState('insertOrderedList'),
    });
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: refresh reads only refs and the document selection: listening once is enough
  useEffect(() => {
    document.addEventListener('selectionchange', refresh);
    return () => document.removeEventListener('selectionchange', refresh);
  }, []);

  const restore = () => {
    ed.current?.focus();
    const sel = document.getSelection();
    if (sel && range.current && inside(range.current)) {
      sel.removeAllRanges();
      sel.addRange(range.current);
    }
  };

  const run = (cmd: string, arg?: string) => {
    restore();
    exec('styleWithCSS', 'false');
    exec(cmd, arg);
    emit();
    refresh();
  };

  const block = (b: Block) => run('formatBlock', state.block === b && b !== 'p' ? '<p>' : `<${b}>`);

  const openLink = () => {
    const sel = document.getSelection();
    const text = sel?.rangeCount && inside(sel.getRangeAt(0)) ? sel.toString() : '';
    setLinkText(text);
    setLinkUrl('https://');
    setLinkErr('');
    setLinkOpen(true);
  };

  const insertLink = () => {
    const href = safeLink(linkUrl);
    if (!href || href === 'https://') return setLinkErr(t('rte.badLink'));
    setLinkOpen(false);
    restore();
    const sel = document.getSelection();
    if (sel && !sel.isCollapsed) exec('createLink', href);
    else {
      const a = document.createElement('a');
      a.href = href;
      a.textContent = linkText.trim() || href;
      exec('insertHTML', a.outerHTML);
    }
    emit();
  };

  const pickImage = async (f: File | undefined) => {
    if (!f) return;
    setUploadErr('');
    setUpload(0);
    try {
      const address = await uploadImage(f, setUpload);
      restore();
      const img = document.createElement('img');
      img.src = address;
      img.alt = '';
      exec('insertHTML', `${img.outerHTML}<p><br></p>`);
      emit();
    } catch (e) {
      setUploadErr((e as Error).message);
    } finally {
      setUpload(null);
      if (file.current) file.current.value = '';
    }
  };

  const onPaste = (e: ClipboardEvent) => {
    e.preventDefault();
    const html = e.clipboardData?.getData('text/html');
    const text = e.clipboardData?.getData('text/plain') ?? '';
    const clean = html ? sanitizeHtml(html) : textToHtml(text);
    if (clean) exec('insertHTML', clean);
    emit();
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (!(e.ctrlKey || e.metaKey)) return;
    const k = e.key.toLowerCase();
    if (k === 'k') {
      e.preventDefault();
      openLink();
    }
  };

  const tb = (name: string, icon: string | null, text: string | null, onClick: () => void, pressed?: boolean) => (
    <button type="button" class="rte-btn" aria-label={t(`rte.${name}`)} title={t(`rte.${name}`)} aria-pressed={pressed} onMouseDown={(e) => e.preventDefault()} onClick={onClick}>
      {icon ? <Icon name={icon} size={18} /> : <span aria-hidden="true">{text}</span>}
    </button>
  );

  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-err` : ''].filter(Boolean).join(' ') || undefined;

  return (
    <div class="field rte-field">
      <span class="field-label" id={`${id}-label`}>
        {label}
      </span>
      <div class={`rte${error ? ' is-invalid' : ''}`}>
        <div class="rte-toolbar" role="toolbar" aria-label={t('rte.toolbar')} aria-controls={id}>
          {tb('paragraph', null, '¶', () => block('p'), state.block === 'p')}
          {tb('h2', null, 'H2', () => block('h2'), state.block === 'h2')}
          {tb('h3', null, 'H3', () => block('h3'), state.block === 'h3')}
          <span class="rte-sep" aria-hidden="true" />
          {tb('bold', null, t('rte.boldGlyph'), () => run('bold'), state.bold)}
          {tb('italic', null, t('rte.italicGlyph'), () => run('italic'), state.italic)}
          <span class="rte-sep" aria-hidden="true" />
          {tb('bullets', 'listBullet', null, () => run('insertUnorderedList'), state.ul)}
          {tb('numbers', 'listNumber', null, () => run('insertOrderedList'), state.ol)}
          <span class="rte-sep" aria-hidden="true" />
          {tb('link', 'link', null, openLink)}
          {tb('image', 'image', null, () => {
            refresh();
            file.current?.click();
          })}
          <span class="rte-sep" aria-hidden="true" />
          {tb('undo', 'undo', null, () => run('undo'))}
          {tb('redo', 'redo', null, () => run('redo'))}
          <input ref={file} type="file" accept="image/jpeg,image/png,image/webp,image/gif" class="visually-hidden" tabIndex={-1} aria-hidden="true" onChange={(e) => pickImage((e.target as HTMLInputElement).files?.[0])} />
        </div>
        {/* biome-ignore lint/a11y/useFocusableInteractive: a contentEditable element is focusable */}
        <div
          ref={ed}
          id={id}
          class="rte-body prose"
          contentEditable
          role="textbox"
          aria-multiline="true"
          aria-labelledby={`${id}-label`}
          aria-describedby={describedBy}
          aria-invalid={!!error}
          data-placeholder={placeholder}
          data-empty={empty ? 'true' : undefined}
          // The page's direction, not "auto": an empty box would start left-to-right in Persian.
          dir={i18n.language === 'fa' ? 'rtl' : 'ltr'}
          onFocus={() => exec('defaultParagraphSeparator', 'p')}
          onInput={emit}
          onPaste={onPaste as never}
          onDrop={(e) => e.preventDefault()}
          onKeyDown={onKeyDown as never}
          onKeyUp={refresh}
          onMouseUp={refresh}
        />
        {upload !== null && (
          <div class="rte-upload" role="status">
            <span class="spinner" aria-hidden="true" />
            {t('upload.uploadingPct', { n: localDigits(Math.round(upload * 100), i18n.language) })}
          </div>
        )}
      </div>
      {hint && (
        <span class="field-hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {(error || uploadErr) && (
        <span class="field-error" id={`${id}-err`}>
          {uploadErr || error}
        </span>
      )}
      <Dialog
        open={linkOpen}
        onClose={() => setLinkOpen(false)}
        title={t('rte.link')}
        actions={
          <>
            <button type="button" class="btn btn-ghost" onClick={() => setLinkOpen(false)}>
              {t('common.cancel')}
            </button>
            <button type="button" class="btn btn-primary" onClick={insertLink}>
              {t('rte.insertLink')}
            </button>
          </>
        }
      >
        <div class="field">
          <label for={`${id}-url`}>{t('rte.url')}</label>
          <input
            id={`${id}-url`}
            class="input"
            dir="ltr"
            type="url"
            value={linkUrl}
            aria-invalid={!!linkErr}
            onInput={(e) => setLinkUrl((e.target as HTMLInputElement).value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                insertLink();
              }
            }}
          />
          {linkErr && <span class="field-error">{linkErr}</span>}
        </div>
        <div class="field">
          <label for={`${id}-ltext`}>{t('rte.linkText')}</label>
          <input id={`${id}-ltext`} class="input" value={linkText} onInput={(e) => setLinkText((e.target as HTMLInputElement).value)} />
        </div>
      </Dialog>
    </div>
  );
}
