import { useEffect, useState } from 'preact/hooks';
import { useTranslation } from '../../../i18n';
import { Dialog } from '../../../components/Dialog';

export interface PendingAction {
  title: string;
  /** What the item is, shown above the note. */
  subject: string;
  confirm: string;
  danger?: boolean;
  /** Whether the note is asked for (rejecting and blocking should say why). */
  noteHint: string;
  run: (note: string) => Promise<void>;
}

/** Confirms a moderation move and takes the note the owner will read. */
export function ActionDialog({ action, onClose }: { action: PendingAction | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState('');
  useEffect(() => {
    setNote('');
    setErr('');
  }, [action]);
  const go = async () => {
    if (!action) return;
    setBusy(true);
    setErr('');
    try {
      await action.run(note.trim());
      onClose();
    } catch (e) {
      setErr((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={!!action}
      onClose={onClose}
      title={action?.title ?? ''}
      actions={
        <>
          <button type="button" class="btn btn-ghost" onClick={onClose} disabled={busy}>
            {t('common.close')}
          </button>
          <button type="button" class={`btn ${action?.danger ? 'btn-danger' : 'btn-primary'}`} onClick={go} disabled={busy}>
            {busy && <span class="spinner" aria-hidden="true" />}
            {action?.confirm}
          </button>
        </>
      }
    >
      {action && (
        <>
          <p>
            <strong dir="auto">{action.subject}</strong>
          </p>
          <div class="field">
            <label for="mod-note">{t('deskAdmin.note')}</label>
            <textarea id="mod-note" dir="auto" class="textarea" rows={3} maxLength={500} value={note} placeholder={action.noteHint} onInput={(e) => setNote((e.target as HTMLTextAreaElement).value)} />
            <span class="field-hint">{t('deskAdmin.noteHint')}</span>
          </div>
          {err && (
            <p class="form-error" role="alert">
              {err}
            </p>
          )}
        </>
      )}
    </Dialog>
  );
}
