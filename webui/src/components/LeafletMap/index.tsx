import { useEffect, useRef } from 'preact/hooks';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import './map.css';
import { useTranslation } from '../../i18n';

export const DEFAULT_TILES = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

export interface MapMarker {
  id: string | number;
  lat: number;
  lng: number;
  title?: string;
  subtitle?: string;
  href?: string;
  active?: boolean;
}

export interface MapProps {
  tiles?: string;
  attribution: string;
  center: [number, number];
  zoom: number;
  markers: MapMarker[];
  circle?: { lat: number; lng: number; radius: number } | null;
  fitCircle?: boolean;
  interactive?: boolean;
  label: string;
  openLabel?: string;
  class?: string;
  onMoveEnd?: (center: { lat: number; lng: number }, zoom: number) => void;
  onNavigate?: (href: string) => void;
}

/** Marker icon drawn in CSS/SVG, so no image files have to resolve (Leaflet's defaults 404 under Vite). */
function pinIcon(active?: boolean) {
  return L.divIcon({
    className: `kd-pin${active ? ' kd-pin-active' : ''}`,
    html: '<svg viewBox="0 0 32 44" width="32" height="44" aria-hidden="true"><path d="M16 1C7.7 1 1 7.6 1 15.8 1 27 16 43 16 43s15-16 15-27.2C31 7.6 24.3 1 16 1z"/><circle cx="16" cy="16" r="6"/></svg>',
    iconSize: [32, 44],
    iconAnchor: [16, 43],
    popupAnchor: [0, -38],
  });
}

function popupContent(m: MapMarker, openLabel: string | undefined, onNavigate?: (href: string) => void): HTMLElement {
  const box = document.createElement('div');
  box.className = 'kd-popup';
  box.dir = 'auto';
  const title = document.createElement('strong');
  title.textContent = m.title ?? '';
  box.appendChild(title);
  if (m.subtitle) {
    const sub = document.createElement('span');
    sub.textContent = m.subtitle;
    box.appendChild(sub);
  }
  if (m.href) {
    const a = document.createElement('a');
    a.href = m.href;
    a.textContent = openLabel ?? m.title ?? '';
    a.addEventListener('click', (e) => {
      if (!onNavigate) return;
      e.preventDefault();
      onNavigate(m.href!);
    });
    box.appendChild(a);
  }
  return box;
}

export default function LeafletMap(p: MapProps) {
  const el = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  const circle = useRef<L.Circle | null>(null);
  const cb = useRef(p);
  cb.current = p;
  const { t } = useTranslation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: the map is built once per tile server; the effects below follow the other props
  useEffect(() => {
    if (!el.current) return;
    const m = L.map(el.current, {
      center: p.center,
      zoom: p.zoom,
      // Our own zoom control, so its buttons are named in the page's language (Leaflet's say "Zoom in").
      zoomControl: false,
      dragging: p.interactive !== false,
      scrollWheelZoom: false,
      attributionControl: true,
    });
    L.tileLayer(p.tiles || DEFAULT_TILES, { maxZoom: 19, attribution: p.attribution }).addTo(m);
    m.attributionControl.setPrefix(false);
    if (p.interactive !== false) L.control.zoom({ zoomInTitle: t('map.zoomIn'), zoomOutTitle: t('map.zoomOut') }).addTo(m);
    layer.current = L.layerGroup().addTo(m);
    m.on('moveend', () => {
      const c = m.getCenter();
      cb.current.onMoveEnd?.({ lat: c.lat, lng: c.lng }, m.getZoom());
    });
    map.current = m;
    return () => {
      m.remove();
      map.current = null;
    };
  }, [p.tiles]);

  useEffect(() => {
    const m = map.current;
    if (!m) return;
    const c = m.getCenter();
    if (Math.abs(c.lat - p.center[0]) > 1e-6 || Math.abs(c.lng - p.center[1]) > 1e-6 || m.getZoom() !== p.zoom) {
      m.setView(p.center, p.zoom);
    }
  }, [p.center[0], p.center[1], p.zoom]);

  useEffect(() => {
    const g = layer.current;
    if (!g) return;
    g.clearLayers();
    for (const mk of p.markers) {
      // Only a marker with a popup is a control (Leaflet gives keyboard markers role="button"): a bare
      // pin, such as the one on a profile's own map, has nothing to do and no name to announce.
      const marker = L.marker([mk.lat, mk.lng], { icon: pinIcon(mk.active), title: mk.title, alt: mk.title, keyboard: !!mk.title });
      if (mk.title) marker.bindPopup(() => popupContent(mk, cb.current.openLabel, (h) => cb.current.onNavigate?.(h)));
      marker.addTo(g);
      if (mk.active) marker.openPopup();
    }
  }, [p.markers]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the circle follows its coordinates and radius; fitCircle only says how to show a new one
  useEffect(() => {
    const m = map.current;
    if (!m) return;
    circle.current?.remove();
    circle.current = null;
    if (p.circle) {
      circle.current = L.circle([p.circle.lat, p.circle.lng], { radius: p.circle.radius, className: 'kd-circle', interactive: false }).addTo(m);
      if (p.fitCircle) m.fitBounds(circle.current.getBounds(), { animate: false });
    }
  }, [p.circle?.lat, p.circle?.lng, p.circle?.radius]);

  return <div ref={el} class={`kd-map ${p.class ?? ''}`} dir="ltr" role="region" aria-label={p.label} />;
}
