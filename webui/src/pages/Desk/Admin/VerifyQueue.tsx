import { Link } from 'react-router-dom';
import { useTranslation } from '../../../i18n';
import { Icon } from '../../../components/Icon';
import { adminVerifications, setVerified, startVerification, type Verification } from '../../../api/owners';
import { formatDate } from '../../../lib/format';
import { localDigits } from '../../../lib/digits';
import { toast } from '../../../state/toast';
import { ModerationQueue, type QueueControl } from './ModerationQueue';

/**
 * Verifications under way, those whose owner typed the code first. Marking one verified asks for
 * a note of what was checked (it goes to the audit log); a code can be sent again. Codes are
 * started from the "All pages" list.
 */
export default function VerifyQueue() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;

  const mark = (q: QueueControl<Verification>, v: Verification) =>
    q.ask({
      title: t('deskVerify.markTitle'),
      subject: v.profile_name,
      confirm: t('deskVerify.mark'),
      noteHint: t('deskVerify.markHint'),
      run: async (note) => {
        await setVerified(v.user_technical_id, true, note);
        toast(t('deskAdmin.done'), 'success');
        q.patch((items) => items.filter((x) => x.user_technical_id !== v.user_technical_id));
      },
    });
  const resend = async (v: Verification) => {
    try {
      await startVerification(v.user_technical_id, v.numberPhone);
      toast(t('deskVerify.codeSent', { phone: localDigits(v.numberPhone, i18n.language) }), 'success');
    } catch (e) {
      toast((e as Error).message, 'error');
    }
  };

  return (
    <ModerationQueue<Verification>
      load={() => adminVerifications().then((r) => ({ items: r.verifications, count: r.count }))}
      keyOf={(v) => v.user_technical_id}
      empty={{ icon: 'shield', title: t('deskAdmin.emptyQueue') }}
      summary={() => <p class="small muted">{t('deskVerify.queueIntro')}</p>}
      renderItem={(v, q) => (
        <div class="item-body">
          <h3 dir="auto">
            <Link to={`/preview/${v.user_technical_id}`}>{v.profile_name}</Link>
          </h3>
          <div class="item-meta">
            <span class={`badge ${v.status === 'confirmed' ? 'badge-open' : 'badge-plain'}`}>{t(`deskVerify.status.${v.status}`)}</span>
            <span dir="ltr">{localDigits(v.numberPhone, i18n.language)}</span>
            {v.create_at && <span>{formatDate(v.create_at, lang)}</span>}
          </div>
          <div class="item-actions">
            {v.status === 'confirmed' && (
              <button type="button" class="btn btn-sm btn-primary" onClick={() => mark(q, v)}>
                <Icon name="shield" size={16} />
                {t('deskVerify.mark')}
              </button>
            )}
            <button type="button" class="btn btn-sm btn-outline" onClick={() => resend(v)}>
              <Icon name="send" size={16} />
              {t('deskVerify.resend')}
            </button>
          </div>
        </div>
      )}
    />
  );
}
