import { afterEach, describe, expect, it, vi } from 'vitest';
import { cookieString, hasSessionTraces, isLoggedInCookies, parseCookies } from './auth';

describe('logged-in rule (SPEC §4)', () => {
  it('needs both cookies and a token longer than 10 characters', () => {
    expect(isLoggedInCookies('token=abcdefghijk; id=5')).toBe(true);
    expect(isLoggedInCookies('token=abcdefghij; id=5')).toBe(false); // exactly 10
    expect(isLoggedInCookies('token=abcdefghijklmnop')).toBe(false);
    expect(isLoggedInCookies('id=5')).toBe(false);
    expect(isLoggedInCookies('')).toBe(false);
    expect(isLoggedInCookies('token=; id=5')).toBe(false);
    expect(isLoggedInCookies('other=1; id=7; token=0123456789abcdef')).toBe(true);
  });
  it('parses encoded values', () => {
    expect(parseCookies('a=%D8%B3%D9%84%D8%A7%D9%85; b=x=y')).toEqual({ a: 'سلام', b: 'x=y' });
  });
  it('writes 3-day cookies on path / with SameSite=Lax', () => {
    expect(cookieString('token', 'abc', 3 * 24 * 3600, false)).toBe('token=abc; path=/; max-age=259200; SameSite=Lax');
    expect(cookieString('id', '1', 0, true)).toBe('id=1; path=/; max-age=0; SameSite=Lax; Secure');
  });
});

describe('session traces', () => {
  afterEach(() => vi.unstubAllGlobals());
  const storage = (entries: Record<string, string>) => ({
    getItem: (k: string) => entries[k] ?? null,
    get length() {
      return Object.keys(entries).length;
    },
  });
  it('a visitor has none, so nothing is written on their pages', () => {
    vi.stubGlobal('document', { cookie: 'theme=dark' });
    vi.stubGlobal('localStorage', storage({ lang: 'en' }));
    vi.stubGlobal('sessionStorage', storage({}));
    expect(hasSessionTraces()).toBe(false);
  });
  it('a stale cookie, a stored login or session data are traces', () => {
    vi.stubGlobal('localStorage', storage({}));
    vi.stubGlobal('sessionStorage', storage({}));
    vi.stubGlobal('document', { cookie: 'token=; id=5' });
    expect(hasSessionTraces()).toBe(true);
    vi.stubGlobal('document', { cookie: '' });
    vi.stubGlobal('localStorage', storage({ isAdmin: 'true' }));
    expect(hasSessionTraces()).toBe(true);
    vi.stubGlobal('localStorage', storage({}));
    vi.stubGlobal('sessionStorage', storage({ draft: '{}' }));
    expect(hasSessionTraces()).toBe(true);
  });
});
