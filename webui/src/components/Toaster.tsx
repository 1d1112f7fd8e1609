import { createPortal, Fragment, useLayoutEffect, useReducer } from 'preact/compat';
import { useTranslation } from '../i18n';
import { dismissToast, toastStore } from '../state/toast';
import { useStore } from '../state/store';
import { Icon } from './Icon';

// A key per dialog element, so the toasts are mounted afresh when they change host (below).
const hostKeys = new WeakMap<Element, number>();
let nextHostKey = 0;
function keyOf(el: Element): string {
  let k = hostKeys.get(el);
  if (k === undefined) {
    k = ++nextHostKey;
    hostKeys.set(el, k);
  }
  return `dialog-${k}`;
}

export function Toaster() {
  const list = useStore(toastStore);
  const { t } = useTranslation();
  // The host below is read while drawing, so draw again whenever a dialog opens or closes while
  // toasts show (or one is removed): a toast left inside a dialog that then closed would be hidden
  // with it. A redraw that finds the same host changes nothing, so this cannot feed itself.
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const showing = list.length > 0;
  // A layout effect, not a passive one: the dialog that holds a new toast can be removed in the
  // very render pass that showed it (a report dialog that toasts and then closes), and a watcher
  // attached after paint would miss that and leave the toast inside a removed element.
  useLayoutEffect(() => {
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
  // Keyed by the host: moving the toasts out of a dialog that was removed from the page (a report
  // dialog that toasts and then unmounts) mounts them afresh in the page rather than patching a
  // portal whose container is gone, which left them inside the removed dialog.
  return <Fragment key={host ? keyOf(host) : 'page'}>{host ? createPortal(toasts, host) : toasts}</Fragment>;
}
