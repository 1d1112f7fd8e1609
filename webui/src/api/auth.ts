/** Auth state of SPEC §4: `token` and `id` cookies (3 days, path /), local storage `admin` and `isAdmin`. */

export const COOKIE_DAYS = 3;
export const STORAGE_ADMIN = 'admin';
export const STORAGE_IS_ADMIN = 'isAdmin';

export function parseCookies(cookie: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of cookie.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const k = part.slice(0, i).trim();
    const v = part.slice(i + 1).trim();
    if (!k) continue;
    try {
      out[k] = decodeURIComponent(v);
    } catch {
      out[k] = v;
    }
  }
  return out;
}

/** The spec's rule: logged in only if both cookies exist and the token is longer than 10 characters. */
export function isLoggedInCookies(cookie: string): boolean {
  const c = parseCookies(cookie);
  return !!c.token && !!c.id && c.token.length > 10;
}

function doc(): Document | null {
  return typeof document === 'undefined' ? null : document;
}

function store(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function cookieString(name: string, value: string, maxAgeSeconds: number, secure: boolean): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'path=/', `max-age=${maxAgeSeconds}`, 'SameSite=Lax'];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

function setCookie(name: string, value: string, maxAgeSeconds: number) {
  const d = doc();
  if (!d) return;
  const secure = typeof location !== 'undefined' && location.protocol === 'https:';
  d.cookie = cookieString(name, value, maxAgeSeconds, secure);
}

export function readToken(): string | null {
  const d = doc();
  if (!d) return null;
  const c = parseCookies(d.cookie);
  return c.token || null;
}

export function readUserId(): string | null {
  const d = doc();
  if (!d) return null;
  return parseCookies(d.cookie).id || null;
}

export function isLoggedIn(): boolean {
  const d = doc();
  return !!d && isLoggedInCookies(d.cookie);
}

export function isAdminUser(): boolean {
  return isLoggedIn() && store()?.getItem(STORAGE_IS_ADMIN) === 'true';
}

/** Own profiles as stored at login (the spec's `admin` entry holds the non-empty userTechnical list). */
export function storedProfiles(): unknown[] {
  const raw = store()?.getItem(STORAGE_ADMIN);
  if (!raw) return [];
  try {
    const v = JSON.parse(raw);
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

export function saveLogin(answer: { token: string; id: number | string; userTechnical?: unknown[] | null; isAdmin?: boolean }) {
  const age = COOKIE_DAYS * 24 * 3600;
  setCookie('token', answer.token, age);
  setCookie('id', String(answer.id), age);
  const s = store();
  if (!s) return;
  if (Array.isArray(answer.userTechnical) && answer.userTechnical.length > 0) {
    s.setItem(STORAGE_ADMIN, JSON.stringify(answer.userTechnical));
  } else {
    s.removeItem(STORAGE_ADMIN);
  }
  if (answer.isAdmin) s.setItem(STORAGE_IS_ADMIN, 'true');
  else s.removeItem(STORAGE_IS_ADMIN);
}

/**
 * Whether anything of a session is left to clear: its cookies, the stored login, or session data.
 * A visitor has none, and writing cookies costs a slow phone on every page it opens.
 */
export function hasSessionTraces(): boolean {
  const d = doc();
  const c = d ? parseCookies(d.cookie) : {};
  const s = store();
  let session = 0;
  try {
    session = typeof sessionStorage === 'undefined' ? 0 : sessionStorage.length;
  } catch {
    /* storage can be unavailable in private modes */
  }
  return 'token' in c || 'id' in c || s?.getItem(STORAGE_ADMIN) != null || s?.getItem(STORAGE_IS_ADMIN) != null || session > 0;
}

/** Clears cookies and session data (logout, or a stale session that fails the logged-in rule). */
export function clearSession() {
  setCookie('token', '', 0);
  setCookie('id', '', 0);
  const s = store();
  s?.removeItem(STORAGE_ADMIN);
  s?.removeItem(STORAGE_IS_ADMIN);
  try {
    if (typeof sessionStorage !== 'undefined') sessionStorage.clear();
  } catch {
    /* storage can be unavailable in private modes */
  }
}
