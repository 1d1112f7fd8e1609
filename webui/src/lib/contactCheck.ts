import { toLatinDigits } from './digits';
import { normalizeMobile } from './validate';

/** What a link of each type must look like (the same rules the server applies). */
export type LinkKind = 'handle' | 'messenger' | 'phone' | 'mobile' | 'email' | 'site' | 'any';

/** The contact types of SPEC §3, spelt as the server stores them, in the order the form offers them. */
export const CONTACT_TYPES: { type: string; kind: LinkKind }[] = [
  { type: 'mobile', kind: 'mobile' },
  { type: 'phone', kind: 'phone' },
  { type: 'fax', kind: 'phone' },
  { type: 'Whatsap', kind: 'messenger' },
  { type: 'Telegram', kind: 'messenger' },
  { type: 'Instagram', kind: 'handle' },
  { type: 'Eitaa', kind: 'messenger' },
  { type: 'Bale', kind: 'messenger' },
  { type: 'Rubika', kind: 'messenger' },
  { type: 'Soroush', kind: 'messenger' },
  { type: 'Igap', kind: 'messenger' },
  { type: 'Gap', kind: 'messenger' },
  { type: 'Site', kind: 'site' },
  { type: 'Email', kind: 'email' },
  { type: 'Linkedin', kind: 'handle' },
  { type: 'Twitter', kind: 'handle' },
  { type: 'Facebook', kind: 'handle' },
  { type: 'Youtube', kind: 'handle' },
  { type: 'TikTak', kind: 'handle' },
  { type: 'Pinterest', kind: 'handle' },
  { type: 'Reddit', kind: 'handle' },
  { type: 'Skype', kind: 'handle' },
  { type: 'Wechat', kind: 'messenger' },
  { type: 'Discord', kind: 'handle' },
  { type: 'Github', kind: 'handle' },
  { type: 'Gitlab', kind: 'handle' },
  { type: 'Ather', kind: 'any' },
];

const KIND = new Map(CONTACT_TYPES.map((c) => [c.type.toLowerCase(), c]));

/** The server's spelling of a type written in any case ("whatsap" → "Whatsap"), or null. */
export function canonicalType(type: string): string | null {
  return KIND.get((type ?? '').trim().toLowerCase())?.type ?? null;
}

export function linkKind(type: string): LinkKind | null {
  return KIND.get((type ?? '').trim().toLowerCase())?.kind ?? null;
}

const HANDLE = /^@?[A-Za-z0-9][A-Za-z0-9_.-]{1,63}$/;
const PHONE = /^\+?[0-9]{4,15}$/;
// A web address as people copy it, without https:// ("instagram.com/name"): the server stores it
// with https:// in front (store.hostPathRe, REVIEW #25).
const HOST_PATH = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.[a-z]{2,}(\/[^\s<>"]*)?$/i;
const isWeb = (v: string) => isWebUrl(v) || (HOST_PATH.test(v) && isWebUrl(`https://${v}`));

function isWebUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname && !/[\s<>"]/.test(u.host);
  } catch {
    return false;
  }
}

function phoneDigits(s: string): string {
  return toLatinDigits(s).replace(/[\s\-()]/g, '');
}

/** Why a link is not acceptable for its type, or null when it is. */
export function checkLink(type: string, link: string): null | 'empty' | 'type' | 'long' | LinkKind {
  const kind = linkKind(type);
  if (!kind) return 'type';
  const v = (link ?? '').trim();
  if (!v) return 'empty';
  if ([...v].length > 300) return 'long';
  switch (kind) {
    case 'phone':
      return PHONE.test(phoneDigits(v)) ? null : 'phone';
    case 'mobile':
      return /^09\d{9}$/.test(normalizeMobile(v)) ? null : 'mobile';
    case 'email':
      return /^[^\s@<>()]+@[^\s@<>()]+\.[^\s@<>()]{2,}$/.test(v) ? null : 'email';
    case 'site':
      return isWeb(v) ? null : 'site';
    case 'handle':
      return isWeb(v) || HANDLE.test(v) ? null : 'handle';
    case 'messenger':
      return isWeb(v) || HANDLE.test(v) || PHONE.test(phoneDigits(v)) ? null : 'messenger';
    case 'any':
      return /^\s*javascript:/i.test(v) ? 'any' : null;
  }
}

/** The placeholder shown for a type: what a good value looks like. */
export function linkExample(type: string): string {
  switch (linkKind(type)) {
    case 'mobile':
      return '09121234567';
    case 'phone':
      return '02188776655';
    case 'email':
      return 'name@example.com';
    case 'site':
      return 'https://example.ir';
    case 'messenger':
      return '@username / 0912…';
    case 'handle':
      return '@username';
    default:
      return '';
  }
}
