import { lazy, Suspense } from 'preact/compat';
import { useMemo, useState } from 'preact/hooks';
import { useNavigate } from 'react-router-dom';
import { getConfig, type Profile } from '../../api';
import type { MapMarker } from '../../components/LeafletMap';
import { localName, useTranslation } from '../../i18n';
import { formatNumber } from '../../lib/format';
import { latLng } from '../../lib/links';
import { RADII } from '../../lib/searchUrl';
import { useLoad } from '../../lib/useLoad';

const LeafletMap = lazy(() => import('../../components/LeafletMap'));

/** Metres a screen pixel covers at a zoom and latitude (Web Mercator tiles of 256 pixels). */
function metresPerPixel(lat: number, zoom: number): number {
  return (156_543.03 * Math.cos((lat * Math.PI) / 180)) / 2 ** zoom;
}

/**
 * The smallest of the search's distances that covers the map's view from its centre: the view's
 * half diagonal, for a map box of about 600 by 700 pixels.
 */
export function radiusForView(lat: number, zoom: number): number {
  const halfDiagonal = 460 * metresPerPixel(lat, zoom);
  return RADII.find((r) => r >= halfDiagonal) ?? RADII[RADII.length - 1];
}

/**
 * The results' page on a map beside the list (wide screens): a pin a card, close pins as one
 * numbered disc, the card under the pointer marked on the map and the pin chosen marked in the
 * list. Once the visitor moves the map, "search this area" searches around its centre.
 */
export default function ResultsMap({
  profiles,
  active,
  onSelect,
  onSearchArea,
}: {
  profiles: Profile[];
  active: number | null;
  onSelect: (id: number) => void;
  onSearchArea: (center: { lat: number; long: number }, radius: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const navigate = useNavigate();
  const config = useLoad(() => getConfig().catch(() => null), []);
  const [moved, setMoved] = useState<{ lat: number; lng: number; zoom: number } | null>(null);
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
  // The view starts at the first pin and then follows the pins (fit): never a fresh centre,
  // which would move the map as if the visitor had.
  const [start] = useState<[number, number]>(() => (markers[0] ? [markers[0].lat, markers[0].lng] : [35.6892, 51.389]));
  if (config.status === 'loading') return <div class="search-map kd-map skeleton" />;
  return (
    <div class="search-map">
      <Suspense fallback={<div class="kd-map skeleton" />}>
        <LeafletMap
          tiles={config.data?.tiles}
          attribution={t('map.attribution')}
          center={start}
          zoom={12}
          markers={markers}
          fit
          cluster={{ label: (n) => t('map.cluster', { n: formatNumber(n, lang) }), count: (n) => formatNumber(n, lang) }}
          onSelect={(id) => onSelect(Number(id))}
          label={t('map.label')}
          openLabel={t('map.openProfile')}
          onMoveEnd={(c, zoom, byVisitor) => byVisitor && setMoved({ ...c, zoom })}
          onNavigate={(h) => navigate(h)}
        />
      </Suspense>
      {moved && (
        <button
          type="button"
          class="btn btn-primary btn-sm search-area"
          onClick={() => {
            onSearchArea({ lat: moved.lat, long: moved.lng }, radiusForView(moved.lat, moved.zoom));
            setMoved(null);
          }}
        >
          {t('search.searchArea')}
        </button>
      )}
    </div>
  );
}
