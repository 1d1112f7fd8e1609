import { useState } from 'preact/hooks';
import { useNavigate, useSearchParams, Link } from 'react-router-dom';
import { usePageMeta } from '../../components/PageMeta';
import { BlogCard } from '../../components/BlogCard';
import { Pager } from '../../components/Pager';
import { Icon } from '../../components/Icon';
import { EmptyState, Loaded } from '../../components/StateViews';
import { getCategoryTree, searchBlogs } from '../../api';
import { useLoad } from '../../lib/useLoad';
import { skipFor, TAKE } from '../../lib/paging';
import { localName, useTranslation } from '../../i18n';
import './blog.css';

export function blogListUrl(p: { q?: string; tag?: string; category?: number; page?: number }): string {
  const qs = new URLSearchParams();
  if (p.q) qs.set('q', p.q);
  if (p.tag) qs.set('tag', p.tag);
  if (p.category) qs.set('category', String(p.category));
  if (p.page && p.page > 1) qs.set('page', String(p.page));
  const s = qs.toString();
  return s ? `/blog?${s}` : '/blog';
}

export default function Blog() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const q = params.get('q') ?? '';
  const tag = params.get('tag') ?? '';
  const category = Number(params.get('category')) || undefined;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [text, setText] = useState(q);
  usePageMeta(t('blog.title'), t('blog.description'));
  const tree = useLoad(() => getCategoryTree(), []);

  const list = useLoad(
    () =>
      searchBlogs({
        skip: skipFor(page),
        take: TAKE,
        ...(q ? { search_txt: q } : {}),
        ...(tag ? { tag } : {}),
        ...(category ? { category_id: category } : {}),
      }),
    [q, tag, category, page],
  );
  const blogs = list.data?.blogs ?? [];

  return (
    <div class="container blog-page">
      <header class="page-head blog-head">
        <h1>{t('blog.title')}</h1>
        <p class="muted">{t('blog.description')}</p>
      </header>
      <div class="blog-filters card card-pad">
        <form
          role="search"
          class="blog-search"
          onSubmit={(e) => {
            e.preventDefault();
            navigate(blogListUrl({ q: text.trim(), tag, category }));
          }}
        >
          <label for="blog-q" class="visually-hidden">
            {t('blog.search')}
          </label>
          <input id="blog-q" class="input" type="search" value={text} placeholder={t('blog.search')} onInput={(e) => setText((e.target as HTMLInputElement).value)} />
          <button class="btn btn-primary" type="submit" aria-label={t('nav.search')}>
            <Icon name="search" size={18} />
          </button>
        </form>
        <div class="blog-cat">
          <label for="blog-cat" class="visually-hidden">
            {t('search.category')}
          </label>
          <select id="blog-cat" class="select" value={category ?? ''} onChange={(e) => navigate(blogListUrl({ q, tag, category: Number((e.target as HTMLSelectElement).value) || undefined }))}>
            <option value="">{t('search.allCategories')}</option>
            {(tree.data ?? []).map((f) => (
              <option key={f.id} value={f.id}>
                {localName(f, i18n.language)}
              </option>
            ))}
          </select>
        </div>
        {tag && (
          <Link to={blogListUrl({ q, category })} class="chip active-tag" aria-label={t('blog.removeTag', { tag })}>
            <Icon name="tag" size={14} /># {tag} <Icon name="close" size={14} />
          </Link>
        )}
      </div>

      <Loaded
        load={list}
        loading={
          <div class="blog-list">
            {Array.from({ length: 6 }, (_, i) => (
              <div key={i} class="card skeleton blog-skel" aria-hidden="true" />
            ))}
          </div>
        }
        isEmpty={() => blogs.length === 0}
        empty={<EmptyState icon="book" />}
      >
        {(d) => (
          <>
            <div class="blog-list">
              {blogs.map((b) => (
                <BlogCard key={b.id} b={b} />
              ))}
            </div>
            <Pager page={page} count={d.count} href={(n) => blogListUrl({ q, tag, category, page: n })} />
          </>
        )}
      </Loaded>
    </div>
  );
}
