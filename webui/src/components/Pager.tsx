import { Link } from 'react-router-dom';
import { useTranslation } from '../i18n';
import { pageCount, pageWindow } from '../lib/paging';
import { formatNumber } from '../lib/format';

/** Page links for a paged list; `href(n)` builds the URL of page n. Hidden when there is one page. */
export function Pager({ page, count, href }: { page: number; count: number; href: (n: number) => string }) {
  const { t, i18n } = useTranslation();
  const total = pageCount(count);
  if (total <= 1) return null;
  return (
    <nav class="pager" aria-label={t('pager.label')}>
      {page > 1 && (
        <Link to={href(page - 1)} rel="prev">
          {t('pager.prev')}
        </Link>
      )}
      {pageWindow(page, total).map((n, i) =>
        n === null ? (
          <span key={`g${i}`} class="gap" aria-hidden="true">
            …
          </span>
        ) : n === page ? (
          <span key={n} aria-current="page">
            {formatNumber(n, i18n.language)}
          </span>
        ) : (
          <Link key={n} to={href(n)} aria-label={t('pager.page', { n: formatNumber(n, i18n.language) })}>
            {formatNumber(n, i18n.language)}
          </Link>
        ),
      )}
      {page < total && (
        <Link to={href(page + 1)} rel="next">
          {t('pager.next')}
        </Link>
      )}
    </nav>
  );
}
