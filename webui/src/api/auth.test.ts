import { describe, expect, it } from 'vitest';
import { cookieString, isLoggedInCookies, parseCookies } from './auth';

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
