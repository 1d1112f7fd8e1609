import { localDigits, toPersianDigits } from './digits';
import { dateTimeFormat, numberFormat, zonedParts } from './intl';
import { toJalali } from './jalali';

export type Lang = 'fa' | 'en';

export function intlLocale(lang: string): string {
  return lang === 'en' ? 'en-US' : 'fa-IR';
}

/**
 * A number with thousands separators and at most one decimal in the language's digits, exactly as
 * Intl.NumberFormat writes it for fa-IR and en-US. Written by hand for the usual non-negative
 * numbers: building the first Intl.NumberFormat loads the locale's number data, a long task on a
 * slow phone before the first card shows.
 */
export function formatNumber(n: number, lang: string): string {
  // Intl rounds the shortest decimal form of the number (0.95 → 1), half away from zero.
  const short = String(n);
  if (!Number.isFinite(n) || n < 0 || n >= 1e15 || short.includes('e')) return numberFormat(intlLocale(lang), { maximumFractionDigits: 1 }).format(n);
  const en = lang === 'en';
  let [int, frac = '0'] = short.split('.');
  if (frac.length > 1) {
    let d = Number(frac[0]) + (frac[1] >= '5' ? 1 : 0);
    if (d === 10) {
      d = 0;
      int = String(Number(int) + 1);
    }
    frac = String(d);
  }
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, en ? ',' : '\u066c');
  const s = frac === '0' ? grouped : `${grouped}${en ? '.' : '\u066b'}${frac}`;
  return en ? s : toPersianDigits(s);
}

export interface PriceLabels {
  toman: string;
  free: string;
}

/** A service price in Toman: "Free" for 0, else the amount with separators and the currency label. */
export function formatPrice(price: number | null | undefined, lang: string, labels: PriceLabels): string {
  const p = Number(price) || 0;
  if (p <= 0) return labels.free;
  return `${formatNumber(Math.round(p), lang)} ${labels.toman}`;
}

const FA_MONTHS = ['فروردین', 'اردیبهشت', 'خرداد', 'تیر', 'مرداد', 'شهریور', 'مهر', 'آبان', 'آذر', 'دی', 'بهمن', 'اسفند'];
const EN_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * A date as Intl writes it ("۱ فروردین ۱۴۰۳", "March 20, 2024"), without Intl's Persian calendar:
 * building that formatter took a slow phone a long task on the first review's date.
 */
function dateByHand(d: Date, lang: string): string {
  const z = zonedParts(d, 'Asia/Tehran');
  if (lang === 'en') return `${EN_MONTHS[z.month - 1]} ${z.day}, ${z.year}`;
  const j = toJalali(z.year, z.month, z.day);
  return toPersianDigits(`${j.jd} ${FA_MONTHS[j.jm - 1]} ${j.jy}`);
}

/** A calendar date: Jalali with Persian digits in fa, Gregorian in en. Empty for a missing or invalid date. */
export function formatDate(value: string | number | Date | null | undefined, lang: string, withTime = false): string {
  if (value === null || value === undefined || value === '') return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  if (!withTime) return dateByHand(d, lang);
  const opts: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'Asia/Tehran' };
  if (withTime) {
    opts.hour = '2-digit';
    opts.minute = '2-digit';
    opts.hourCycle = 'h23';
  }
  const locale = lang === 'en' ? 'en-US' : 'fa-IR-u-ca-persian-nu-arabext';
  return dateTimeFormat(locale, opts).format(d);
}

/**
 * A date with its weekday, as people say it: «چهارشنبه ۴ آذر ۱۴۰۵» in fa (Intl would write
 * «۱۴۰۵ آذر ۴, چهارشنبه»: year first and a Latin comma), "Wednesday, November 25, 2026" in en.
 */
export function formatLongDate(value: string | number | Date | null | undefined, lang: string): string {
  if (value === null || value === undefined || value === '') return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  if (lang === 'en') return dateTimeFormat('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone: 'Asia/Tehran' }).format(d);
  return `${dateTimeFormat('fa-IR', { weekday: 'long', timeZone: 'Asia/Tehran' }).format(d)} ${dateByHand(d, lang)}`;
}

/** A score such as 4.5 in the language's digits, one decimal at most. */
export function formatScore(score: number | null | undefined, lang: string): string {
  const s = Math.round((Number(score) || 0) * 10) / 10;
  return localDigits(s.toFixed(s % 1 === 0 ? 0 : 1), lang).replace('.', lang === 'fa' ? '٫' : '.');
}

export interface DistanceLabels {
  m: string;
  km: string;
}

/** A distance given in metres: "850 m" below one kilometre, else "2.4 km". */
export function formatDistance(metres: number, lang: string, labels: DistanceLabels): string {
  if (metres < 1000) return `${formatNumber(Math.round(metres / 10) * 10, lang)} ${labels.m}`;
  const km = Math.round(metres / 100) / 10;
  return `${formatNumber(km, lang)} ${labels.km}`;
}

/**
 * A map coordinate to five decimals in the language's digits and decimal sign: «۳۵٫۶۸۹۲۶» in fa,
 * never a Latin point beside Persian digits (REVIEW #26).
 */
export function formatCoord(n: number, lang: string): string {
  const fixed = n.toFixed(5);
  return lang === 'en' ? fixed : toPersianDigits(fixed.replace('.', '٫'));
}
