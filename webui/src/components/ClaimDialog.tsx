import { useState } from 'preact/hooks';
import { Link, useLocation } from 'react-router-dom';
import { useTranslation } from '../i18n';
import { addClaim, sendClaimCode } from '../api/owners';
import { useAuth } from '../state/auth';
import { mapServerErrors } from '../lib/serverErrors';
import { localDigits } from '../lib/digits';
import { Dialog } from './Dialog';
import { FormField } from './FormField';

type Errors = Partial<Record<'otpCode' | 'description' | 'form', string>>;

/**
 * Claiming a listing an admin made for a business: the claimant (signed in) gets a code on the
 * number the listing shows, types it with a note for the admin, and the claim waits for review.
 */
export function ClaimDialog({ open, onClose, id, name }: { open: boolean; onClose: () => void; id: number; name: string }) {
  const { t, i18n } = useTranslation();
  const auth = useAuth();
  const loc = useLocation();
  const [sentTo, setSentTo] = useState('');
  const [code, setCode] = useState('');
  const [note, setNote] = useState('');
  const [err, setErr] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const fail = (x: unknown) => {
    const m = mapServerErrors(x, ['otpCode', 'description']);
    setErr({ ...m.fields, form: m.form ?? undefined });
  };
  const askCode = async () => {
    setBusy(true);
    try {
      const r = await sendClaimCode(id);
      setSentTo(r?.numberPhone ?? '');
      setErr({});
    } catch (x) {
      fail(x);
    } finally {
      setBusy(false);
    }
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!code.trim()) {
      setErr({ otpCode: t('errors.enter', { des: t('claim.code') }) });
      return;
    }
    setBusy(true);
    try {
      await addClaim(id, code.trim(), note.trim());
      // The dialog says it (role=status): a toast would say it twice.
      setDone(true);
    } catch (x) {
      fail(x);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} title={t('claim.title', { name })}>
      {!auth.loggedIn ? (
        <div class="lead-form">
          <p>{t('claim.signIn')}</p>
          <Link class="btn btn-primary" to={`/login?next=${encodeURIComponent(loc.pathname)}`}>
            {t('nav.login')}
          </Link>
        </div>
      ) : done ? (
        <p role="status">{t('claim.sent')}</p>
      ) : (
        <form onSubmit={submit} noValidate class="lead-form">
          <p>{t('claim.how')}</p>
          <button type="button" class="btn btn-outline btn-sm" onClick={askCode} disabled={busy}>
            {sentTo ? t('lead.resend') : t('claim.sendCode')}
          </button>
          {sentTo && (
            <>
              <p class="small" role="status">
                {t('claim.codeSent')} <span dir="ltr">{localDigits(sentTo, i18n.language)}</span>
              </p>
              <FormField id="claim-code" label={t('claim.code')} value={code} onInput={setCode} inputMode="numeric" dir="ltr" inputClass="otp" localDigits required error={err.otpCode} autocomplete="one-time-code" />
              <FormField id="claim-note" label={t('claim.note')} value={note} onInput={setNote} textarea rows={3} maxLength={1000} error={err.description} hint={t('claim.noteHint')} />
            </>
          )}
          {err.form && (
            <p class="form-error" role="alert">
              {err.form}
            </p>
          )}
          <div class="dialog-actions">
            <button type="button" class="btn btn-ghost" onClick={onClose}>
              {t('common.cancel')}
            </button>
            <button type="submit" class="btn btn-primary" disabled={busy || !sentTo}>
              {t('claim.submit')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
