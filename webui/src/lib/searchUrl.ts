import { skipFor, TAKE } from './paging';

export const ORDERS = ['relevance', 'best', 'reviews', 'nearest', 'newest'] as const;
export type Order = (typeof ORDERS)[number];

/** Filters of the search screen, all held in its URL. */
export interface SearchFilters {
  city: string; // a city slag, or 'iran' for no city filter
  category?: string; // a field of work or category slag
  q?: string;
  province?: number;
  min_score?: number;
  order?: Order;
  /** Only the profiles open now. */
  open?: boolean;
  /** The point distances are measured from ("nearest"), rounded to about 10 m. */
  near?: { lat: number; long: number };
  /** How far from `near` to look, in metres (one of RADII; the server's 5 km when absent). */
  radius?: number;
  /** Only businesses with a service priced within these bounds (Toman). */
  price_min?: number;
  price_max?: number;
  page: number;
}

/** The distances offered around a known position, in metres; 5 km is the server's default. */
export const RADII = [1000, 2000, 5000, 10000, 25000, 50000] as const;
export const DEFAULT_RADIUS = 5000;

/** The highest price a search may name (Toman), as the server bounds it. */
export const MAX_SEARCH_PRICE = 1_000_000_000_000;

export const ALL_IRAN = 'iran';

function clean(s: string | null | undefined): string | undefined {
  const v = (s ?? '').trim();
  return v ? v : undefined;
}

// A plain decimal number, as both this file and the server (api/embed_answer.go) read one from an
// address: Number() alone would also take "0x10" and "Infinity", which the server does not.
const DECIMAL = /^[ \t\n\r]*\+?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[ \t\n\r]*$/;

// The point of "nearest" in an address: "lat,long" in degrees (api/embed_answer.go reads the same).
const NEAR = /^(-?\d{1,3}(?:\.\d+)?),(-?\d{1,3}(?:\.\d+)?)$/;

function decimal(s: string | null): number | undefined {
  return s !== null && DECIMAL.test(s) ? Number(s) : undefined;
}

function positiveInt(s: string | null, max = 2 ** 31 - 1): number | undefined {
  const n = decimal(s);
  return n !== undefined && Number.isInteger(n) && n > 0 && n <= max ? n : undefined;
}

/** Reads `/search/{city|iran}/{category?}?q=&province=&min_score=&order=&open=&near=&radius=&price_min=&price_max=&page=`. */
export function filtersFromUrl(pathname: string, search: string): SearchFilters {
  const parts = pathname.split('/').filter(Boolean).map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  const i = parts.indexOf('search');
  const city = clean(i >= 0 ? parts[i + 1] : undefined)?.toLowerCase() ?? ALL_IRAN;
  const category = clean(i >= 0 ? parts[i + 2] : undefined);
  const qs = new URLSearchParams(search);
  const f: SearchFilters = { city, page: positiveInt(qs.get('page')) ?? 1 };
  if (category) f.category = category;
  const q = clean(qs.get('q'));
  if (q) f.q = q;
  const province = positiveInt(qs.get('province'));
  if (province) f.province = province;
  const ms = decimal(qs.get('min_score'));
  if (ms !== undefined && ms > 0 && ms <= 5) f.min_score = ms;
  const order = qs.get('order') as Order | null;
  if (order && (ORDERS as readonly string[]).includes(order)) f.order = order;
  if (qs.get('open') === '1') f.open = true;
  const near = NEAR.exec(qs.get('near') ?? '');
  if (near) {
    const lat = Number(near[1]);
    const long = Number(near[2]);
    if (Math.abs(lat) <= 90 && Math.abs(long) <= 180) f.near = { lat, long };
  }
  // A radius means nothing without the point it is measured from.
  const radius = positiveInt(qs.get('radius'));
  if (f.near && radius !== undefined && (RADII as readonly number[]).includes(radius)) f.radius = radius;
  const pmin = positiveInt(qs.get('price_min'), MAX_SEARCH_PRICE);
  const pmax = positiveInt(qs.get('price_max'), MAX_SEARCH_PRICE);
  // A range upside down is read as its two ends in order, as the filter writes them.
  if (pmin !== undefined && pmax !== undefined && pmin > pmax) {
    f.price_min = pmax;
    f.price_max = pmin;
  } else {
    if (pmin !== undefined) f.price_min = pmin;
    if (pmax !== undefined) f.price_max = pmax;
  }
  return f;
}

/** The canonical URL of a set of filters (inverse of filtersFromUrl). */
export function urlFromFilters(f: Partial<SearchFilters>): string {
  let path = `/search/${encodeURIComponent(f.city || ALL_IRAN)}`;
  if (f.category) path += `/${encodeURIComponent(f.category)}`;
  const qs = new URLSearchParams();
  if (f.q?.trim()) qs.set('q', f.q.trim());
  if (f.province) qs.set('province', String(f.province));
  if (f.min_score) qs.set('min_score', String(f.min_score));
  if (f.order) qs.set('order', f.order);
  if (f.open) qs.set('open', '1');
  if (f.near) qs.set('near', `${f.near.lat.toFixed(4)},${f.near.long.toFixed(4)}`);
  if (f.near && f.radius) qs.set('radius', String(f.radius));
  if (f.price_min) qs.set('price_min', String(f.price_min));
  if (f.price_max) qs.set('price_max', String(f.price_max));
  if (f.page && f.page > 1) qs.set('page', String(f.page));
  const s = qs.toString();
  return s ? `${path}?${s}` : path;
}

export interface SearchBody {
  take: number;
  skip: number;
  category_slag?: string;
  city_slag?: string;
  province_id?: number;
  lat?: number;
  long?: number;
  radius?: number;
  minLevel_score?: number;
  min_score?: number;
  search_txt?: string;
  order?: Order;
  open_now?: boolean;
  price_min?: number;
  price_max?: number;
}

/** The body of POST /v1/user-technical/searchUser for the filters. */
export function searchBody(f: SearchFilters): SearchBody {
  const body: SearchBody = { take: TAKE, skip: skipFor(f.page) };
  if (f.category) body.category_slag = f.category;
  if (f.city && f.city !== ALL_IRAN) body.city_slag = f.city;
  if (f.province) body.province_id = f.province;
  if (f.min_score) body.min_score = f.min_score;
  if (f.q) body.search_txt = f.q;
  if (f.order) body.order = f.order;
  if (f.open) body.open_now = true;
  if (f.price_min) body.price_min = f.price_min;
  if (f.price_max) body.price_max = f.price_max;
  if (f.near) {
    body.lat = f.near.lat;
    body.long = f.near.long;
    if (f.radius) body.radius = f.radius;
  }
  return body;
}
