import { lazy, Suspense } from 'preact/compat';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { usePageMeta } from '../../components/PageMeta';
import { Icon } from '../../components/Icon';
import { ProfileCard } from '../../components/ProfileCard';
import { EmptyState, Loaded, OfflineNote } from '../../components/StateViews';
import { locate } from '../../components/CityPicker';
import { getCategoryTree, getConfig, searchProfiles, type Profile } from '../../api';
import { useLoad } from '../../lib/useLoad';
import { latLng } from '../../lib/links';
import { lastCity } from '../../lib/cityMemory';
import { localName, useTranslation } from '../../i18n';
import { formatNumber } from '../../lib/format';
import { toast } from '../../state/toast';
import type { MapMarker } from '../../components/LeafletMap';
import './map-page.css';

const LeafletMap = lazy(() => import('../../components/LeafletMap'));

/** Default radius of the map search, in metres (SPEC §9). */
export const MAP_RADIUS = 1000;
const RADII = [500, 1000, 2000, 5000, 10000, 25000];
const TEHRAN: [number, number] = [35.6892, 51.389];

function zoomFor(radius: number): number {
  return Math.max(8, Math.min(17, Math.round(14 - Math.log2(radius / 1000))));
}

export default function MapPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  usePageMeta(t('map.title'), t('map.description'));

  // biome-ignore lint/correctness/useExhaustiveDependencies: the start is read once from the address; later changes come from the map
  const start = useMemo<[number, number]>(() => {
    const lat = Number(params.get('lat'));
    const lng = Number(params.get('long'));
    if (params.get('lat') && Number.isFinite(lat) && Number.isFinite(lng)) return [lat, lng];
    const c = lastCity();
    if (c?.lat && c?.long) return [c.lat, c.long];
    return TEHRAN;
  }, []);
  const [center, setCenter] = useState<[number, number]>(start);
  const [view, setView] = useState<{ center: [number, number]; zoom: number }>({ center: start, zoom: zoomFor(Number(params.get('radius')) || MAP_RADIUS) });
  const [radius, setRadius] = useState<number>(() => {
    const r = Number(params.get('radius'));
    return RADII.includes(r) ? r : MAP_RADIUS;
  });
  const [category, setCategory] = useState<string>(params.get('category') ?? '');
  // The words searched on the map, and the box they are typed in (applied when sent).
  const [q, setQ] = useState<string>(params.get('q')?.trim() ?? '');
  const [typed, setTyped] = useState<string>(q);
  const [active, setActive] = useState<number | null>(null);
  const [locating, setLocating] = useState(false);
  const config = useLoad(() => getConfig().catch(() => null), []);
  const tree = useLoad(() => getCategoryTree(), []);
  const debounce = useRef<number>();

  // biome-ignore lint/correctness/useExhaustiveDependencies: setParams changes with every navigation: with it here the effect would write the address for ever
  useEffect(() => {
    const next = new URLSearchParams();
    next.set('lat', center[0].toFixed(5));
    next.set('long', center[1].toFixed(5));
    next.set('radius', String(radius));
    if (category) next.set('category', category);
    if (q) next.set('q', q);
    setParams(next, { replace: true });
  }, [center[0], center[1], radius, category, q]);

  const result = useLoad(
    (signal) =>
      searchProfiles(
        {
          take: 100,
          skip: 0,
          lat: center[0],
          long: center[1],
          radius,
          order: 'nearest',
          ...(category ? { category_slag: category } : {}),
          ...(q ? { search_txt: q } : {}),
        },
        `/map?lat=${center[0].toFixed(5)}&long=${center[1].toFixed(5)}&radius=${radius}${category ? `&category=${category}` : ''}${q ? `&q=${encodeURIComponent(q)}` : ''}`,
        signal,
      ),
    [center[0], center[1], radius, category, q],
  );
  const profiles: Profile[] = result.data?.data.profiles ?? [];

  const markers: MapMarker[] = useMemo(
    () =>
      profiles.flatMap((p) => {
        const ll = latLng(p.location);
        if (!ll) return [];
        return [
          {
            id: p.id,
            lat: ll.lat,
            lng: ll.lng,
            title: p.profile_name,
            subtitle: [localName(p.range_worker, lang), localName(p.city, lang)].filter(Boolean).join(' · '),
            href: `/profile/${encodeURIComponent(p.slug)}`,
            active: p.id === active,
          },
        ];
      }),
    [profiles, active, lang],
  );

  // The visitor's drags and zooms search the new area; a popup panning to fit (a card's hover
  // opens its pin's popup) does not, or hovering the list would move the search.
  const onMoveEnd = (c: { lat: number; lng: number }, zoom: number, byVisitor: boolean) => {
    if (!byVisitor) return;
    window.clearTimeout(debounce.current);
    debounce.current = window.setTimeout(() => {
      setView({ center: [c.lat, c.lng], zoom });
      if (Math.abs(c.lat - center[0]) > 1e-5 || Math.abs(c.lng - center[1]) > 1e-5) setCenter([c.lat, c.lng]);
    }, 350);
  };

  // A pin chosen on the map brings its card into view in the list beside it.
  const select = (id: MapMarker['id']) => {
    setActive(Number(id));
    document.getElementById(`map-card-${id}`)?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  };
  // Nothing found within the radius: offer a wider one (1 km → 5 km, as people widen a search).
  const wider = RADII.find((r) => r >= radius * 5) ?? RADII.find((r) => r > radius);
  const radiusText = (r: number) => (r < 1000 ? `${formatNumber(r, lang)} ${t('units.m')}` : `${formatNumber(r / 1000, lang)} ${t('units.km')}`);
  const widen = (r: number) => {
    setRadius(r);
    setView({ center, zoom: zoomFor(r) });
  };

  const useMyPosition = async () => {
    setLocating(true);
    try {
      const p = await locate();
      setCenter([p.lat, p.long]);
      setView({ center: [p.lat, p.long], zoom: zoomFor(radius) });
    } catch {
      toast(t('errors.position'), 'error');
    } finally {
      setLocating(false);
    }
  };

  return (
    <div class="map-page">
      <div class="map-toolbar container">
        <h1 class="map-title">{t('map.title')}</h1>
        <form
          role="search"
          class="map-search"
          onSubmit={(e) => {
            e.preventDefault();
            setQ(typed.trim());
          }}
        >
          <label class="field-label" for="m-q">
            {t('map.searchText')}
          </label>
          <div class="input-with-btn">
            <input id="m-q" class="input" type="search" value={typed} onInput={(e) => setTyped((e.target as HTMLInputElement).value)} placeholder={t('map.searchPlaceholder')} enterKeyHint="search" />
            <button type="submit" class="btn btn-primary" aria-label={t('nav.search')}>
              <Icon name="search" size={18} />
            </button>
          </div>
        </form>
        <div class="map-controls">
          <div class="map-control">
            <label for="m-radius">{t('map.radius')}</label>
            <select
              id="m-radius"
              class="select"
              value={radius}
              onChange={(e) => widen(Number((e.target as HTMLSelectElement).value))}
            >
              {RADII.map((r) => (
                <option key={r} value={r}>
                  {radiusText(r)}
                </option>
              ))}
            </select>
          </div>
          <div class="map-control">
            <label for="m-category">{t('search.category')}</label>
            <select id="m-category" class="select" value={category} onChange={(e) => setCategory((e.target as HTMLSelectElement).value)}>
              <option value="">{t('search.allCategories')}</option>
              {(tree.data ?? []).map((f) => (
                <optgroup key={f.id} label={localName(f, lang)}>
                  <option value={f.slag}>{t('search.allOf', { name: localName(f, lang) })}</option>
                  {(f.children ?? []).map((c) => (
                    <option key={c.id} value={c.slag}>
                      {localName(c, lang)}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          </div>
          <button type="button" class="btn btn-outline locate-btn" onClick={useMyPosition} disabled={locating}>
            {locating ? <span class="spinner" aria-hidden="true" /> : <Icon name="locate" size={18} />}
            {t('city.useMyPosition')}
          </button>
        </div>
      </div>

      <div class="map-layout container">
        <div class="map-box">
          {config.status !== 'loading' && (
            <Suspense fallback={<div class="kd-map skeleton" />}>
              <LeafletMap
                tiles={config.data?.tiles}
                attribution={t('map.attribution')}
                center={view.center}
                zoom={view.zoom}
                markers={markers}
                cluster={{ label: (n) => t('map.cluster', { n: formatNumber(n, lang) }), count: (n) => formatNumber(n, lang) }}
                onSelect={select}
                circle={{ lat: center[0], lng: center[1], radius }}
                label={t('map.label')}
                openLabel={t('map.openProfile')}
                onMoveEnd={onMoveEnd}
                onNavigate={(h) => navigate(h)}
              />
            </Suspense>
          )}
          <span class="map-crosshair" aria-hidden="true" />
        </div>
        <section class="map-results" aria-live="polite" aria-busy={result.status === 'loading'}>
          <h2 class="small muted map-count">
            {result.status === 'loading' ? t('common.loading') : t('map.found', { count: profiles.length, n: formatNumber(profiles.length, lang) })}
          </h2>
          {result.data?.offline && <OfflineNote />}
          {/* The heading above already says it is loading. */}
          <Loaded
            load={result}
            loading={null}
            isEmpty={() => profiles.length === 0}
            empty={
              wider ? (
                <EmptyState text={t('map.widen', { from: radiusText(radius), to: radiusText(wider) })} icon="map">
                  <button type="button" class="btn btn-primary map-widen" onClick={() => widen(wider)}>
                    {t('map.widenAction', { to: radiusText(wider) })}
                  </button>
                </EmptyState>
              ) : (
                <EmptyState text={t('map.emptyText')} icon="map" />
              )
            }
          >
            {() => (
              <div class="map-list">
                {profiles.map((p) => (
                  // biome-ignore lint/a11y/noStaticElementInteractions: hover and focus only highlight the pin on the map; the card inside is the control
                  <div
                    key={p.id}
                    id={`map-card-${p.id}`}
                    class={`map-item ${p.id === active ? 'is-active' : ''}`}
                    onMouseEnter={() => setActive(p.id)}
                    onFocusCapture={() => setActive(p.id)}
                  >
                    <ProfileCard p={p} />
                  </div>
                ))}
              </div>
            )}
          </Loaded>
        </section>
      </div>
    </div>
  );
}
