import { useEffect, useMemo, useState } from 'preact/hooks';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { usePageMeta } from '../../components/PageMeta';
import { Icon } from '../../components/Icon';
import { Dialog } from '../../components/Dialog';
import { CityPicker } from '../../components/CityPicker';
import { SearchBox, rememberSearch } from '../../components/SearchBox';
import { Switch } from '../../components/Switch';
import { ProfileCard, ProfileCardSkeleton } from '../../components/ProfileCard';
import { Pager } from '../../components/Pager';
import { EmptyState, Loaded, OfflineNote } from '../../components/StateViews';
import NotFound from '../NotFound';
import { ApiError, categoryNow, getCategoryTree, getProvinces, getSuggestions, searchFor, searchForNow, type CategoryNode, type Profile } from '../../api';
import { useLoad } from '../../lib/useLoad';
import { useMedia } from '../../lib/useMedia';
import { Progressive } from '../../components/Progressive';
import { ALL_IRAN, DEFAULT_RADIUS, RADII, filtersFromUrl, searchBody, urlFromFilters, type Order, type SearchFilters } from '../../lib/searchUrl';
import { cityLabel, knownCity, learnFromProfiles } from '../../lib/cityMemory';
import { PriceInput } from '../../components/PriceInput';
import { localName, useTranslation } from '../../i18n';
import { formatNumber } from '../../lib/format';
import { RequestPriceDialog } from '../../components/dialogs';
import { lazy, Suspense } from 'preact/compat';

const ResultsMap = lazy(() => import('./ResultsMap'));
import './search.css';

const NO_PROFILES: Profile[] = [];
// Results drawn with the page (a phone shows about three under the search bar), then two per
// task: a card costs about 3 ms of this machine's CPU (12 ms at Lighthouse's 4× slowdown), so the
// rest of the list comes in short tasks between which a tap is answered, never one long one.
const CARDS_FIRST = 3;
const CARDS_STEP = 2;
// The server's default order is relevance (then score), so "default" and "relevance" were one
// choice shown twice: the empty value is named "most relevant" and stands for both.
const ORDER_OPTIONS: Order[] = ['best', 'reviews', 'nearest', 'newest'];
const MIN_SCORES = [4.5, 4, 3.5, 3];

/** The map page showing the same search: the words, the category and the point when known. */
function mapUrlOf(f: SearchFilters): string {
  const qs = new URLSearchParams();
  if (f.near) {
    qs.set('lat', f.near.lat.toFixed(5));
    qs.set('long', f.near.long.toFixed(5));
  }
  if (f.category) qs.set('category', f.category);
  if (f.q) qs.set('q', f.q);
  const s = qs.toString();
  return s ? `/map?${s}` : '/map';
}

/** Which part of a search address the server did not know: its 400 names the field. */
function unknownPlace(e: Error | undefined): 'city' | 'category' | undefined {
  if (!(e instanceof ApiError) || e.status !== 400) return undefined;
  if (e.fields.city_slag) return 'city';
  if (e.fields.category_slag) return 'category';
  return undefined;
}

export function findCategory(tree: CategoryNode[] | undefined, slag: string | undefined): CategoryNode | undefined {
  if (!tree || !slag) return undefined;
  for (const f of tree) {
    if (f.slag === slag) return f;
    const c = f.children?.find((x) => x.slag === slag);
    if (c) return c;
  }
  return undefined;
}

