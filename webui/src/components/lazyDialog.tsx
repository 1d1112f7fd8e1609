import type { ComponentType } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { i18n } from '../i18n';
import { progressDone, progressStart } from '../state/progress';
import { toast } from '../state/toast';

interface DialogProps {
  open: boolean;
  onClose: () => void;
}

/** A dialog whose code loads when it is first opened, with `warm` to start that load early. */
export type LazyDialog<P> = ComponentType<P> & { warm: () => void };

/**
 * A dialog whose code is fetched when it first opens, not with the page that offers it. A page's
 * first screen never shows its dialogs, but their code and styles, preloaded with the page, held
 * its first paint back on a slow network (Lighthouse counted a profile's request, report and
 * claim forms before its first paint). `warm` starts the load on the first sign of intent (a
 * finger or pointer on the button), so on most networks the code is there by the time the tap
 * ends; meanwhile the top progress bar runs. Once opened, the dialog stays mounted as an eager one
 * would, so closing it behaves the same (focus returns to the button).
 * If the code cannot be fetched (offline, a deployment gone), the visitor is told and the dialog
 * closes: the page itself keeps working. Offline nothing is fetched at all (see fetchCode).
 */
export function lazyDialog<P extends DialogProps>(load: () => Promise<ComponentType<P>>): LazyDialog<P> {
  let code: ComponentType<P> | undefined;
  let loading: Promise<unknown> | undefined;
  const fetchCode = () => {
    // Offline, no import is tried: Chromium keeps a failed one for the page's life, so back
    // online the form could not open without a reload.
    if (!navigator.onLine) return Promise.reject(new Error('offline'));
    loading ??= load().then(
      (c) => {
        code = c;
      },
      (err) => {
        loading = undefined; // the next tap tries again
        throw err;
      },
    );
    return loading;
  };
  function Lazy(props: P) {
    const [, loaded] = useState(0);
    const opened = useRef(false);
    if (props.open) opened.current = true;
    const close = useRef(props.onClose);
    close.current = props.onClose;
    useEffect(() => {
      if (!props.open || code) return;
      let live = true;
      progressStart();
      fetchCode()
        .then(
          () => live && loaded((n) => n + 1),
          () => {
            if (!live) return;
            toast(i18n.t('errors.checkInternet'), 'error');
            close.current();
          },
        )
        .finally(progressDone);
      return () => {
        live = false;
      };
    }, [props.open]);
    const Code = code;
    return opened.current && Code ? <Code {...props} /> : null;
  }
  return Object.assign(Lazy, { warm: () => void fetchCode().catch(() => undefined) });
}
