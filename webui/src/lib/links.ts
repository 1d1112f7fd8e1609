import { toLatinDigits } from './digits';

/** Links built from profile data: contact ways, routing services and share targets. */

export interface ContactLink {
  kind: string; // normalised type: phone, mobile, fax, telegram, ...
  icon: string;
  href: string | null; // null when the value is shown as text only
  text: string;
  sms?: string | null;
  external: boolean;
}

const SAFE = /^(https?:|tel:|sms:|mailto:|skype:)/i;

/** Only web, phone, SMS, mail and Skype links are ever put in an href (user data must not inject javascript: URLs). */
export function safeHref(href: string | null | undefined): string | null {
  if (!href) return null;
  const h = href.trim();
  return SAFE.test(h) ? h : null;
}

function handle(v: string): string {
  return v.trim().replace(/^@/, '').replace(/^https?:\/\/[^/]+\//i, '').replace(/\/+$/, '');
}

function digits(v: string): string {
  return toLatinDigits(v).replace(/[^\d+]/g, '');
}

/** International form for wa.me: 0912… → 98912…, +98… → 98… */
export function waNumber(v: string): string {
  const d = digits(v).replace(/^\+/, '');
  if (d.startsWith('00')) return d.slice(2);
  if (d.startsWith('0')) return `98${d.slice(1)}`;
  return d;
}

const WEB: Record<string, (h: string) => string> = {
  telegram: (h) => `https://t.me/${h}`,
  instagram: (h) => `https://instagram.com/${h}`,
  eitaa: (h) => `https://eitaa.com/${h}`,
  bale: (h) => `https://ble.ir/${h}`,
  rubika: (h) => `https://rubika.ir/${h}`,
  soroush: (h) => `https://splus.ir/${h}`,
  igap: (h) => `https://igap.net/${h}`,
  gap: (h) => `https://gap.im/${h}`,
  linkedin: (h) => `https://www.linkedin.com/in/${h}`,
  github: (h) => `https://github.com/${h}`,
  gitlab: (h) => `https://gitlab.com/${h}`,
  twitter: (h) => `https://x.com/${h}`,
  facebook: (h) => `https://facebook.com/${h}`,
  youtube: (h) => `https://youtube.com/@${h}`,
  tiktok: (h) => `https://www.tiktok.com/@${h}`,
  pinterest: (h) => `https://pinterest.com/${h}`,
  reddit: (h) => `https://www.reddit.com/user/${h}`,
};

const ICON: Record<string, string> = {
  phone: 'phone',
  mobile: 'phone',
  fax: 'fax',
  email: 'mail',
  site: 'globe',
  telegram: 'telegram',
  whatsapp: 'whatsapp',
  instagram: 'instagram',
  youtube: 'youtube',
  linkedin: 'linkedin',
  github: 'code',
  gitlab: 'code',
  eitaa: 'chat',
  bale: 'chat',
  rubika: 'chat',
  soroush: 'chat',
  igap: 'chat',
  gap: 'chat',
  wechat: 'chat',
  discord: 'chat',
  skype: 'chat',
};

/** Normalises the spellings found in the data (Whatsap, TikTak, Ather …). */
export function contactKind(type: string): string {
  const t = (type || '').trim().toLowerCase();
  if (t.startsWith('whats')) return 'whatsapp';
  if (t === 'tiktak' || t === 'tiktok') return 'tiktok';
  if (t === 'ather' || t === 'other') return 'other';
  if (t === 'tel' || t === 'telephone') return 'phone';
  if (t === 'mail' || t === 'e-mail') return 'email';
  if (t === 'website' || t === 'web') return 'site';
  if (t === 'cellphone' || t === 'cell') return 'mobile';
  return t;
}

export function contactLink(type: string, link: string): ContactLink {
  const kind = contactKind(type);
  const value = (link || '').trim();
  const icon = ICON[kind] ?? 'link';
  const isUrl = /^https?:\/\//i.test(value);
  const base = { kind, icon, text: value, external: true };
  switch (kind) {
    case 'phone':
    case 'fax':
      return { ...base, href: safeHref(`tel:${digits(value)}`), external: false };
    case 'mobile':
      return { ...base, href: safeHref(`tel:${digits(value)}`), sms: safeHref(`sms:${digits(value)}`), external: false };
    case 'email':
      return { ...base, href: safeHref(`mailto:${value.replace(/^mailto:/i, '')}`), external: false };
    case 'whatsapp':
      return { ...base, href: isUrl ? safeHref(value) : `https://wa.me/${waNumber(value)}` };
    case 'skype':
      return { ...base, href: isUrl ? safeHref(value) : safeHref(`skype:${handle(value)}?chat`) };
    case 'site':
    case 'other':
      if (isUrl) return { ...base, href: safeHref(value) };
      if (kind === 'site' && /^[\w.-]+\.[a-z]{2,}(\/.*)?$/i.test(value)) return { ...base, href: `https://${value}` };
      return { ...base, href: null, external: false };
    default:
      if (isUrl) return { ...base, href: safeHref(value) };
      if (WEB[kind]) return { ...base, href: WEB[kind](encodeURIComponent(handle(value)).replace(/%2F/g, '/')) };
      return { ...base, href: null, external: false };
  }
}

export interface RouteLink {
  name: 'google' | 'waze' | 'neshan' | 'balad';
  href: string;
}

/** "Route with" links for a point (latitude, longitude). */
export function routeLinks(lat: number, lng: number): RouteLink[] {
  const la = lat.toFixed(6);
  const lo = lng.toFixed(6);
  return [
    { name: 'google', href: `https://www.google.com/maps/dir/?api=1&destination=${la},${lo}` },
    { name: 'waze', href: `https://waze.com/ul?ll=${la},${lo}&navigate=yes` },
    { name: 'neshan', href: `https://neshan.org/maps/@${la},${lo},16z,0p` },
    { name: 'balad', href: `https://balad.ir/location?latitude=${la}&longitude=${lo}` },
  ];
}

/** A profile's location as [longitude, latitude] → {lat, lng}, or null. */
export function latLng(location: unknown): { lat: number; lng: number } | null {
  if (!Array.isArray(location) || location.length < 2) return null;
  const [lng, lat] = location.map(Number);
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || (lat === 0 && lng === 0)) return null;
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return { lat, lng };
}

