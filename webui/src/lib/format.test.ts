import { describe, expect, it } from 'vitest';
import { formatCoord, formatDate, formatNumber, formatDistance, formatPrice, formatScore } from './format';
import { contactDigits, toLatinDigits, toPersianDigits } from './digits';

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

describe('formatNumber matches Intl', () => {
  it('for fa-IR and en-US over integers, decimals and halves', () => {
    const values = [0, 0.04, 0.05, 0.95, 1, 1.15, 2.35, 4.5, 10.25, 12, 999, 999.96, 1000, 1234.56, 350000, 1234567.89, 99999999, 123456789012];
    for (let i = 0; i < 300; i++) values.push(Math.round(Math.random() * 1e8) / 100);
    for (const v of values) {
      expect(formatNumber(v, 'fa'), String(v)).toBe(new Intl.NumberFormat('fa-IR', { maximumFractionDigits: 1 }).format(v));
      expect(formatNumber(v, 'en'), String(v)).toBe(new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(v));
    }
  });
});

describe('formatDate matches Intl', () => {
  it('in both languages, every few days over a decade', () => {
    const opts: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'Asia/Tehran' };
    const fa = new Intl.DateTimeFormat('fa-IR-u-ca-persian-nu-arabext', opts);
    const en = new Intl.DateTimeFormat('en-US', opts);
    for (let ms = Date.UTC(2018, 0, 1, 1, 7); ms < Date.UTC(2029, 0, 1); ms += 3 * 86_400_000 + 7_380_000) {
      const d = new Date(ms);
      expect(formatDate(d, 'fa'), d.toISOString()).toBe(fa.format(d));
      expect(formatDate(d, 'en'), d.toISOString()).toBe(en.format(d));
    }
  });
});

describe('formatCoord (REVIEW #26)', () => {
  it('writes Persian digits with the Persian decimal sign in fa, Latin in en', () => {
    expect(formatCoord(35.689261, 'fa')).toBe('۳۵٫۶۸۹۲۶');
    expect(formatCoord(51.394562, 'en')).toBe('51.39456');
  });
});

describe('contactDigits (REVIEW #29)', () => {
  it('writes a number in the language digits and leaves handles alone', () => {
    expect(contactDigits('09123456781', 'fa')).toBe('۰۹۱۲۳۴۵۶۷۸۱');
    expect(contactDigits('+98 912 345 6781', 'fa')).toBe('+۹۸ ۹۱۲ ۳۴۵ ۶۷۸۱');
    expect(contactDigits('۰۹۱۲۳۴۵۶۷۸۱', 'en')).toBe('09123456781');
    expect(contactDigits('@omid_2024', 'fa')).toBe('@omid_2024');
  });
});
