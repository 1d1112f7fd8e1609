import { useState } from 'preact/hooks';
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

  return (
    <ModerationQueue<Profile>
      load={(_s, skip, take) => allProfiles(skip, take).then((r) => ({ items: r.profiles, count: r.count }))}
      keyOf={(p) => p.id}
      itemClass={(p) => (p.delete_at ? 'is-deleted' : '')}
      empty={{ icon: 'briefcase' }}
      summary={(n) => <p class="small muted">{t('deskAdmin.allIntro', { n: formatNumber(n, lang) })}</p>}
      renderItem={(p, q) => {
        const s = p.delete_at ? 'Deleted' : (p.account_status ?? 'Pending');
        const left = daysLeft(p.delete_at);
        return (
          <div class="item-body">
            <h3 dir="auto">{p.profile_name}</h3>
            <div class="item-meta">
              <StatusBadge status={s} />
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
                <button type="button" class="btn btn-sm btn-outline danger-text" onClick={() => askDelete(q, p)}>
                  <Icon name="trash" size={16} />
                  {t('desk.delete')}
                </button>
              )}
            </div>
          </div>
        );
      }}
    />
  );
}
