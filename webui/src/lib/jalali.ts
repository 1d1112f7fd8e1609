import { toLatinDigits, toPersianDigits } from './digits';
import { zonedParts } from './intl';

/**
 * The Jalali (Solar Hijri) calendar: conversion to and from the Gregorian calendar through Julian
 * day numbers, with the 2820-year break table of the astronomical calendar (valid for Jalali
 * years −61 to 3177), and the date picker's bounds and text format.
 */

export interface JDate {
  jy: number;
  jm: number; // 1..12
  jd: number; // 1..31
}

const BREAKS = [-61, 9, 38, 199, 426, 686, 756, 818, 1111, 1181, 1210, 1635, 2060, 2097, 2192, 2262, 2324, 2394, 2456, 3178];

const div = (a: number, b: number) => Math.trunc(a / b);
const mod = (a: number, b: number) => a - Math.trunc(a / b) * b;

/** Leap state of a Jalali year, the Gregorian year it starts in, and the day of March it starts on. */
function jalCal(jy: number): { leap: number; gy: number; march: number } {
  const gy = jy + 621;
  let leapJ = -14;
  let jp = BREAKS[0];
  let jump = 0;
  if (jy < jp || jy >= BREAKS[BREAKS.length - 1]) throw new RangeError(`Jalali year out of range: ${jy}`);
  for (let i = 1; i < BREAKS.length; i++) {
    const jm = BREAKS[i];
    jump = jm - jp;
    if (jy < jm) break;
    leapJ += div(jump, 33) * 8 + div(mod(jump, 33), 4);
    jp = jm;
  }
  let n = jy - jp;
  leapJ += div(n, 33) * 8 + div(mod(n, 33) + 3, 4);
  if (mod(jump, 33) === 4 && jump - n === 4) leapJ += 1;
  const leapG = div(gy, 4) - div((div(gy, 100) + 1) * 3, 4) - 150;
  const march = 20 + leapJ - leapG;
  if (jump - n < 6) n = n - jump + div(jump + 4, 33) * 33;
  let leap = mod(mod(n + 1, 33) - 1, 4);
  if (leap === -1) leap = 4;
  return { leap, gy, march };
}

function g2d(gy: number, gm: number, gd: number): number {
  let d = div((gy + div(gm - 8, 6) + 100100) * 1461, 4) + div(153 * mod(gm + 9, 12) + 2, 5) + gd - 34840408;
  d = d - div(div(gy + 100100 + div(gm - 8, 6), 100) * 3, 4) + 752;
  return d;
}

function d2g(jdn: number): { gy: number; gm: number; gd: number } {
  let j = 4 * jdn + 139361631;
  j = j + div(div(4 * jdn + 183187720, 146097) * 3, 4) * 4 - 3908;
  const i = div(mod(j, 1461), 4) * 5 + 308;
  const gd = div(mod(i, 153), 5) + 1;
  const gm = mod(div(i, 153), 12) + 1;
  const gy = div(j, 1461) - 100100 + div(8 - gm, 6);
  return { gy, gm, gd };
}

function j2d(jy: number, jm: number, jd: number): number {
  const r = jalCal(jy);
  return g2d(r.gy, 3, r.march) + (jm - 1) * 31 - div(jm, 7) * (jm - 7) + jd - 1;
}

function d2j(jdn: number): JDate {
  const gy = d2g(jdn).gy;
  let jy = gy - 621;
  const r = jalCal(jy);
  const start = g2d(gy, 3, r.march);
  let k = jdn - start;
  if (k >= 0) {
    if (k <= 185) return { jy, jm: 1 + div(k, 31), jd: mod(k, 31) + 1 };
    k -= 186;
  } else {
    jy -= 1;
    k += 179;
    if (r.leap === 1) k += 1;
  }
  return { jy, jm: 7 + div(k, 30), jd: mod(k, 30) + 1 };
}

export function toJalali(gy: number, gm: number, gd: number): JDate {
  return d2j(g2d(gy, gm, gd));
}

export function toGregorian(jy: number, jm: number, jd: number): { gy: number; gm: number; gd: number } {
  return d2g(j2d(jy, jm, jd));
}

export function isLeapJalali(jy: number): boolean {
  return jalCal(jy).leap === 0;
}

export function jalaliMonthLength(jy: number, jm: number): number {
  if (jm <= 6) return 31;
  if (jm <= 11) return 30;
  return isLeapJalali(jy) ? 30 : 29;
}

/** Day of the week with Saturday = 0 … Friday = 6 (the Iranian week). */
export function jalaliWeekday(d: JDate): number {
  // Julian day numbers: JDN mod 7 is 0 on Monday.
  return mod(j2d(d.jy, d.jm, d.jd) + 2, 7);
}

