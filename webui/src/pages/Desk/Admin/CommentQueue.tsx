import { useState } from 'preact/hooks';
import { useTranslation } from '../../../i18n';
import { Icon } from '../../../components/Icon';
import { Pager } from '../../../components/Pager';
import { Stars } from '../../../components/Stars';
import { EmptyState, ErrorState, Loading } from '../../../components/StateViews';
import { adminComments, setCommentStatus, type AdminComment } from '../../../api/desk';
import { formatDate } from '../../../lib/format';
import { toast } from '../../../state/toast';
import { StatusBadge } from '../StatusBadge';
import { ActionDialog, type PendingAction } from './ActionDialog';
import { useList } from './useList';

const STATUSES = ['Visible', 'Hidden'];

function profileOf(c: AdminComment): { name?: string; slug?: string } | null {
  return c.user_technical ? { name: c.user_technical.profile_name, slug: c.user_technical.slug } : null;
}

export default function CommentQueue() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const list = useList<AdminComment>((s, skip, take) => adminComments(s, skip, take).then((r) => ({ items: r.comments, count: r.count })), 'Visible');
  const [action, setAction] = useState<PendingAction | null>(null);

  const ask = (c: AdminComment, to: 'Hidden' | 'Visible') =>
    setAction({
      title: t(to === 'Hidden' ? 'deskAdmin.hideTitle' : 'deskAdmin.showTitle'),
      subject: c.description,
      confirm: t(to === 'Hidden' ? 'deskAdmin.do.Hide' : 'deskAdmin.do.Show'),
      danger: to === 'Hidden',
      noteHint: t(to === 'Hidden' ? 'deskAdmin.noteHide' : 'deskAdmin.noteAccept'),
      run: async (note) => {
        await setCommentStatus(c.id, to, note);
        toast(t('deskAdmin.done'), 'success');
        list.patch((items) => items.filter((x) => x.id !== c.id));
      },
    });

  return (
    <div>
      <div class="filters" role="group" aria-label={t('deskAdmin.filterStatus')}>
        {STATUSES.map((s) => (
          <button key={s} type="button" class="filter-chip" aria-pressed={list.status === s} onClick={() => list.setStatus(s)}>
            {t(`desk.status.${s}`)}
          </button>
        ))}
      </div>
      {list.error ? (
        <ErrorState message={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading />
      ) : list.data.items.length === 0 ? (
        <EmptyState icon="comment" title={t('deskAdmin.emptyQueue')} />
      ) : (
        <>
          <ul class="item-list" role="list">
            {list.data.items.map((c) => {
              const s = c.status ?? list.status;
              const p = profileOf(c);
              return (
                <li key={c.id} class="card item-card">
                  <div class="item-body">
                    <div class="item-meta">
                      <StatusBadge status={s} />
                      {c.score ? <Stars score={c.score} bare /> : null}
                      {c.user?.name && <span dir="auto">{c.user.name}</span>}
                      {c.create_at && <span>{formatDate(c.create_at, lang)}</span>}
                    </div>
                    <p class="item-text" dir="auto">
                      {c.description}
                    </p>
                    {p?.name && (
                      <p class="small muted">
                        {t('deskAdmin.onProfile')}{' '}
                        {p.slug ? (
                          <a href={`/profile/${encodeURIComponent(p.slug)}`} dir="auto">
                            {p.name}
                          </a>
                        ) : (
                          <span dir="auto">{p.name}</span>
                        )}
                      </p>
                    )}
                    <div class="item-actions">
                      {s === 'Hidden' ? (
                        <button type="button" class="btn btn-sm btn-primary" onClick={() => ask(c, 'Visible')}>
                          <Icon name="eye" size={16} />
                          {t('deskAdmin.do.Show')}
                        </button>
                      ) : (
                        <button type="button" class="btn btn-sm btn-outline danger-text" onClick={() => ask(c, 'Hidden')}>
                          <Icon name="close" size={16} />
                          {t('deskAdmin.do.Hide')}
                        </button>
                      )}
                    </div>
                  </div>
                </li>
              );
            })}
          </ul>
          <Pager page={list.page} count={list.data.count} href={(n) => list.href(n)} />
        </>
      )}
      <ActionDialog action={action} onClose={() => setAction(null)} />
    </div>
  );
}
