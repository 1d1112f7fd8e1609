import { useState } from 'preact/hooks';
import { Link, useNavigate } from 'react-router-dom';
import { usePageMeta } from '../../components/PageMeta';
import { Icon } from '../../components/Icon';
import { SearchBox, rememberSearch } from '../../components/SearchBox';
import { CityPicker } from '../../components/CityPicker';
import { ProfileCard, ProfileCardSkeleton } from '../../components/ProfileCard';
import { BlogCard } from '../../components/BlogCard';
import { EmptyState, Loaded } from '../../components/StateViews';
import { getFavouriteCategories, searchBlogs, searchProfiles, type Province } from '../../api';
import { useLoad } from '../../lib/useLoad';
import { lastCity, learnFromProfiles, type KnownCity } from '../../lib/cityMemory';
import { urlFromFilters, ALL_IRAN } from '../../lib/searchUrl';
import { localName, useTranslation } from '../../i18n';
import { categoryIcon } from '../../lib/categoryIcon';
import './home.css';

/** A decorative street map with pins and a rating card, shown beside the search box on wide screens. */
function HeroArt() {
  return (
    <svg class="hero-art" viewBox="0 0 360 300" aria-hidden="true" focusable="false">
      <rect x="10" y="20" width="340" height="260" rx="28" class="ha-map" />
      <path d="M10 110h340M10 200h340M120 20v260M250 20v260" class="ha-street" />
      <path d="M10 250 L140 60 L350 150" class="ha-road" />
      <circle cx="190" cy="150" r="70" class="ha-range" />
      <g class="ha-pin" transform="translate(172 96)">
        <path d="M18 0C8 0 0 7.8 0 17.5 0 30 18 46 18 46s18-16 18-28.5C36 7.8 28 0 18 0z" />
        <circle cx="18" cy="17" r="7" />
      </g>
      <g class="ha-pin ha-pin-2" transform="translate(88 170) scale(.75)">
        <path d="M18 0C8 0 0 7.8 0 17.5 0 30 18 46 18 46s18-16 18-28.5C36 7.8 28 0 18 0z" />
        <circle cx="18" cy="17" r="7" />
      </g>
      <g class="ha-pin ha-pin-2" transform="translate(268 70) scale(.75)">
        <path d="M18 0C8 0 0 7.8 0 17.5 0 30 18 46 18 46s18-16 18-28.5C36 7.8 28 0 18 0z" />
        <circle cx="18" cy="17" r="7" />
      </g>
      <g transform="translate(196 196)">
        <rect width="150" height="64" rx="14" class="ha-card" />
        <rect x="14" y="14" width="36" height="36" rx="10" class="ha-avatar" />
        <rect x="60" y="16" width="72" height="9" rx="4" class="ha-line" />
        <path d="m66 38 2.2 4.5 5 .7-3.6 3.5.9 4.9-4.5-2.3-4.5 2.3.9-4.9-3.6-3.5 5-.7zM86 38l2.2 4.5 5 .7-3.6 3.5.9 4.9-4.5-2.3-4.5 2.3.9-4.9-3.6-3.5 5-.7zM106 38l2.2 4.5 5 .7-3.6 3.5.9 4.9-4.5-2.3-4.5 2.3.9-4.9-3.6-3.5 5-.7z" class="ha-star" />
      </g>
    </svg>
  );
}

function Hero() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [q, setQ] = useState('');
  const [city, setCity] = useState<KnownCity | null>(lastCity);
  const [province, setProvince] = useState<Province | null>(null);
  const [picker, setPicker] = useState(false);
  const submit = (e: Event) => {
    e.preventDefault();
    rememberSearch(q);
    navigate(urlFromFilters({ city: city?.slag ?? ALL_IRAN, q, province: city?.province_id ?? province?.id, page: 1 }));
  };
  const place = city
    ? localName(city, i18n.language)
    : province
      ? t('city.allOfProvince', { province: localName(province, i18n.language) })
      : t('city.allIran');
  return (
    <section class="hero">
      <div class="container hero-inner">
        <h1 class="hero-title">{t('home.slogan')}</h1>
        <p class="hero-sub">{t('home.subtitle')}</p>
        <form class="hero-search" role="search" onSubmit={submit}>
          <label class="visually-hidden" for="hero-q">
            {t('home.searchLabel')}
          </label>
          <div class="hero-q">
            <Icon name="search" />
            <SearchBox
              id="hero-q"
              bare
              value={q}
              onValue={setQ}
              onSubmit={(v) => navigate(urlFromFilters({ city: city?.slag ?? ALL_IRAN, q: v, province: city?.province_id ?? province?.id, page: 1 }))}
              city={city?.slag ?? ALL_IRAN}
              placeholder={t('home.searchPlaceholder')}
            />
          </div>
          <button type="button" class="hero-city" onClick={() => setPicker(true)} aria-label={`${t('city.choose')}: ${place}`}>
            <Icon name="pin" size={18} />
            <span>{place}</span>
            <Icon name="chevronDown" size={16} />
          </button>
          <button type="submit" class="btn btn-primary hero-go">
            {t('home.searchButton')}
          </button>
        </form>
        <p class="hero-hint">{t('home.hint')}</p>
        <HeroArt />
      </div>
      <CityPicker
        open={picker}
        allowProvince
        onClose={() => setPicker(false)}
        onSelect={(c, p) => {
          setCity(c);
          setProvince(c ? null : (p ?? null));
        }}
      />
    </section>
  );
}

