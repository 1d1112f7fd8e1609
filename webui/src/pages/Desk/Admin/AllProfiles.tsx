import { useState } from 'preact/hooks';
import { Link } from 'react-router-dom';
import { setVerified, startVerification } from '../../../api/owners';
import { VerifiedBadge } from '../../../components/VerifiedBadge';
import { Icon } from '../../../components/Icon';
import type { Profile } from '../../../api';
import { allProfiles, deleteProfile, restoreProfile } from '../../../api/desk';
import { localName, useTranslation } from '../../../i18n';
import { formatDate, formatNumber } from '../../../lib/format';
import { localDigits } from '../../../lib/digits';
import { toast } from '../../../state/toast';
import { StatusBadge } from '../StatusBadge';
import { daysLeft, RETENTION_DAYS } from '../deleted';
import { ProfileDetails } from './ProfileQueue';
import { ModerationQueue, type QueueControl } from './ModerationQueue';

/** Every profile, soft-deleted ones included, with delete and restore. */
export default function AllProfiles() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [busy, setBusy] = useState(0);

  const replace = (q: QueueControl<Profile>, p: Profile) => q.patch((items) => items.map((x) => (x.id === p.id ? { ...x, ...p } : x)));

  const askDelete = (q: QueueControl<Profile>, p: Profile) =>
    q.ask({
      title: t('deskAdmin.deleteTitle'),
      subject: p.profile_name,
      confirm: t('desk.delete'),
      danger: true,
      noteHint: t('deskAdmin.deleteHint', { n: localDigits(RETENTION_DAYS, lang) }),
      run: async () => {
        const r = await deleteProfile(p.id);
        replace(q, r ?? { ...p, delete_at: new Date().toISOString() });
        toast(t('desk.deleted'), 'success');
      },
    });

  const restore = async (q: QueueControl<Profile>, p: Profile) => {
    setBusy(p.id);
    try {
      const r = await restoreProfile(p.id);
      replace(q, r ?? { ...p, delete_at: null });
      toast(t('desk.restored'), 'success');
    } catch (e) {
      toast((e as Error).message, 'error');
    } finally {
      setBusy(0);
    }
  };

  // The verified badge: a code to the business's listed mobile number (the owner types it in
  // their Desk; the Verification tab then marks it), or taking the badge away with a reason.
  const verify = async (p: Profile) => {
    setBusy(p.id);
    try {
      const r = await startVerification(p.id);
      toast(t('deskVerify.codeSent', { phone: localDigits(r?.numberPhone ?? '', i18n.language) }), 'success');
    } catch (e) {
      toast((e as Error).message, 'error');
    } finally {
      setBusy(0);
    }
  };
  const askRevoke = (q: QueueControl<Profile>, p: Profile) =>
    q.ask({
      title: t('deskVerify.revokeTitle'),
      subject: p.profile_name,
      confirm: t('deskVerify.revoke'),
      danger: true,
      noteHint: t('deskVerify.revokeHint'),
      run: async (note) => {
        const r = await setVerified(p.id, false, note);
        replace(q, r ?? { ...p, verified: false });
        toast(t('deskAdmin.done'), 'success');
      },
    });

  return (
    <ModerationQueue<Profile>
      load={(_s, skip, take) => allProfiles(skip, take).then((r) => ({ items: r.profiles, count: r.count }))}
      keyOf={(p) => p.id}
      itemClass={(p) => (p.delete_at ? 'is-deleted' : '')}
      empty={{ icon: 'briefcase' }}
      summary={(n) => (
        <div class="lead-bar">
          <p class="small muted">{t('deskAdmin.allIntro', { n: formatNumber(n, lang) })}</p>
          <Link to="/dashboard/profiles/new?listing=1" class="btn btn-sm btn-outline">
            <Icon name="plus" size={16} />
            {t('deskClaims.list')}
          </Link>
        </div>
      )}
      renderItem={(p, q) => {
        const s = p.delete_at ? 'Deleted' : (p.account_status ?? 'Pending');
        const left = daysLeft(p.delete_at);
        return (
          <div class="item-body">
            <h3 dir="auto">{p.profile_name}</h3>
            <div class="item-meta">
              <StatusBadge status={s} />
              {p.verified && <VerifiedBadge />}
              <span>{[localName(p.range_worker, lang), localName(p.city, lang)].filter(Boolean).join(' · ')}</span>
              <span dir="auto">{p.user_id?.name}</span>
              {p.delete_at ? (
                <span>{t('deskAdmin.deletedOn', { date: formatDate(p.delete_at, lang), n: localDigits(left, lang) })}</span>
              ) : (
                <span>{formatDate(p.create_at, lang)}</span>
              )}
            </div>
            <ProfileDetails p={p} />
            <div class="item-actions">
              {p.delete_at ? (
                <button type="button" class="btn btn-sm btn-primary" onClick={() => restore(q, p)} disabled={busy === p.id || left <= 0}>
                  {busy === p.id ? <span class="spinner" aria-hidden="true" /> : <Icon name="restore" size={16} />}
                  {t('desk.restore')}
                </button>
              ) : (
                <>
                  {p.verified ? (
                    <button type="button" class="btn btn-sm btn-outline" onClick={() => askRevoke(q, p)}>
                      <Icon name="shield" size={16} />
                      {t('deskVerify.revoke')}
                    </button>
                  ) : (
                    <button type="button" class="btn btn-sm btn-outline" onClick={() => verify(p)} disabled={busy === p.id}>
                      {busy === p.id ? <span class="spinner" aria-hidden="true" /> : <Icon name="shield" size={16} />}
                      {t('deskVerify.start')}
                    </button>
                  )}
                  <button type="button" class="btn btn-sm btn-outline danger-text" onClick={() => askDelete(q, p)}>
                    <Icon name="trash" size={16} />
                    {t('desk.delete')}
                  </button>
                </>
              )}
            </div>
          </div>
        );
      }}
    />
  );
}
