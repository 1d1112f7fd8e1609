import { useState } from 'preact/hooks';
import { Link } from 'react-router-dom';
import { useTranslation } from '../../../i18n';
import { Icon } from '../../../components/Icon';
import { Pager } from '../../../components/Pager';
import { EmptyState, ErrorState, Loading } from '../../../components/StateViews';
import { blogAuthor, blogTags } from '../../../components/BlogCard';
import type { Blog } from '../../../api';
import { adminBlogs, setBlogStatus, type ModerationStatus } from '../../../api/desk';
import { formatDate } from '../../../lib/format';
import { toast } from '../../../state/toast';
import { StatusBadge } from '../StatusBadge';
import { blogStatus } from '../MyBlogs';
import { ActionDialog, type PendingAction } from './ActionDialog';
import { useList } from './useList';

const STATUSES = ['Pending', 'Accepted', 'Published', 'Rejected', 'Blocked'];
const MOVES: Record<string, ModerationStatus[]> = {
  Pending: ['Accepted', 'Rejected'],
  Accepted: ['Blocked'],
  Published: ['Blocked'],
  Blocked: ['Accepted'],
};

export default function BlogQueue() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const list = useList<Blog>((s, skip, take) => adminBlogs(s, skip, take).then((r) => ({ items: r.blogs, count: r.count })), 'Pending');
  const [action, setAction] = useState<PendingAction | null>(null);

  const ask = (b: Blog, to: ModerationStatus, from: string) =>
    setAction({
      title: t(`deskAdmin.blogMove.${to}`),
      subject: b.title,
      confirm: t(`deskAdmin.do.${to === 'Accepted' && from === 'Blocked' ? 'Unblock' : to}`),
      danger: to !== 'Accepted',
      noteHint: t(to === 'Accepted' ? 'deskAdmin.noteAccept' : 'deskAdmin.noteReject'),
      run: async (note) => {
        await setBlogStatus(b.id, to, note);
        toast(t('deskAdmin.done'), 'success');
        list.patch((items) => items.filter((x) => x.id !== b.id));
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
        <EmptyState icon="check" title={t('deskAdmin.emptyQueue')} />
      ) : (
        <>
          <ul class="item-list" role="list">
            {list.data.items.map((b) => {
              const s = blogStatus(b);
              return (
                <li key={b.id} class="card item-card">
                  <span class="item-thumb" aria-hidden="true">
                    {b.image_url ? <img src={b.image_url} alt="" loading="lazy" /> : <Icon name="book" size={26} />}
                  </span>
                  <div class="item-body">
                    <h3 dir="auto">{b.title}</h3>
                    <div class="item-meta">
                      <StatusBadge status={s} />
                      {blogAuthor(b) && <span dir="auto">{blogAuthor(b)}</span>}
                      {b.release_at && <span>{t('deskBlog.releaseOn', { date: formatDate(b.release_at, lang) })}</span>}
                    </div>
                    {b.summary && (
                      <p class="item-text" dir="auto">
                        {b.summary}
                      </p>
                    )}
                    <details class="item-details">
                      <summary>{t('deskAdmin.read')}</summary>
                      {blogTags(b).length > 0 && <p class="small muted">{blogTags(b).map((x) => `#${x}`).join(' ')}</p>}
                      <div class="prose admin-prose" dir="auto" dangerouslySetInnerHTML={{ __html: b.content ?? '' }} />
                    </details>
                    <div class="item-actions">
                      {(MOVES[s] ?? []).map((to) => (
                        <button key={to} type="button" class={`btn btn-sm ${to === 'Accepted' ? 'btn-primary' : 'btn-outline danger-text'}`} onClick={() => ask(b, to, s)}>
                          <Icon name={to === 'Accepted' ? 'check' : to === 'Blocked' ? 'lock' : 'close'} size={16} />
                          {t(`deskAdmin.do.${to === 'Accepted' && s === 'Blocked' ? 'Unblock' : to}`)}
                        </button>
                      ))}
                      {s === 'Published' && b.slug && (
                        <Link to={`/blog/${encodeURIComponent(b.slug)}`} class="btn btn-ghost btn-sm">
                          <Icon name="eye" size={16} />
                          {t('desk.view')}
                        </Link>
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
