import { useState } from 'preact/hooks';
import { useTranslation } from '../../i18n';
import { Switch } from '../../components/Switch';
import { getSmsPrefs, setSmsPref, type SmsPrefs } from '../../api/notifications';
import { useLoad } from '../../lib/useLoad';
import { toast } from '../../state/toast';

const KINDS = ['new_lead', 'moderation'] as const;

/** The account page's card of SMS notices: each kind on or off, and the daily cap. */
export function SmsNotices() {
  const { t } = useTranslation();
  const prefs = useLoad<SmsPrefs>((signal) => getSmsPrefs(signal), [], { progress: false });
  const [busy, setBusy] = useState('');
  const flip = async (kind: (typeof KINDS)[number], on: boolean) => {
    setBusy(kind);
    try {
      prefs.set(await setSmsPref(kind, on));
      toast(t('deskAccount.smsSaved'), 'success');
    } catch (e) {
      toast((e as Error).message, 'error');
    } finally {
      setBusy('');
    }
  };
  return (
    <div class="card card-pad account-sms">
      <h2 class="card-title">{t('deskAccount.smsTitle')}</h2>
      <p class="small muted">{t('deskAccount.smsText', { count: prefs.data?.per_day ?? 5 })}</p>
      {prefs.data &&
        KINDS.map((k) => (
          <Switch key={k} checked={prefs.data?.sms[k] ?? true} busy={busy === k} onChange={(v) => flip(k, v)} label={t(`deskAccount.sms.${k}`)} />
        ))}
    </div>
  );
}
