import { Link } from 'react-router-dom';
import { useTranslation } from '../../i18n';
import { Icon } from '../../components/Icon';
import { ProfileCard } from '../../components/ProfileCard';
import { usePageMeta } from '../../components/PageMeta';
import { savedProfiles, savedSearches } from '../../lib/offline';
import { formatDate, formatNumber } from '../../lib/format';
import { filtersFromUrl } from '../../lib/searchUrl';
import { cityLabel } from '../../lib/cityMemory';

/** What a visitor sees for a page that is not on the device while offline: the copies that are. */
export function OfflinePage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  usePageMeta(t('offline.title'));
  const profiles = savedProfiles();
  const searches = savedSearches();
  return (
    <section class="container offline-page">
      <div class="state">
        <Icon name="offline" size={48} />
        <h1>{t('offline.title')}</h1>
        <p>{t('offline.text')}</p>
        <button type="button" class="btn btn-primary" onClick={() => location.reload()}>
          <Icon name="refresh" size={18} />
          {t('common.tryAgain')}
        </button>
      </div>
      {profiles.length > 0 && (
        <section class="section">
          <h2>{t('offline.profiles')}</h2>
          <div class="results-grid offline-grid">
            {profiles.map((p) => (
              <ProfileCard key={p.slug} p={p} />
            ))}
          </div>
        </section>
      )}
      {searches.length > 0 && (
        <section class="section">
          <h2>{t('offline.searches')}</h2>
          <ul class="saved-searches" role="list">
            {searches.map((s) => {
              const [path, qs = ''] = s.url.split('?');
              const f = path.startsWith('/search') ? filtersFromUrl(path, qs ? `?${qs}` : '') : null;
              const label = f ? [f.q, f.category, f.city === 'iran' ? t('search.iran') : cityLabel(f.city, lang)].filter(Boolean).join(' · ') : t('nav.map');
              return (
                <li key={s.url}>
                  <Link to={s.url} class="card saved-search">
                    <Icon name={f ? 'search' : 'map'} size={18} />
                    <span dir="auto">{label}</span>
                    <span class="small muted">
                      {t('offline.results', { count: s.count, n: formatNumber(s.count, lang) })} · {formatDate(s.at, lang)}
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </section>
      )}
      {!profiles.length && !searches.length && <p class="muted offline-nothing">{t('offline.nothing')}</p>}
    </section>
  );
}
