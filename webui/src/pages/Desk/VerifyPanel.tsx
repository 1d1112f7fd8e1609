import { useState } from 'preact/hooks';
import type { Profile } from '../../api';
import { confirmVerification, getVerification } from '../../api/owners';
import { FormField } from '../../components/FormField';
import { Icon } from '../../components/Icon';
import { VerifiedBadge } from '../../components/VerifiedBadge';
import { useTranslation } from '../../i18n';
import { localDigits } from '../../lib/digits';
import { mapServerErrors } from '../../lib/serverErrors';
import { useLoad } from '../../lib/useLoad';
import { toast } from '../../state/toast';

/**
 * A profile's verification on the owner's card: the badge once verified, and while an admin is
 * verifying the business, the field for the code that reached the business's number.
 */
export function VerifyPanel({ p }: { p: Profile }) {
  const { t, i18n } = useTranslation();
  const v = useLoad(() => getVerification(p.id), [p.id, p.verified], { progress: false });
  const [code, setCode] = useState('');
  const [err, setErr] = useState('');
  const [busy, setBusy] = useState(false);
  const status = v.data?.status ?? (p.verified ? 'verified' : 'none');
  if (status === 'verified')
    return (
      <p class="status-note note-muted">
        <VerifiedBadge explain />
        <span>{t('deskVerify.verified')}</span>
      </p>
    );
  if (status === 'confirmed')
    return (
      <p class="status-note note-muted" role="status">
        <Icon name="clock" size={18} />
        <span>{t('deskVerify.confirmed')}</span>
      </p>
    );
  if (status !== 'sent') return null;
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!code.trim()) {
      setErr(t('errors.enter', { des: t('deskVerify.code') }));
      return;
    }
    setBusy(true);
    try {
      const r = await confirmVerification(p.id, code.trim());
      toast(t('deskVerify.thanks'), 'success');
      v.set(r);
      setErr('');
    } catch (x) {
      const m = mapServerErrors(x, ['otpCode']);
      setErr(m.fields.otpCode ?? m.form ?? '');
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="status-note verify-form" onSubmit={submit} noValidate>
      <Icon name="shield" size={18} />
      <div>
        <p>{t('deskVerify.sent', { phone: localDigits(v.data?.numberPhone ?? '', i18n.language) })}</p>
        <FormField id={`verify-code-${p.id}`} label={t('deskVerify.code')} value={code} onInput={setCode} inputMode="numeric" dir="ltr" inputClass="otp" localDigits required error={err} autocomplete="one-time-code" />
        <button type="submit" class="btn btn-primary btn-sm" disabled={busy}>
          {t('deskVerify.confirm')}
        </button>
      </div>
    </form>
  );
}
