/**
 * English pages have their own addresses under /en/ (api/web.go), so search engines index both
 * languages: /en/profile/x is /profile/x in English. The app then routes under that base.
 */
export const EN_BASE = '/en';

/** Whether the address is an English one. */
export function underEnglish(pathname: string): boolean {
  return pathname === EN_BASE || pathname.startsWith(`${EN_BASE}/`);
}

/** The page's path without the English prefix ("/en" is the home page). */
export function pagePath(pathname: string): string {
  if (!underEnglish(pathname)) return pathname;
  return pathname.slice(EN_BASE.length) || '/';
}
