import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { useTranslation } from '../i18n';
import { Icon } from './Icon';
import { openOverlay } from '../lib/backCloses';

interface Props {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ComponentChildren;
  actions?: ComponentChildren;
  class?: string;
}

/** A modal on the native <dialog>: focus stays inside, Escape and the backdrop close it. */
export function Dialog({ open, onClose, title, children, actions, class: cls }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const { t } = useTranslation();

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);

  // Back closes the dialog first (see backCloses.ts); onClose is read through a ref so a new
  // closure from the parent does not push another history entry.
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    if (!open) return;
    return openOverlay(() => closeRef.current());
  }, [open]);

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    const onCancel = (e: Event) => {
      e.preventDefault();
      onClose();
    };
    d.addEventListener('cancel', onCancel);
    return () => d.removeEventListener('cancel', onCancel);
  }, [onClose]);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop closes it; the keyboard closes it with Escape (the cancel event above)
    <dialog
      ref={ref}
      class={`dialog ${cls ?? ''}`}
      aria-label={title}
      onClick={(e) => {
        if (e.target === ref.current) onClose();
      }}
    >
      {open && (
        <>
          <div class="dialog-head">
            <h2>{title}</h2>
            <button type="button" class="icon-btn" onClick={onClose} aria-label={t('common.close')}>
              <Icon name="close" />
            </button>
          </div>
          <div class="dialog-body">{children}</div>
          {actions && <div class="dialog-actions">{actions}</div>}
        </>
      )}
    </dialog>
  );
}

export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  onConfirm,
  onClose,
  busy,
}: {
  open: boolean;
  title: string;
  message?: string;
  confirmLabel?: string;
  onConfirm: () => void;
  onClose: () => void;
  busy?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      actions={
        <>
          <button type="button" class="btn btn-ghost" onClick={onClose}>
            {t('common.close')}
          </button>
          <button type="button" class="btn btn-primary" onClick={onConfirm} disabled={busy}>
            {busy && <span class="spinner" aria-hidden="true" />}
            {confirmLabel ?? t('common.confirm')}
          </button>
        </>
      }
    >
      {message && <p>{message}</p>}
    </Dialog>
  );
}
