import { useState } from 'preact/hooks';
import { Icon } from '../../../components/Icon';
import { Pager } from '../../../components/Pager';
import { EmptyState, ErrorState, Loading } from '../../../components/StateViews';
import type { Profile } from '../../../api';
import { allProfiles, deleteProfile, restoreProfile } from '../../../api/desk';
import { localName, useTranslation } from '../../../i18n';
import { formatDate } from '../../../lib/format';
import { localDigits } from '../../../lib/digits';
import { toast } from '../../../state/toast';
import { StatusBadge } from '../StatusBadge';
import { daysLeft, RETENTION_DAYS } from '../deleted';
import { ActionDialog, type PendingAction } from './ActionDialog';
import { ProfileDetails } from './ProfileQueue';
import { useList } from './useList';

/** Every profile, soft-deleted ones included, with delete and restore. */
export default function AllProfiles() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const list = useList<Profile>((_s, skip, take) => allProfiles(skip, take).then((r) => ({ items: r.profiles, count: r.count })), '');
  const [action, setAction] = useState<PendingAction | null>(null);
  const [busy, setBusy] = useState(0);

  const replace = (p: Profile) => list.patch((items) => items.map((x) => (x.id === p.id ? { ...x, ...p } : x)));

  const askDelete = (p: Profile) =>
    setAction({
      title: t('deskAdmin.deleteTitle'),
      subject: p.profile_name,
      confirm: t('desk.delete'),
      danger: true,
      noteHint: t('deskAdmin.deleteHint', { n: localDigits(RETENTION_DAYS, lang) }),
      run: async () => {
        const r = await deleteProfile(p.id);
        replace(r ?? { ...p, delete_at: new Date().toISOString() });
        toast(t('desk.deleted'), 'success');
      },
    });

  const restore = async (p: Profile) => {
    setBusy(p.id);
    try {
      const r = await restoreProfile(p.id);
      replace(r ?? { ...p, delete_at: null });
      toast(t('desk.restored'), 'success');
    } catch (e) {
      toast((e as Error).message, 'error');
    } finally {
      setBusy(0);
    }
  };

  if (list.error) return <ErrorState message={list.error} onRetry={list.reload} />;
  if (!list.data) return <Loading />;
  if (!list.data.items.length) return <EmptyState icon="briefcase" />;
  return (
    <div>
      <p class="small muted">{t('deskAdmin.allIntro', { n: list.data.count.toLocaleString(lang === 'fa' ? 'fa-IR' : 'en-US') })}</p>
      <ul class="item-list" role="list">
        {list.data.items.map((p) => {
          const s = p.delete_at ? 'Deleted' : p.account_status ?? 'Pending';
          const left = daysLeft(p.delete_at);
          return (
            <li key={p.id} class={`card item-card${p.delete_at ? ' is-deleted' : ''}`}>
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
                    <button type="button" class="btn btn-sm btn-primary" onClick={() => restore(p)} disabled={busy === p.id || left <= 0}>
                      {busy === p.id ? <span class="spinner" aria-hidden="true" /> : <Icon name="restore" size={16} />}
                      {t('desk.restore')}
                    </button>
                  ) : (
                    <button type="button" class="btn btn-sm btn-outline danger-text" onClick={() => askDelete(p)}>
                      <Icon name="trash" size={16} />
                      {t('desk.delete')}
                    </button>
                  )}
                </div>
              </div>
            </li>
          );
        })}
      </ul>
      <Pager page={list.page} count={list.data.count} href={(n) => list.href(n)} />
      <ActionDialog action={action} onClose={() => setAction(null)} />
    </div>
  );
}