// Characters that must never be shown raw in a link (bidi controls and their kin would reorder or
// hide what a person reads); ZWNJ, common in Persian words, is not one of them.
const HIDDEN = /[\u0080-\u009f\u00ad\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]|\s/;
const ASCII_UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * A link as a person reads it: percent-encoded letters (a Persian slug) decoded, while everything
 * that would change the link's meaning or hide in it stays encoded (ASCII other than letters,
 * digits and `-._~`, spaces, bidi controls, broken sequences). The encoded link is the one to copy
 * and share.
 */
export function readableUrl(url: string): string {
  return url.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    let text: string;
    try {
      text = decodeURIComponent(run);
    } catch {
      return run;
    }
    return [...text]
      .map((c) => ((c < '\u0080' && !ASCII_UNRESERVED.test(c)) || HIDDEN.test(c) ? encodeURIComponent(c) : c))
      .join('');
  });
}

export interface ShareTarget {
  name: 'telegram' | 'whatsapp' | 'eitaa' | 'bale';
  href: string;
}

export function shareTargets(url: string, text: string): ShareTarget[] {
  const u = encodeURIComponent(url);
  const tx = encodeURIComponent(text);
  return [
    { name: 'telegram', href: `https://t.me/share/url?url=${u}&text=${tx}` },
    { name: 'whatsapp', href: `https://wa.me/?text=${encodeURIComponent(`${text}\n${url}`)}` },
    { name: 'eitaa', href: `https://eitaa.com/share/url?url=${u}&text=${tx}` },
    { name: 'bale', href: `https://ble.ir/share/url?url=${u}&text=${tx}` },
  ];
}
