import { describe, expect, it } from 'vitest';
import { formatDate, formatDistance, formatPrice, formatScore } from './format';
import { toLatinDigits, toPersianDigits } from './digits';

const fa = { toman: 'تومان', free: 'رایگان' };
const en = { toman: 'Toman', free: 'Free' };

describe('prices', () => {
  it('thousands separators and Toman', () => {
    expect(formatPrice(1500000, 'en', en)).toBe('1,500,000 Toman');
    expect(formatPrice(250000, 'fa', fa)).toBe('۲۵۰٬۰۰۰ تومان');
  });
  it('0 is free', () => {
    expect(formatPrice(0, 'en', en)).toBe('Free');
    expect(formatPrice(0, 'fa', fa)).toBe('رایگان');
    expect(formatPrice(undefined, 'fa', fa)).toBe('رایگان');
  });
});

describe('dates', () => {
  it('Jalali with Persian digits in fa', () => {
    expect(formatDate('2024-03-20T12:00:00Z', 'fa')).toBe('۱ فروردین ۱۴۰۳');
    expect(formatDate('2023-12-31T12:00:00Z', 'fa')).toBe('۱۰ دی ۱۴۰۲');
  });
  it('Gregorian in en', () => {
    expect(formatDate('2024-03-20T12:00:00Z', 'en')).toBe('March 20, 2024');
  });
  it('uses Tehran for the calendar day', () => {
    // 22:00 UTC on 19 March is 01:30 on 20 March in Tehran: already 1 Farvardin.
    expect(formatDate('2024-03-19T22:00:00Z', 'fa')).toBe('۱ فروردین ۱۴۰۳');
  });
  it('empty for missing or invalid dates', () => {
    expect(formatDate(null, 'fa')).toBe('');
    expect(formatDate('not a date', 'en')).toBe('');
  });
});

describe('numbers', () => {
  it('digits both ways', () => {
    expect(toPersianDigits('09121234567')).toBe('۰۹۱۲۱۲۳۴۵۶۷');
    expect(toLatinDigits('۰۹۱۲ ٣٤٥')).toBe('0912 345');
  });
  it('scores and distances', () => {
    expect(formatScore(4.56, 'en')).toBe('4.6');
    expect(formatScore(4, 'fa')).toBe('۴');
    expect(formatScore(3.5, 'fa')).toBe('۳٫۵');
    expect(formatDistance(840, 'en', { m: 'm', km: 'km' })).toBe('840 m');
    expect(formatDistance(2450, 'en', { m: 'm', km: 'km' })).toBe('2.5 km');
  });
});
