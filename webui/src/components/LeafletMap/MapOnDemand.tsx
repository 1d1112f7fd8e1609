import { lazy, Suspense } from 'preact/compat';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useTranslation } from '../../i18n';
import { getConfig, type AppConfig } from '../../api';
import { useLoad } from '../../lib/useLoad';
import { Icon } from '../Icon';
import type { MapProps } from './index';
import './map-later.css';

const LeafletMap = lazy(() => import('./index'));

/** Whether the map should load now: once the box comes near the window, or the visitor asks. */
export function useNearView(box: { current: Element | null }, margin = '200px'): [boolean, () => void] {
  const [near, setNear] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the box is observed once it exists; a ref is not a dependency
  useEffect(() => {
    if (near || !box.current || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: margin });
    io.observe(box.current);
    return () => io.disconnect();
  }, [near, margin]);
  return [near, () => setNear(true)];
}

/**
 * A map that costs nothing until it is seen: Leaflet (about 45 KB) and its tiles load when the box
 * scrolls near the window, or when the visitor presses the button in it. On a slow mobile network
 * the page's own text comes first, and the box keeps the map's size so nothing moves when it
 * arrives. Addresses and route links stay beside it as plain links.
 */
export function MapOnDemand(p: Omit<MapProps, 'tiles'>) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const [wanted, want] = useNearView(box);
  // Without the configuration the map still shows, with the default tiles.
  const config = useLoad<AppConfig | null>(() => getConfig().catch(() => null), [], { enabled: wanted, progress: false });

  if (wanted && config.data !== undefined) {
    return (
      <Suspense fallback={<div class="kd-map-later skeleton" />}>
        <LeafletMap {...p} tiles={config.data?.tiles} />
      </Suspense>
    );
  }
  return (
    <div ref={box} class="kd-map-later">
      <button type="button" class="btn btn-outline" onClick={want} disabled={wanted}>
        <Icon name="map" size={18} />
        {t('map.show')}
      </button>
    </div>
  );
}