/** The Jalali date of an instant in a time zone (default Tehran). */
export function jalaliOf(date: Date, timeZone = 'Asia/Tehran'): JDate {
  const z = zonedParts(date, timeZone);
  return toJalali(z.year, z.month, z.day);
}

export function compareJ(a: JDate, b: JDate): number {
  return a.jy - b.jy || a.jm - b.jm || a.jd - b.jd;
}

export function addMonths(jy: number, jm: number, delta: number): { jy: number; jm: number } {
  const idx = jy * 12 + (jm - 1) + delta;
  return { jy: Math.floor(idx / 12), jm: (((idx % 12) + 12) % 12) + 1 };
}

/** The picker's years: 110 before to 50 after the given (current) Jalali year (SPEC §9). */
export const YEARS_BEFORE = 110;
export const YEARS_AFTER = 50;

export function yearBounds(currentJy: number): { min: number; max: number } {
  return { min: currentJy - YEARS_BEFORE, max: currentJy + YEARS_AFTER };
}

export function inBounds(d: JDate, bounds: { min: number; max: number }): boolean {
  return d.jy >= bounds.min && d.jy <= bounds.max;
}

/** The text format of the picker's input. */
export const DATE_FORMAT = 'YYYY/MM/DD';

export type ParseResult = { ok: true; date: JDate } | { ok: false; reason: 'empty' | 'format' | 'month' | 'day' | 'range' };

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Checks typed text against the format's year, month and day tokens (YYYY, MM/M, DD/D), then the
 * month, the day within that month of that year, and the picker's year bounds. Persian and
 * Arabic-Indic digits are read as Latin ones.
 */
export function parseJalali(text: string, format: string = DATE_FORMAT, bounds?: { min: number; max: number }): ParseResult {
  const s = toLatinDigits((text ?? '').trim()).replace(/[٫٬]/g, '/');
  if (!s) return { ok: false, reason: 'empty' };
  const order: ('y' | 'm' | 'd')[] = [];
  const tokens = /YYYY|MM|M|DD|D/g;
  let re = '^';
  let last = 0;
  for (const m of format.matchAll(tokens)) {
    re += escapeRe(format.slice(last, m.index));
    if (m[0] === 'YYYY') {
      re += '(\\d{4})';
      order.push('y');
    } else if (m[0][0] === 'M') {
      re += '(\\d{1,2})';
      order.push('m');
    } else {
      re += '(\\d{1,2})';
      order.push('d');
    }
    last = (m.index ?? 0) + m[0].length;
  }
  re += `${escapeRe(format.slice(last))}$`;
  const match = new RegExp(re).exec(s);
  if (!match || order.length !== 3) return { ok: false, reason: 'format' };
  const v: Record<string, number> = {};
  order.forEach((k, i) => {
    v[k] = Number(match[i + 1]);
  });
  const date = { jy: v.y, jm: v.m, jd: v.d };
  if (date.jm < 1 || date.jm > 12) return { ok: false, reason: 'month' };
  if (bounds && !inBounds(date, bounds)) return { ok: false, reason: 'range' };
  if (date.jy < BREAKS[0] || date.jy >= BREAKS[BREAKS.length - 1]) return { ok: false, reason: 'range' };
  if (date.jd < 1 || date.jd > jalaliMonthLength(date.jy, date.jm)) return { ok: false, reason: 'day' };
  return { ok: true, date };
}

/** A Jalali date written in the format, in the language's digits. */
export function formatJalali(d: JDate, lang: string, format: string = DATE_FORMAT): string {
  const s = format
    .replace('YYYY', String(d.jy).padStart(4, '0'))
    .replace(/MM|M/, (t) => (t === 'MM' ? String(d.jm).padStart(2, '0') : String(d.jm)))
    .replace(/DD|D/, (t) => (t === 'DD' ? String(d.jd).padStart(2, '0') : String(d.jd)));
  return lang === 'fa' ? toPersianDigits(s) : s;
}

/** The instant of a Jalali date at hh:mm Tehran time (UTC+03:30; Iran keeps no daylight saving since 1402). */
export function jalaliToDate(d: JDate, minutes = 0, offsetMinutes = 210): Date {
  const g = toGregorian(d.jy, d.jm, d.jd);
  return new Date(Date.UTC(g.gy, g.gm - 1, g.gd, 0, minutes - offsetMinutes));
}

/** Minutes after midnight of an instant in a time zone. */
export function minutesOf(date: Date, timeZone = 'Asia/Tehran'): number {
  const z = zonedParts(date, timeZone);
  return z.hour * 60 + z.minute;
}
