import { useState } from 'preact/hooks';
import { useTranslation } from '../i18n';
import { REPORT_REASONS, reportItem, type ReportReason } from '../api';
import { mapServerErrors } from '../lib/serverErrors';
import { toast } from '../state/toast';
import { Dialog } from './Dialog';
import { FormField } from './FormField';

const MAX_TEXT = 1000;

/** The form to report a profile or a comment: a reason from the short list and an optional note. */
export function ReportDialog({ open, onClose, entity, id, subject }: { open: boolean; onClose: () => void; entity: 'profile' | 'comment' | 'lead'; id: number; subject?: string }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [text, setText] = useState('');
  const [err, setErr] = useState<{ reason?: string; description?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const base = `report-${entity}-${id}`;

  const close = () => {
    setErr({});
    onClose();
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    const n: typeof err = {};
    if (!reason) n.reason = t('report.chooseReason');
    if (reason === 'other' && !text.trim()) n.description = t('errors.enter', { des: t('report.details') });
    setErr(n);
    if (n.reason || n.description) return;
    setBusy(true);
    try {
      await reportItem({ entity, id, reason: reason as ReportReason, description: text.trim() });
      toast(t('report.thanks'), 'success');
      setReason('');
      setText('');
      close();
    } catch (x) {
      const m = mapServerErrors(x, ['reason', 'description']);
      setErr({ ...m.fields, form: m.form ?? undefined });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={close} title={entity === 'profile' ? t('report.titleProfile') : t('report.titleComment')}>
      <form onSubmit={submit} noValidate class="report-form">
        {subject && (
          <p class="small muted report-subject" dir="auto">
            {subject}
          </p>
        )}
        <fieldset class="field" aria-describedby={err.reason ? `${base}-reason-err` : undefined} aria-invalid={!!err.reason}>
          <legend>{t('report.reason')}</legend>
          {REPORT_REASONS.map((r) => (
            <label key={r} class="radio">
              <input type="radio" name={`${base}-reason`} value={r} checked={reason === r} onChange={() => setReason(r)} />
              <span>{t(`report.reasons.${r}`)}</span>
            </label>
          ))}
          {err.reason && (
            <span class="field-error" id={`${base}-reason-err`} role="alert">
              {err.reason}
            </span>
          )}
        </fieldset>
        <FormField id={`${base}-text`} label={t('report.details')} value={text} onInput={setText} error={err.description} textarea rows={3} maxLength={MAX_TEXT} counter required={reason === 'other'} />
        {err.form && (
          <p class="form-error" role="alert">
            {err.form}
          </p>
        )}
        <div class="dialog-actions">
          <button type="button" class="btn btn-ghost" onClick={close}>
            {t('common.cancel')}
          </button>
          <button type="submit" class="btn btn-primary" disabled={busy}>
            {busy && <span class="spinner" aria-hidden="true" />}
            {t('report.send')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
