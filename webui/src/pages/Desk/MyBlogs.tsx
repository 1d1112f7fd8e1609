import { useState } from 'preact/hooks';
import { Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from '../../i18n';
import { Icon } from '../../components/Icon';
import { Pager } from '../../components/Pager';
import { ConfirmDialog } from '../../components/Dialog';
import { EmptyState, Loaded } from '../../components/StateViews';
import type { Blog } from '../../api';
import { deleteBlog, getMyBlogs } from '../../api/desk';
import { formatDate } from '../../lib/format';
import { skipFor, TAKE } from '../../lib/paging';
import { useLoad } from '../../lib/useLoad';
import { toast } from '../../state/toast';
import { StatusBadge } from './StatusBadge';

/** A blog's shown status: the server's, or Draft when only the draft flag says so. */
export function blogStatus(b: Blog): string {
  return b.status || (b.isDraft ? 'Draft' : 'Pending');
}

export default function MyBlogs() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [params] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = useLoad(() => getMyBlogs(skipFor(page), TAKE), [page]);
  const [confirm, setConfirm] = useState<Blog | null>(null);
  const [busy, setBusy] = useState(false);

  const remove = async () => {
    if (!confirm) return;
    setBusy(true);
    try {
      await deleteBlog(confirm.id);
      toast(t('deskBlog.deleted'), 'success');
      setConfirm(null);
      list.reload();
    } catch (e) {
      toast((e as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="mb-title">
      <header class="desk-head">
        <div>
          <h1 id="mb-title">{t('deskBlog.title')}</h1>
          <p class="muted">{t('deskBlog.intro')}</p>
        </div>
        <Link to="/dashboard/blogs/new" class="btn btn-primary">
          <Icon name="plus" size={18} />
          {t('deskBlog.add')}
        </Link>
      </header>
      <Loaded
        load={list}
        isEmpty={(d) => d.blogs.length === 0}
        empty={
          <EmptyState icon="book" title={t('deskBlog.none')} text={t('deskBlog.noneText')}>
            <Link to="/dashboard/blogs/new" class="btn btn-primary">
              <Icon name="plus" size={18} />
              {t('deskBlog.add')}
            </Link>
          </EmptyState>
        }
      >
        {(data) => (
          <>
            <ul class="item-list" role="list">
              {data.blogs.map((b) => {
                const s = blogStatus(b);
                const note = b.register_admin?.description?.trim();
                return (
                  <li key={b.id} class="card item-card">
                    <span class="item-thumb" aria-hidden="true">
                      {b.image_url ? <img src={b.image_url} alt="" loading="lazy" /> : <Icon name="book" size={28} />}
                    </span>
                    <div class="item-body">
                      <h2 dir="auto">{b.title || t('deskBlog.untitled')}</h2>
                      <div class="item-meta">
                        <StatusBadge status={s} />
                        {b.release_at && (
                          <span>
                            <Icon name="calendar" size={14} class="inline-icon" /> {t('deskBlog.releaseOn', { date: formatDate(b.release_at, lang) })}
                          </span>
                        )}
                      </div>
                      {note && (s === 'Rejected' || s === 'Blocked') && (
                        <p class="status-note note-bad" dir="auto">
                          <Icon name="alert" size={16} />
                          <span>
                            <span class="muted">{t('desk.adminNote')}: </span>
                            {note}
                          </span>
                        </p>
                      )}
                      <div class="item-actions">
                        <Link to={`/dashboard/blogs/${b.id}`} class="btn btn-outline btn-sm">
                          <Icon name="edit" size={16} />
                          {t('common.edit')}
                        </Link>
                        {s === 'Published' && b.slug && (
                          <Link to={`/blog/${encodeURIComponent(b.slug)}`} class="btn btn-ghost btn-sm">
                            <Icon name="eye" size={16} />
                            {t('desk.view')}
                          </Link>
                        )}
                        <button type="button" class="btn btn-ghost btn-sm danger-text" onClick={() => setConfirm(b)}>
                          <Icon name="trash" size={16} />
                          {t('desk.delete')}
                        </button>
                      </div>
                    </div>
                  </li>
                );
              })}
            </ul>
            <Pager page={page} count={data.count} href={(n) => `/dashboard/blogs?page=${n}`} />
          </>
        )}
      </Loaded>
      <ConfirmDialog
        open={!!confirm}
        title={t('deskBlog.deleteTitle')}
        message={confirm ? t('deskBlog.deleteText', { title: confirm.title }) : ''}
        confirmLabel={t('desk.delete')}
        busy={busy}
        onConfirm={remove}
        onClose={() => setConfirm(null)}
      />
    </section>
  );
}
