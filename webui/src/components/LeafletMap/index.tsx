import { useEffect, useRef } from 'preact/hooks';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import './map.css';
import { useTranslation } from '../../i18n';
import { clusterPoints } from './cluster';

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
  /** The view moved; byVisitor when the visitor dragged or zoomed it (not a popup making room, not a fit). */
  onMoveEnd?: (center: { lat: number; lng: number }, zoom: number, byVisitor: boolean) => void;
  onNavigate?: (href: string) => void;
  /** Pins closer than a finger's width are drawn as one numbered disc: its accessible name and shown number. */
  cluster?: { label: (n: number) => string; count: (n: number) => string };
  /** A pin was chosen on the map (clicked, tapped or pressed). */
  onSelect?: (id: MapMarker['id']) => void;
  /** Fit the view to the pins whenever a new set arrives (center and zoom then only start it). */
  fit?: boolean;
}

/** How close two pins may come on the screen before they are drawn as one, in pixels. */
const CLUSTER_PX = 44;

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

function clusterIcon(count: string) {
  const box = document.createElement('span');
  box.textContent = count;
  return L.divIcon({ className: 'kd-cluster', html: box, iconSize: [44, 44], iconAnchor: [22, 22] });
}

/** The list a cluster opens when zooming in can part it no further (pins at one address). */
function clusterList(items: MapMarker[], onNavigate?: (href: string) => void): HTMLElement {
  const list = document.createElement('ul');
  list.className = 'kd-cluster-list';
  list.dir = 'auto';
  for (const m of items) {
    const li = document.createElement('li');
    if (m.href) {
      const a = document.createElement('a');
      a.href = m.href;
      a.textContent = m.title ?? '';
      a.addEventListener('click', (e) => {
        if (!onNavigate) return;
        e.preventDefault();
        onNavigate(m.href!);
      });
      li.appendChild(a);
    } else li.textContent = m.title ?? '';
    list.appendChild(li);
  }
  return list;
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
  const fitting = useRef(false);
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
    // A drag or a zoom is the visitor's; a popup making room for itself pans without either.
    const byVisitor = { current: false };
    m.on('dragstart zoomstart', () => {
      if (!fitting.current) byVisitor.current = true;
    });
    m.on('moveend', () => {
      // A move the map made itself to fit new pins is not the visitor's.
      if (fitting.current) return;
      const c = m.getCenter();
      cb.current.onMoveEnd?.({ lat: c.lat, lng: c.lng }, m.getZoom(), byVisitor.current);
      byVisitor.current = false;
    });
    // Pins part or join as the zoom changes.
    m.on('zoomend', () => draw.current());
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

  // Leaflet gives keyboard markers role="button" but turns only Enter into a popup: the marker's own
  // action (mark the card, zoom into a group) must answer the keys a button answers.
  const onKeys = (fn: () => void) => (e: L.LeafletKeyboardEvent) => {
    if (e.originalEvent.key === 'Enter' || e.originalEvent.key === ' ') fn();
  };

  const pin = (g: L.LayerGroup, mk: MapMarker) => {
    // Only a marker with a popup is a control (Leaflet gives keyboard markers role="button"): a bare
    // pin, such as the one on a profile's own map, has nothing to do and no name to announce.
    const marker = L.marker([mk.lat, mk.lng], {
      icon: pinIcon(mk.active),
      title: mk.title,
      alt: mk.title,
      keyboard: !!mk.title,
      zIndexOffset: mk.active ? 1000 : 0,
    });
    if (mk.title) marker.bindPopup(() => popupContent(mk, cb.current.openLabel, (h) => cb.current.onNavigate?.(h)));
    marker.on('click', () => cb.current.onSelect?.(mk.id));
    if (mk.title) marker.on('keypress', onKeys(() => cb.current.onSelect?.(mk.id)));
    marker.addTo(g);
    if (mk.active) marker.openPopup();
  };

  const draw = useRef(() => {});
  draw.current = () => {
    const m = map.current;
    const g = layer.current;
    if (!m || !g) return;
    g.clearLayers();
    const c = cb.current.cluster;
    if (!c) {
      for (const mk of cb.current.markers) pin(g, mk);
      return;
    }
    // The chosen pin stays apart, so the list and the map always show it.
    const zoom = m.getZoom();
    const loose = cb.current.markers.filter((mk) => !mk.active);
    for (const mk of cb.current.markers) if (mk.active) pin(g, mk);
    const groups = clusterPoints(
      loose.map((mk) => {
        const p = m.project([mk.lat, mk.lng], zoom);
        return { x: p.x, y: p.y, item: mk };
      }),
      CLUSTER_PX,
    );
    for (const grp of groups) {
      if (grp.items.length === 1) {
        pin(g, grp.items[0]);
        continue;
      }
      const at = m.unproject([grp.x, grp.y], zoom);
      const label = c.label(grp.items.length);
      const marker = L.marker(at, { icon: clusterIcon(c.count(grp.items.length)), title: label, keyboard: true, zIndexOffset: 500 });
      const bounds = L.latLngBounds(grp.items.map((mk) => [mk.lat, mk.lng] as [number, number]));
      // Zoomed in as far as the tiles go (or one address), the group opens as a list instead.
      const last = zoom >= m.getMaxZoom() - 1 || bounds.getNorthEast().equals(bounds.getSouthWest());
      if (last) marker.bindPopup(() => clusterList(grp.items, (h) => cb.current.onNavigate?.(h)));
      else {
        const part = () => m.fitBounds(bounds.pad(0.3), { maxZoom: m.getMaxZoom() });
        marker.on('click', part);
        marker.on('keypress', onKeys(part));
      }
      marker.addTo(g);
      marker.getElement()?.setAttribute('aria-label', label);
    }
  };

  // draw reads the latest props through cb: new markers, or clustering switched, draw again.
  useEffect(() => draw.current(), [p.markers, !!p.cluster]);

  // A new set of pins (not the same pins with another one marked) brings the view to them.
  const pinSet = p.markers.map((mk) => mk.id).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new set of pins moves the view
  useEffect(() => {
    const m = map.current;
    if (!m || !p.fit || p.markers.length === 0) return;
    const bounds = L.latLngBounds(p.markers.map((mk) => [mk.lat, mk.lng] as [number, number]));
    // Without animation fitBounds moves the view at once, its moveend fired within the call.
    fitting.current = true;
    m.fitBounds(bounds.pad(0.15), { maxZoom: 16, animate: false });
    fitting.current = false;
  }, [pinSet, p.fit]);

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
