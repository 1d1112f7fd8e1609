import { describe, expect, it } from 'vitest';
import { isEmail, isMobile, normalizeMobile } from './validate';

describe('mobile numbers', () => {
  it('normalises the usual ways of writing them', () => {
    for (const v of ['09121234567', '۰۹۱۲۱۲۳۴۵۶۷', '+989121234567', '00989121234567', '989121234567', '0912 123 4567', '9121234567']) {
      expect(normalizeMobile(v), v).toBe('09121234567');
      expect(isMobile(v), v).toBe(true);
    }
  });
  it('rejects the rest', () => {
    for (const v of ['', '0912123456', '02188880000', '091212345678', 'abc']) expect(isMobile(v), v).toBe(false);
  });
  it('emails', () => {
    expect(isEmail('a@b.ir')).toBe(true);
    expect(isEmail('a@b')).toBe(false);
  });
});
