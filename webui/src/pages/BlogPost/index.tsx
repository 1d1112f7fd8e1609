import { Link, useParams } from 'react-router-dom';
import { useTranslation } from '../../i18n';
import { usePageMeta } from '../../components/PageMeta';
import { Icon } from '../../components/Icon';
import { blogAuthor, blogTags } from '../../components/BlogCard';
import { ErrorState, Loading } from '../../components/StateViews';
import { ApiError, getBlog } from '../../api';
import { useLoad } from '../../lib/useLoad';
import { formatDate } from '../../lib/format';
import NotFound from '../NotFound';
import { OfflinePage } from '../Offline/OfflinePage';
import { blogListUrl } from '../Blog';
import '../Blog/blog.css';

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
  const date = formatDate(b.release_at || b.create_at, i18n.language);
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
        <ul class="chips post-tags" role="list" aria-label={t('blog.tags')}>
          {blogTags(b).map((tag) => (
            <li key={tag}>
              <Link class="chip" to={blogListUrl({ tag })}>
                # {tag}
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Link to="/blog" class="btn btn-outline">
        <Icon name="chevron" size={16} class="flip-back" />
        {t('blog.back')}
      </Link>
    </article>
  );
}