function FilterForm({ f, go, tree }: { f: SearchFilters; go: (n: Partial<SearchFilters>) => void; tree?: CategoryNode[] }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const provinces = useLoad(() => getProvinces(), []);
  const [picker, setPicker] = useState(false);
  const [locating, setLocating] = useState<'idle' | 'busy' | 'failed'>('idle');

  // The visitor's position is asked once, when "nearest" or a distance needs it.
  const withPosition = (then: Partial<SearchFilters>) => {
    if (!('geolocation' in navigator)) {
      setLocating('failed');
      return;
    }
    setLocating('busy');
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        setLocating('idle');
        go({ ...then, near: { lat: pos.coords.latitude, long: pos.coords.longitude } });
      },
      () => setLocating('failed'),
      { maximumAge: 600_000, timeout: 15_000 },
    );
  };
  const chooseOrder = (o: Order | undefined) => {
    if (o !== 'nearest' || f.near) go({ order: o });
    else withPosition({ order: 'nearest' });
  };

  return (
    <div class="filter-form">
      <div class="field">
        <label for="f-province">{t('search.province')}</label>
        <select
          id="f-province"
          class="select"
          value={f.province ?? ''}
          onChange={(e) => {
            const v = Number((e.target as HTMLSelectElement).value) || undefined;
            go({ province: v, city: ALL_IRAN });
          }}
        >
          <option value="">{t('search.allProvinces')}</option>
          {(provinces.data ?? []).map((p) => (
            <option key={p.id} value={p.id}>
              {localName(p, lang)}
            </option>
          ))}
        </select>
        {provinces.status === 'error' && <span class="field-error">{t('errors.provinces')}</span>}
      </div>

      {/* Province first, then the city within it (REVIEW #16). */}
      <div class="field">
        <span class="field-label" id="f-city-label">
          {t('city.label')}
        </span>
        <button type="button" class="select-btn" aria-labelledby="f-city-label f-city" id="f-city" onClick={() => setPicker(true)}>
          <Icon name="pin" size={18} />
          <span>{f.city === ALL_IRAN ? t('city.allIran') : cityLabel(f.city, lang)}</span>
          <Icon name="chevronDown" size={16} />
        </button>
      </div>

      <div class="field">
        <label for="f-category">{t('search.category')}</label>
        <select id="f-category" class="select" value={f.category ?? ''} onChange={(e) => go({ category: (e.target as HTMLSelectElement).value || undefined })}>
          <option value="">{t('search.allCategories')}</option>
          {(tree ?? []).map((field) => (
            <optgroup key={field.id} label={localName(field, lang)}>
              <option value={field.slag}>{t('search.allOf', { name: localName(field, lang) })}</option>
              {(field.children ?? []).map((c) => (
                <option key={c.id} value={c.slag}>
                  {localName(c, lang)}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </div>

      <fieldset class="field chips-field">
        <legend class="field-label">{t('search.minScore')}</legend>
        <div class="chip-row">
          {[undefined, ...MIN_SCORES].map((s) => (
            <label key={s ?? 0} class={`chip-radio ${f.min_score === s ? 'checked' : ''}`}>
              <input type="radio" name="min_score" checked={f.min_score === s} onChange={() => go({ min_score: s })} />
              {s ? (
                <>
                  <Icon name="star" size={14} />
                  {t('search.atLeast', { score: formatNumber(s, lang) })}
                </>
              ) : (
                t('search.any')
              )}
            </label>
          ))}
        </div>
      </fieldset>

      <div class="field">
        <label for="f-order">{t('search.order')}</label>
        <select id="f-order" class="select" value={f.order ?? ''} onChange={(e) => chooseOrder(((e.target as HTMLSelectElement).value || undefined) as Order)}>
          <option value="">{t('search.orders.relevance')}</option>
          {ORDER_OPTIONS.map((o) => (
            <option key={o} value={o}>
              {t(`search.orders.${o}`)}
            </option>
          ))}
        </select>
      </div>

      {locating !== 'idle' && (
        <p class={`small ${locating === 'failed' ? 'field-error' : 'muted'}`} role="status">
          {t(locating === 'busy' ? 'search.locating' : 'search.locateFailed')}
        </p>
      )}

      <div class="field">
        <Switch id="f-open" checked={!!f.open} onChange={(v: boolean) => go({ open: v || undefined })} label={t('search.openNow')} />
      </div>

      <fieldset class="field chips-field">
        <legend class="field-label">{t('search.distance')}</legend>
        {f.near ? (
          <div class="chip-row">
            {RADII.map((r) => (
              <label key={r} class={`chip-radio ${(f.radius ?? DEFAULT_RADIUS) === r ? 'checked' : ''}`}>
                <input type="radio" name="radius" checked={(f.radius ?? DEFAULT_RADIUS) === r} onChange={() => go({ radius: r === DEFAULT_RADIUS ? undefined : r })} />
                {t('search.withinKm', { n: formatNumber(r / 1000, lang) })}
              </label>
            ))}
          </div>
        ) : (
          <button type="button" class="btn btn-outline btn-sm" onClick={() => withPosition({})} disabled={locating === 'busy'}>
            <Icon name="locate" size={16} />
            {t('search.useMyPosition')}
          </button>
        )}
      </fieldset>

      <PriceRange f={f} go={go} />

      <Link to="/search/iran" class="btn btn-ghost btn-block">
        <Icon name="refresh" size={16} />
        {t('search.reset')}
      </Link>

      <CityPicker
        open={picker}
        allowProvince
        onClose={() => setPicker(false)}
        onSelect={(c, p) => go({ city: c?.slag ?? ALL_IRAN, province: c?.province_id ?? p?.id ?? undefined })}
      />
    </div>
  );
}

/**
 * The price range of the services: applied as a pair (typing a price would otherwise search at
 * every digit), checked for order before it is sent.
 */
function PriceRange({ f, go }: { f: SearchFilters; go: (n: Partial<SearchFilters>) => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [lo, setLo] = useState<number | null>(f.price_min ?? null);
  const [hi, setHi] = useState<number | null>(f.price_max ?? null);
  useEffect(() => {
    setLo(f.price_min ?? null);
    setHi(f.price_max ?? null);
  }, [f.price_min, f.price_max]);
  const upsideDown = !!lo && !!hi && lo > hi;
  return (
    <form
      class="field price-range"
      aria-labelledby="f-price-label"
      onSubmit={(e) => {
        e.preventDefault();
        if (!upsideDown) go({ price_min: lo || undefined, price_max: hi || undefined });
      }}
    >
      <span class="field-label" id="f-price-label">
        {t('search.priceRange')}
      </span>
      <div class="price-pair">
        <div class="price-end">
          <label class="small muted" for="f-price-min">
            {t('search.priceMin')}
          </label>
          <PriceInput id="f-price-min" value={lo} onChange={setLo} lang={lang} invalid={upsideDown} describedBy={upsideDown ? 'f-price-error' : undefined} />
        </div>
        <div class="price-end">
          <label class="small muted" for="f-price-max">
            {t('search.priceMax')}
          </label>
          <PriceInput id="f-price-max" value={hi} onChange={setHi} lang={lang} invalid={upsideDown} describedBy={upsideDown ? 'f-price-error' : undefined} />
        </div>
      </div>
      {upsideDown && (
        <span class="field-error" id="f-price-error" role="alert">
          {t('search.priceOrder')}
        </span>
      )}
      <div class="price-actions">
        <button type="submit" class="btn btn-outline btn-sm" disabled={upsideDown}>
          {t('search.priceApply')}
        </button>
        {(f.price_min || f.price_max) && (
          <button type="button" class="btn btn-ghost btn-sm" onClick={() => go({ price_min: undefined, price_max: undefined })}>
            {t('search.priceClear')}
          </button>
        )}
      </div>
    </form>
  );
}

/**
 * The search bar above the results, on every screen: the text searched, with suggestions as you
 * type; the city and category chosen stay.
 */
function TopSearch({ f, go }: { f: SearchFilters; go: (n: Partial<SearchFilters>) => void }) {
  const { t } = useTranslation();
  const [q, setQ] = useState(f.q ?? '');
  useEffect(() => setQ(f.q ?? ''), [f.q]);
  return (
    <div class="search-top">
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          rememberSearch(q);
          go({ q });
        }}
      >
        <label class="field-label" for="f-q">
          {t('search.text')}
        </label>
        <div class="input-with-btn">
          <SearchBox
            id="f-q"
            value={q}
            onValue={setQ}
            onSubmit={(v) => go({ q: v })}
            city={f.city}
            category={f.category}
            placeholder={t('home.searchPlaceholder')}
          />
          <button type="submit" class="btn btn-primary" aria-label={t('nav.search')}>
            <Icon name="search" size={18} />
          </button>
        </div>
      </form>
    </div>
  );
}

/**
 * What an empty answer offers besides starting again: the categories the text may mean (as the
 * suggestions read it), and the same search in all of Iran when a city was chosen.
 */
function EmptyChoices({ f }: { f: SearchFilters }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const cats = useLoad((signal) => (f.q ? getSuggestions(f.q, undefined, signal) : Promise.resolve(undefined)), [f.q]);
  const chips = cats.data?.categories.slice(0, 4) ?? [];
  // The city's province, as the filters or a list seen earlier name it.
  const provinceId = f.city !== ALL_IRAN ? (f.province ?? knownCity(f.city)?.province_id) : undefined;
  const provinces = useLoad(() => (provinceId ? getProvinces() : Promise.resolve(undefined)), [provinceId]);
  const province = provinces.data?.find((p) => p.id === provinceId);
  return (
    <>
      {chips.length > 0 && (
        <div class="chip-row empty-chips">
          {chips.map((c) => (
            <Link key={c.slag} class="chip" to={urlFromFilters({ city: f.city, category: c.slag, page: 1 })}>
              {localName(c, lang)}
            </Link>
          ))}
        </div>
      )}
      {province && (
        <Link class="btn btn-outline" to={urlFromFilters({ ...f, city: ALL_IRAN, province: province.id, page: 1 })}>
          {t('search.allOfProvince', { province: localName(province, lang) })}
        </Link>
      )}
      {(f.city !== ALL_IRAN || f.province) && (
        <Link class="btn btn-outline" to={urlFromFilters({ ...f, city: ALL_IRAN, province: undefined, page: 1 })}>
          {t('search.allIran')}
        </Link>
      )}
    </>
  );
}

export default function Search() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const loc = useLocation();
  const navigate = useNavigate();
  const f = useMemo(() => filtersFromUrl(loc.pathname, loc.search), [loc.pathname, loc.search]);
  const [sheet, setSheet] = useState(false);
  const [asking, setAsking] = useState(false);
  // The map beside the results (wide screens), and the result marked on both.
  const [mapOpen, setMapOpen] = useState(false);
  const [marked, setMarked] = useState<number | null>(null);
  // The filters sit beside the results on a wide screen only; on a phone they open in a sheet, so
  // a phone builds them (hundreds of category options) and loads their lists only when asked.
  const wide = useMedia('(min-width: 1024px)');
  const withMap = wide && mapOpen;
  const url = urlFromFilters(f);

  const result = useLoad(
    async (signal) => {
      const r = await searchFor(searchBody(f), url, signal);
      learnFromProfiles(r.data.profiles);
      return r;
    },
    [url],
    {
      initial: () => {
        const r = searchForNow(url);
        if (r) learnFromProfiles(r.data.profiles);
        return r;
      },
    },
  );
  // The category tree names the category in the title and fills the filters' list. The page's
  // first answer may carry the category (see api/first.ts): then the heading and the price-request
  // bar are drawn with the first results, not moved in when the tree arrives, and a phone, which
  // shows no filters until asked, needs no tree at all.
  const held = categoryNow(f.category);
  const needTree = (!!f.category && !held) || wide || sheet;
  const tree = useLoad(() => (needTree ? getCategoryTree() : Promise.resolve(undefined)), [needTree]);

  // In the phone sheet a change replaces the entry, so Back (which closes the sheet) returns to
  // the results as they were before it opened rather than through every filter tried.
  const go = (n: Partial<SearchFilters>) => navigate(urlFromFilters({ ...f, ...n, page: 1 }), { replace: sheet });

  const category = findCategory(tree.data, f.category) ?? held;
  const place = f.city === ALL_IRAN ? t('search.iran') : cityLabel(f.city, lang);
  const title = f.q
    ? t('search.titleText', { q: f.q, place })
    : category
      ? t('search.titleCategory', { category: localName(category, lang), place })
      : t('search.titleAll', { place });
  // An address naming a city or category that does not exist is the app's 404 page, with a way
  // on (REVIEW #8); the server already answered this address with 404. Its title is set here too,
  // as this page's effect runs after the one of the page it shows.
  const missing = unknownPlace(result.error);
  usePageMeta(
    missing ? t(`notFound.${missing}Title`) : title,
    missing ? t(`notFound.${missing}Text`) : t('search.description', { what: category ? localName(category, lang) : t('search.professionals'), place }),
  );

  // The place counts once, whether a province, a city or both name it.
  const active = [f.q, f.category, f.province || f.city !== ALL_IRAN, f.min_score, f.order, f.open, f.radius, f.price_min || f.price_max].filter(
    Boolean,
  ).length;
  const data = result.data?.data;

  if (missing) return <NotFound missing={missing} city={missing === 'category' ? f.city : undefined} category={missing === 'city' ? f.category : undefined} />;

  return (
    <div class="container search-page">
      <TopSearch f={f} go={go} />
      <div class="search-head">
        <div>
          <h1>{title}</h1>
          {/* The line keeps its place while the results load, so nothing under it moves when the count arrives. */}
          <p class="muted small result-count">{result.status === 'success' && data ? t('search.count', { count: data.count, n: formatNumber(data.count, lang) }) : '\u00a0'}</p>
        </div>
        <div class="search-head-actions">
        {wide ? (
          <button type="button" class="btn btn-outline on-map" aria-pressed={mapOpen} onClick={() => setMapOpen(!mapOpen)}>
            <Icon name="map" size={18} />
            {t(mapOpen ? 'search.hideMap' : 'search.showOnMap')}
          </button>
        ) : (
          <Link class="btn btn-outline on-map" to={mapUrlOf(f)}>
            <Icon name="map" size={18} />
            {t('search.showOnMap')}
          </Link>
        )}
        <button type="button" class="btn btn-outline filter-toggle" onClick={() => setSheet(true)} aria-haspopup="dialog">
          <Icon name="filter" size={18} />
          {t('search.filters')}
          {active > 0 && <span class="count-dot">{formatNumber(active, lang)}</span>}
        </button>
        </div>
      </div>

      <div class={`search-layout ${withMap ? 'with-map' : ''}`}>
        {wide && (
          <aside class="filters-aside card card-pad" aria-label={t('search.filters')}>
            <FilterForm f={f} go={go} tree={tree.data} />
          </aside>
        )}

        <section class="results" aria-live="polite" aria-busy={result.status === 'loading'}>
          {result.data?.offline && <OfflineNote />}
          {data?.fallback && (
            <p class="search-note card card-pad" role="status">
              <Icon name="info" size={18} />
              {data.fallback.message}
            </p>
          )}
          {data?.did_you_mean && (
            <p class="search-note">
              <Link to={urlFromFilters({ ...f, q: data.did_you_mean, page: 1 })}>{t('search.didYouMean', { q: data.did_you_mean })}</Link>
            </p>
          )}
          <Loaded
            load={result}
            loading={
              <div class="results-grid">
                {Array.from({ length: 6 }, (_, i) => (
                  <ProfileCardSkeleton key={i} />
                ))}
              </div>
            }
            isEmpty={(r) => r.data.profiles.length === 0}
            empty={
              <EmptyState text={t('search.emptyText')}>
                <EmptyChoices f={f} />
                <Link to="/search/iran" class="btn btn-outline">
                  {t('search.reset')}
                </Link>
              </EmptyState>
            }
          >
            {(r) => (
              <>
                {category && f.city !== ALL_IRAN && r.data.profiles.length > 0 && r.data.profiles[0].city?.id && (
                  <p class="lead-bar card card-pad">
                    <span>{t('lead.askMany')}</span>
                    <button
                      type="button"
                      class="btn btn-primary btn-sm lead-many-btn"
                      onPointerEnter={RequestPriceDialog.warm}
                      onFocus={RequestPriceDialog.warm}
                      onClick={() => setAsking(true)}
                    >
                      {t('lead.action')}
                    </button>
                  </p>
                )}
                {asking && category && r.data.profiles[0]?.city?.id && (
                  <RequestPriceDialog
                    open
                    onClose={() => setAsking(false)}
                    targets={r.data.profiles
                      .filter((x) => x.city?.id === r.data.profiles[0].city?.id)
                      .slice(0, 5)
                      .map((x) => ({ id: x.id, name: x.profile_name }))}
                    cityId={r.data.profiles[0].city.id}
                    categoryId={category.id}
                  />
                )}
                <Progressive list={r.data.profiles ?? NO_PROFILES} first={CARDS_FIRST} step={CARDS_STEP}>
                  {(items, partial) => (
                    <div class={`results-grid ${result.status === 'loading' ? 'is-stale' : ''} ${partial ? 'is-partial' : ''}`}>
                      {items.map((p) =>
                        withMap ? (
                          // biome-ignore lint/a11y/noStaticElementInteractions: hover and focus only mark the pin on the map; the card inside is the control
                          <div
                            key={p.id}
                            id={`result-${p.id}`}
                            class={`result-item ${p.id === marked ? 'is-active' : ''}`}
                            onMouseEnter={() => setMarked(p.id)}
                            onFocusCapture={() => setMarked(p.id)}
                          >
                            <ProfileCard p={p} level={2} />
                          </div>
                        ) : (
                          <ProfileCard key={p.id} p={p} level={2} />
                        ),
                      )}
                    </div>
                  )}
                </Progressive>
                <Pager page={f.page} count={r.data.count} href={(n) => urlFromFilters({ ...f, page: n })} />
              </>
            )}
          </Loaded>
        </section>
        {withMap && (
          <Suspense fallback={<div class="search-map kd-map skeleton" />}>
            <ResultsMap
              profiles={data?.profiles ?? NO_PROFILES}
              active={marked}
              onSelect={(id) => {
                setMarked(id);
                document.getElementById(`result-${id}`)?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
              }}
              onSearchArea={(near, radius) => go({ near, radius, city: ALL_IRAN, province: undefined })}
            />
          </Suspense>
        )}
      </div>

      <Dialog
        open={sheet}
        onClose={() => setSheet(false)}
        title={t('search.filters')}
        class="sheet"
        actions={
          <button type="button" class="btn btn-primary btn-block" onClick={() => setSheet(false)}>
            {data ? t('search.showResults', { count: data.count, n: formatNumber(data.count, lang) }) : t('common.close')}
          </button>
        }
      >
        <FilterForm f={f} go={go} tree={tree.data} />
      </Dialog>
    </div>
  );
}
