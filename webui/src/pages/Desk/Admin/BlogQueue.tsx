import { useTranslation } from '../../../i18n';
import { Icon } from '../../../components/Icon';
import { blogAuthor, blogTags } from '../../../components/BlogCard';
import type { Blog } from '../../../api';
import { adminBlogs, setBlogStatus, type ModerationStatus } from '../../../api/desk';
import { formatDate } from '../../../lib/format';
import { toast } from '../../../state/toast';
import { StatusBadge } from '../StatusBadge';
import { blogStatus } from '../MyBlogs';
import { ModerationQueue, MoveButton, ViewLink, type QueueControl } from './ModerationQueue';

const STATUSES = ['Pending', 'Edited', 'Accepted', 'Published', 'Rejected', 'Blocked'];
const MOVES: Record<string, ModerationStatus[]> = {
  Pending: ['Accepted', 'Rejected'],
  Accepted: ['Blocked'],
  Published: ['Blocked'],
  Blocked: ['Accepted'],
};

export default function BlogQueue() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;

  const ask = (q: QueueControl<Blog>, b: Blog, to: ModerationStatus, from: string) =>
    q.ask({
      title: t(`deskAdmin.blogMove.${to}`),
      subject: b.title,
      confirm: t(`deskAdmin.do.${to === 'Accepted' && from === 'Blocked' ? 'Unblock' : to}`),
      danger: to !== 'Accepted',
      noteHint: t(to === 'Accepted' ? 'deskAdmin.noteAccept' : 'deskAdmin.noteReject'),
      run: async (note) => {
        await setBlogStatus(b.id, to, note);
        toast(t('deskAdmin.done'), 'success');
        q.patch((items) => items.filter((x) => x.id !== b.id));
      },
    });

  return (
    <ModerationQueue<Blog>
      load={(s, skip, take) => adminBlogs(s, skip, take).then((r) => ({ items: r.blogs, count: r.count }))}
      filters={STATUSES.map((s) => ({ value: s, label: t(`desk.status.${s}`) }))}
      defaultStatus="Pending"
      keyOf={(b) => b.id}
      empty={{ icon: 'check', title: t('deskAdmin.emptyQueue') }}
      renderItem={(b, q) => {
        const s = blogStatus(b);
        return (
          <>
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
              {q.status === 'Edited' && b.pending_edit && (
                <div class="edit-diff">
                  <p class="small muted">{t('deskAdmin.editSent', { date: formatDate(b.pending_edit.create_at, lang) })}</p>
                  <h4 dir="auto">
                    <del>{b.title}</del>
                    <ins>{b.pending_edit.title}</ins>
                  </h4>
                  <details class="item-details" open>
                    <summary>{t('deskAdmin.readEdit')}</summary>
                    <div class="prose admin-prose" dir="auto" dangerouslySetInnerHTML={{ __html: b.pending_edit.content ?? '' }} />
                  </details>
                </div>
              )}
              <details class="item-details">
                <summary>{t('deskAdmin.read')}</summary>
                {blogTags(b).length > 0 && <p class="small muted">{blogTags(b).map((x) => `#${x}`).join(' ')}</p>}
                <div class="prose admin-prose" dir="auto" dangerouslySetInnerHTML={{ __html: b.content ?? '' }} />
              </details>
              <div class="item-actions">
                {(q.status === 'Edited' && b.pending_edit?.status === 'Pending' ? (['Accepted', 'Rejected'] as ModerationStatus[]) : (MOVES[s] ?? [])).map((to) => (
                  <MoveButton key={to} to={to} unblock={s === 'Blocked'} onClick={() => ask(q, b, to, s)} />
                ))}
                {s === 'Published' && b.slug && <ViewLink to={`/blog/${encodeURIComponent(b.slug)}`} />}
              </div>
            </div>
          </>
        );
      }}
    />
  );
}
