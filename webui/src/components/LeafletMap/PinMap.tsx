import { useEffect, useRef } from 'preact/hooks';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import './map.css';
import { DEFAULT_TILES } from './index';
import { useTranslation } from '../../i18n';

export interface PinMapProps {
  tiles?: string;
  attribution: string;
  /** Where to look when there is no pin yet (the city's centre). */
  center: { lat: number; lng: number };
  zoom?: number;
  value: { lat: number; lng: number } | null;
  onChange: (p: { lat: number; lng: number }) => void;
  label: string;
  markerLabel: string;
}

function pinIcon() {
  return L.divIcon({
    className: 'kd-pin kd-pin-active',
    html: '<svg viewBox="0 0 32 44" width="32" height="44" aria-hidden="true"><path d="M16 1C7.7 1 1 7.6 1 15.8 1 27 16 43 16 43s15-16 15-27.2C31 7.6 24.3 1 16 1z"/><circle cx="16" cy="16" r="6"/></svg>',
    iconSize: [32, 44],
    iconAnchor: [16, 43],
  });
}

/**
 * A map to set one point: tap or click to put the pin, drag it to adjust. Arrow keys move a
 * focused pin by a few metres, so the keyboard can place it too.
 */
export default function PinMap(p: PinMapProps) {
  const el = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const marker = useRef<L.Marker | null>(null);
  const cb = useRef(p);
  cb.current = p;
  const { t } = useTranslation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: the map is built once per tile server; the effects below follow the other props
  useEffect(() => {
    if (!el.current) return;
    const start = p.value ?? p.center;
    const m = L.map(el.current, { center: [start.lat, start.lng], zoom: p.value ? 16 : p.zoom ?? 12, scrollWheelZoom: false, zoomControl: false });
    // Zoom buttons named in the page's language.
    L.control.zoom({ zoomInTitle: t('map.zoomIn'), zoomOutTitle: t('map.zoomOut') }).addTo(m);
    L.tileLayer(p.tiles || DEFAULT_TILES, { maxZoom: 19, attribution: p.attribution }).addTo(m);
    m.attributionControl.setPrefix(false);
    m.on('click', (e: L.LeafletMouseEvent) => cb.current.onChange({ lat: e.latlng.lat, lng: e.latlng.lng }));
    map.current = m;
    return () => {
      m.remove();
      map.current = null;
      marker.current = null;
    };
  }, [p.tiles]);

  // The pin follows the value.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the pin follows the coordinates, not the object that carries them
  useEffect(() => {
    const m = map.current;
    if (!m) return;
    if (!p.value) {
      marker.current?.remove();
      marker.current = null;
      return;
    }
    const at: L.LatLngExpression = [p.value.lat, p.value.lng];
    if (!marker.current) {
      const mk = L.marker(at, { icon: pinIcon(), draggable: true, keyboard: true, title: p.markerLabel, alt: p.markerLabel, autoPan: true });
      mk.on('dragend', () => {
        const ll = mk.getLatLng();
        cb.current.onChange({ lat: ll.lat, lng: ll.lng });
      });
      mk.addTo(m);
      mk.getElement()?.addEventListener('keydown', (e: KeyboardEvent) => {
        const step = 0.0002 * 2 ** (16 - m.getZoom());
        const d: Record<string, [number, number]> = { ArrowUp: [step, 0], ArrowDown: [-step, 0], ArrowLeft: [0, -step], ArrowRight: [0, step] };
        if (!d[e.key]) return;
        e.preventDefault();
        e.stopPropagation();
        const ll = mk.getLatLng();
        cb.current.onChange({ lat: ll.lat + d[e.key][0], lng: ll.lng + d[e.key][1] });
      });
      marker.current = mk;
    } else {
      marker.current.setLatLng(at);
    }
    if (!m.getBounds().pad(-0.1).contains(at)) m.panTo(at);
  }, [p.value?.lat, p.value?.lng]);

  // With no pin, a new city recentres the map.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new city recentres the map; moving the pin must not
  useEffect(() => {
    const m = map.current;
    if (!m || p.value) return;
    m.setView([p.center.lat, p.center.lng], p.zoom ?? 12);
  }, [p.center.lat, p.center.lng, p.zoom]);

  return <div ref={el} class="kd-map pin-map" dir="ltr" role="region" aria-label={p.label} />;
}