function QuickAccess() {
  const { t, i18n } = useTranslation();
  const favs = useLoad(() => getFavouriteCategories(), []);
  const city = lastCity()?.slag ?? ALL_IRAN;
  return (
    <section class="section container" aria-labelledby="quick-title">
      <div class="section-head">
        <h2 id="quick-title">{t('home.quickAccess')}</h2>
        <Link to="/search/iran" class="small">
          {t('home.allCategories')}
        </Link>
      </div>
      <div class="quick-grid">
        {favs.status === 'loading' &&
          Array.from({ length: 8 }, (_, i) => <div key={i} class="quick-item skeleton quick-skel" aria-hidden="true" />)}
        {favs.status === 'success' &&
          (favs.data ?? []).slice(0, 11).map((c) => (
            <Link key={c.id} to={urlFromFilters({ city, category: c.slag, page: 1 })} class="quick-item">
              <span class="quick-icon">
                <Icon name={categoryIcon(c)} size={24} />
              </span>
              <span class="quick-name">{localName(c, i18n.language)}</span>
            </Link>
          ))}
        <Link to="/map" class="quick-item">
          <span class="quick-icon quick-map">
            <Icon name="map" size={24} />
          </span>
          <span class="quick-name">{t('home.mapSearch')}</span>
        </Link>
      </div>
      {favs.status === 'error' && <p class="muted small">{t('errors.categories')}</p>}
    </section>
  );
}

function TopProfessionals() {
  const { t } = useTranslation();
  const top = useLoad(async (signal) => {
    const r = await searchProfiles({ take: 8, skip: 0, order: 'best' }, undefined, signal);
    learnFromProfiles(r.data.profiles);
    return r.data.profiles ?? [];
  }, []);
  return (
    <section class="section container" aria-labelledby="top-title">
      <div class="section-head">
        <h2 id="top-title">{t('home.topPros')}</h2>
        <Link to={urlFromFilters({ city: ALL_IRAN, order: 'best', page: 1 })} class="small">
          {t('common.seeAll')}
        </Link>
      </div>
      <Loaded
        load={top}
        loading={
          <div class="top-grid">
            {Array.from({ length: 4 }, (_, i) => (
              <ProfileCardSkeleton key={i} />
            ))}
          </div>
        }
        isEmpty={(ps) => ps.length === 0}
        empty={
          <EmptyState title={t('home.noPros')} text={t('home.noProsText')} icon="briefcase">
            <Link to="/register" class="btn btn-primary">
              {t('home.registerFree')}
            </Link>
          </EmptyState>
        }
      >
        {(ps) => (
          <div class="top-grid">
            {ps.map((p) => (
              <ProfileCard key={p.id} p={p} />
            ))}
          </div>
        )}
      </Loaded>
    </section>
  );
}

function Blogs() {
  const { t } = useTranslation();
  const blogs = useLoad(() => searchBlogs({ skip: 0, take: 3 }), []);
  if (blogs.status === 'error' || (blogs.status === 'success' && !(blogs.data?.blogs ?? []).length)) return null;
  return (
    <section class="section container" aria-labelledby="blogs-title">
      <div class="section-head">
        <h2 id="blogs-title">{t('home.blogs')}</h2>
        <Link to="/blog" class="small">
          {t('common.seeAll')}
        </Link>
      </div>
      <div class="blog-grid">
        {blogs.status === 'loading'
          ? Array.from({ length: 3 }, (_, i) => <div key={i} class="card skeleton blog-skel" aria-hidden="true" />)
          : (blogs.data?.blogs ?? []).map((b) => <BlogCard key={b.id} b={b} />)}
      </div>
    </section>
  );
}

function HowItWorks() {
  const { t } = useTranslation();
  const steps = [
    { icon: 'search', key: 'find' },
    { icon: 'star', key: 'compare' },
    { icon: 'phone', key: 'contact' },
  ];
  return (
    <section class="section container" aria-labelledby="how-title">
      <h2 id="how-title">{t('home.howTitle')}</h2>
      <ol class="how-grid">
        {steps.map((s) => (
          <li key={s.key} class="how-item card card-pad">
            <span class="how-icon">
              <Icon name={s.icon} size={22} />
            </span>
            <h3>{t(`home.how.${s.key}.title`)}</h3>
            <p class="muted small">{t(`home.how.${s.key}.text`)}</p>
          </li>
        ))}
      </ol>
      <div class="cta card">
        <div>
          <h2>{t('home.ctaTitle')}</h2>
          <p>{t('home.ctaText')}</p>
        </div>
        <Link to="/register" class="btn btn-primary">
          {t('home.registerFree')}
        </Link>
      </div>
    </section>
  );
}

export default function Home() {
  const { t } = useTranslation();
  usePageMeta(undefined, t('app.description'));
  return (
    <>
      <Hero />
      <QuickAccess />
      <TopProfessionals />
      <Blogs />
      <HowItWorks />
    </>
  );
}
