import { Link, useParams } from 'react-router-dom';
import { useTranslation } from '../../i18n';
import { usePageMeta } from '../../components/PageMeta';
import { Icon } from '../../components/Icon';
import { BlogCard, blogAuthor, blogTags } from '../../components/BlogCard';
import { ErrorState, Loading } from '../../components/StateViews';
import { ApiError, getBlog, searchBlogs, type Blog } from '../../api';
import { useLoad } from '../../lib/useLoad';
import { formatLongDate } from '../../lib/format';
import { contactLink } from '../../lib/links';
import { toast } from '../../state/toast';
import NotFound from '../NotFound';
import { OfflinePage } from '../Offline/OfflinePage';
import { blogListUrl } from '../Blog';
import '../Blog/blog.css';

/** The article's first category (or field) id, which its related articles share. */
function firstCategory(b: Blog): number | undefined {
  const c = (b.category_list ?? [])[0];
  return typeof c === 'number' ? c : c?.id;
}

/** Other published articles of the same category, the newest first, this one left out. */
function Related({ b }: { b: Blog }) {
  const { t } = useTranslation();
  const category = firstCategory(b);
  const list = useLoad(() => searchBlogs({ skip: 0, take: 4, category_id: category }), [b.id, category], { progress: false });
  const others = (list.data?.blogs ?? []).filter((x) => x.id !== b.id).slice(0, 3);
  if (!others.length) return null;
  return (
    <section class="post-related" aria-labelledby="related-title">
      <h2 id="related-title">{t('blog.related')}</h2>
      <div class="blog-list">
        {others.map((x) => (
          <BlogCard key={x.id} b={x} />
        ))}
      </div>
    </section>
  );
}

/** The phone's share sheet where the browser has one; otherwise the link is copied. */
async function shareArticle(b: Blog, copied: string) {
  const url = window.location.href.split('#')[0];
  if (navigator.share) {
    try {
      await navigator.share({ title: b.title, url });
    } catch {
      /* the person closed the sheet */
    }
    return;
  }
  await navigator.clipboard?.writeText(url).catch(() => undefined);
  toast(copied, 'success');
}

export default function BlogPost() {
  const { slug = '' } = useParams();
  const { t, i18n } = useTranslation();
  const res = useLoad(() => getBlog(slug), [slug]);
  const b = res.data;
  usePageMeta(b?.title, b?.summary);
  if (res.status === 'error') {
    const e = res.error;
    if (e instanceof ApiError && e.status === 404) return <NotFound />;
    if (e instanceof ApiError && e.offline) return <OfflinePage />;
    return (
      <div class="container">
        <ErrorState message={e?.message} onRetry={res.reload} />
      </div>
    );
  }
  if (!b) return <Loading page />;
  const date = formatLongDate(b.release_at || b.create_at, i18n.language);
  const card = b.writer_profile;
  const call = card?.mobile ? contactLink('mobile', card.mobile) : null;
  return (
    <article class="container post">
      <nav class="crumbs small" aria-label={t('profile.breadcrumbs')}>
        <Link to="/">{t('nav.home')}</Link>
        <span aria-hidden="true">/</span>
        <Link to="/blog">{t('nav.blog')}</Link>
      </nav>
      <h1 dir="auto">{b.title}</h1>
      <div class="post-meta">
        {blogAuthor(b) && (
          <span>
            <Icon name="user" size={16} />
            {blogAuthor(b)}
          </span>
        )}
        {date && (
          <span>
            <Icon name="calendar" size={16} />
            <time dateTime={b.release_at || b.create_at}>{date}</time>
          </span>
        )}
      </div>
      {b.image_url && <img class="post-cover" src={b.image_url} alt="" width={780} height={439} />}
      {b.summary && (
        <p class="post-summary" dir="auto">
          {b.summary}
        </p>
      )}
      <div class="post-body" dir="auto" dangerouslySetInnerHTML={{ __html: b.content ?? '' }} />
      {blogTags(b).length > 0 && (
        <ul class="post-tags" role="list" aria-label={t('blog.tags')}>
          {blogTags(b).map((tag) => (
            <li key={tag}>
              <Link class="chip" to={blogListUrl({ tag })}>
                # {tag}
              </Link>
            </li>
          ))}
        </ul>
      )}
      <div class="post-actions">
        <button type="button" class="btn btn-outline" id="post-share" onClick={() => shareArticle(b, t('share.copied'))}>
          <Icon name="share" size={18} />
          {t('profile.share')}
        </button>
      </div>
      {card && (
        <aside class="card card-pad writer-card" aria-labelledby="writer-card-title">
          <p class="small muted">{t('blog.writtenBy')}</p>
          <h2 id="writer-card-title" dir="auto">
            {card.profile_name}
          </h2>
          <div class="writer-card-actions">
            <Link class="btn btn-primary" to={`/profile/${encodeURIComponent(card.slug)}`}>
              <Icon name="briefcase" size={18} />
              {t('blog.seeBusiness')}
            </Link>
            {call?.href && (
              <a class="btn btn-outline" href={call.href}>
                <Icon name="phone" size={18} />
                {t('profile.call')}
              </a>
            )}
          </div>
        </aside>
      )}
      <Related b={b} />
      <Link to="/blog" class="btn btn-outline">
        <Icon name="chevron" size={16} class="flip-back" />
        {t('blog.back')}
      </Link>
    </article>
  );
}
