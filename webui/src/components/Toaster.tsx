import { createPortal, useEffect, useReducer } from 'preact/compat';
import { useTranslation } from '../i18n';
import { dismissToast, toastStore } from '../state/toast';
import { useStore } from '../state/store';
import { Icon } from './Icon';

export function Toaster() {
  const list = useStore(toastStore);
  const { t } = useTranslation();
  // The host below is read while drawing, so draw again whenever a dialog opens or closes while
  // toasts show (or one is removed): a toast left inside a dialog that then closed would be hidden
  // with it. A redraw that finds the same host changes nothing, so this cannot feed itself.
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const showing = list.length > 0;
  useEffect(() => {
    if (!showing || typeof MutationObserver === 'undefined') return;
    const watch = new MutationObserver(() => redraw(undefined));
    watch.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['open'] });
    return () => watch.disconnect();
  }, [showing]);
  // A modal dialog sits in the top layer and makes the rest of the page inert: a toast shown
  // while one is open goes inside the top one, so it is seen above the backdrop and announced.
  const dialogs = typeof document === 'undefined' ? [] : document.querySelectorAll('dialog[open]');
  const host = list.length ? (dialogs[dialogs.length - 1] as HTMLElement | undefined) : undefined;
  const toasts = (
    <div class="toasts" aria-live="polite" aria-atomic="false">
      {list.map((m) => (
        <div key={m.id} class={`toast toast-${m.kind}`} role={m.kind === 'error' ? 'alert' : 'status'}>
          <Icon name={m.kind === 'error' ? 'alert' : m.kind === 'success' ? 'check' : 'info'} />
          <p>{m.text}</p>
          <button type="button" onClick={() => dismissToast(m.id)} aria-label={t('common.dismiss')}>
            <Icon name="close" size={18} />
          </button>
        </div>
      ))}
    </div>
  );
  return host ? createPortal(toasts, host) : toasts;
}
