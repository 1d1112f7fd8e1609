import { describe, expect, it } from 'vitest';
import {
  addMonths,
  formatJalali,
  isLeapJalali,
  jalaliMonthLength,
  jalaliOf,
  jalaliToDate,
  jalaliWeekday,
  minutesOf,
  parseJalali,
  toGregorian,
  toJalali,
  yearBounds,
} from './jalali';

describe('Jalali calendar', () => {
  it('converts known dates both ways', () => {
    expect(toJalali(2024, 3, 20)).toEqual({ jy: 1403, jm: 1, jd: 1 }); // Nowruz 1403
    expect(toJalali(2025, 3, 21)).toEqual({ jy: 1404, jm: 1, jd: 1 });
    expect(toJalali(1979, 2, 11)).toEqual({ jy: 1357, jm: 11, jd: 22 });
    expect(toGregorian(1403, 12, 30)).toEqual({ gy: 2025, gm: 3, gd: 20 });
    expect(isLeapJalali(1403)).toBe(true);
    expect(isLeapJalali(1404)).toBe(false);
    expect(jalaliMonthLength(1403, 12)).toBe(30);
    expect(jalaliMonthLength(1404, 12)).toBe(29);
    expect(jalaliMonthLength(1404, 7)).toBe(30);
  });
  // Thousands of Intl calls take seconds on a busy machine: a longer limit than the default 5 s.
  it('agrees with Intl’s Persian calendar day by day over two centuries', () => {
    const fmt = new Intl.DateTimeFormat('en-US-u-ca-persian', { timeZone: 'UTC', year: 'numeric', month: 'numeric', day: 'numeric' });
    const start = Date.UTC(1900, 0, 1);
    for (let t = start, i = 0; i < 365 * 200; i += 7, t += 7 * 86400000) {
      const d = new Date(t);
      const parts = fmt.formatToParts(d);
      const n = (k: string) => Number.parseInt(parts.find((p) => p.type === k)!.value, 10);
      const j = toJalali(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
      expect(j, d.toISOString()).toEqual({ jy: n('year'), jm: n('month'), jd: n('day') });
      const g = toGregorian(j.jy, j.jm, j.jd);
      expect(g).toEqual({ gy: d.getUTCFullYear(), gm: d.getUTCMonth() + 1, gd: d.getUTCDate() });
    }
  }, 60_000);
  it('knows the weekday with Saturday first', () => {
    expect(jalaliWeekday({ jy: 1403, jm: 1, jd: 1 })).toBe(4); // 20 March 2024 was a Wednesday
    expect(jalaliWeekday({ jy: 1404, jm: 1, jd: 1 })).toBe(6); // 21 March 2025, a Friday
  });
  it('moves across years by month', () => {
    expect(addMonths(1403, 12, 1)).toEqual({ jy: 1404, jm: 1 });
    expect(addMonths(1403, 1, -1)).toEqual({ jy: 1402, jm: 12 });
    expect(addMonths(1403, 5, -17)).toEqual({ jy: 1401, jm: 12 });
  });
  it('reads instants in Tehran time', () => {
    const d = jalaliToDate({ jy: 1404, jm: 1, jd: 1 }, 9 * 60);
    expect(d.toISOString()).toBe('2025-03-21T05:30:00.000Z');
    expect(jalaliOf(d)).toEqual({ jy: 1404, jm: 1, jd: 1 });
    expect(minutesOf(d)).toBe(540);
    // 23:00 Tehran on the last day of 1403 is still 1403
    expect(jalaliOf(new Date('2025-03-20T19:30:00Z'))).toEqual({ jy: 1403, jm: 12, jd: 30 });
  });
});

describe('date picker bounds and format check', () => {
  it('offers 110 years before to 50 after', () => {
    expect(yearBounds(1404)).toEqual({ min: 1294, max: 1454 });
    const b = yearBounds(1404);
    expect(parseJalali('1294/01/01', undefined, b).ok).toBe(true);
    expect(parseJalali('1454/12/29', undefined, b).ok).toBe(true);
    expect(parseJalali('1293/12/29', undefined, b)).toEqual({ ok: false, reason: 'range' });
    expect(parseJalali('1455/01/01', undefined, b)).toEqual({ ok: false, reason: 'range' });
  });
  it('checks the text against the year, month and day tokens', () => {
    expect(parseJalali('1404/05/12')).toEqual({ ok: true, date: { jy: 1404, jm: 5, jd: 12 } });
    expect(parseJalali('۱۴۰۴/۰۵/۱۲')).toEqual({ ok: true, date: { jy: 1404, jm: 5, jd: 12 } });
    expect(parseJalali('1404/5/2')).toEqual({ ok: true, date: { jy: 1404, jm: 5, jd: 2 } });
    expect(parseJalali('12-05-1404', 'DD-MM-YYYY')).toEqual({ ok: true, date: { jy: 1404, jm: 5, jd: 12 } });
    expect(parseJalali('')).toEqual({ ok: false, reason: 'empty' });
    for (const bad of ['1404-05-12', '404/05/12', '1404/005/12', '1404/05', '1404/05/12/1', 'abcd/ef/gh', '14040512']) {
      expect(parseJalali(bad), bad).toEqual({ ok: false, reason: 'format' });
    }
    expect(parseJalali('1404/13/01')).toEqual({ ok: false, reason: 'month' });
    expect(parseJalali('1404/00/01')).toEqual({ ok: false, reason: 'month' });
    expect(parseJalali('1404/07/31')).toEqual({ ok: false, reason: 'day' });
    expect(parseJalali('1404/12/30')).toEqual({ ok: false, reason: 'day' }); // 1404 is not leap
    expect(parseJalali('1403/12/30').ok).toBe(true);
    expect(parseJalali('1404/01/00')).toEqual({ ok: false, reason: 'day' });
  });
  it('writes dates in the format and the language’s digits', () => {
    expect(formatJalali({ jy: 1404, jm: 5, jd: 2 }, 'en')).toBe('1404/05/02');
    expect(formatJalali({ jy: 1404, jm: 5, jd: 2 }, 'fa')).toBe('۱۴۰۴/۰۵/۰۲');
    expect(formatJalali({ jy: 1404, jm: 5, jd: 2 }, 'en', 'D-M-YYYY')).toBe('2-5-1404');
  });
});
