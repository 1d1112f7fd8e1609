import { localDigits } from './digits';
import { dateTimeFormat, numberFormat } from './intl';

export type Lang = 'fa' | 'en';

export function intlLocale(lang: string): string {
  return lang === 'en' ? 'en-US' : 'fa-IR';
}

/** Integer with thousands separators in the language's digits. */
export function formatNumber(n: number, lang: string): string {
  return numberFormat(intlLocale(lang), { maximumFractionDigits: 1 }).format(n);
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

/** A calendar date: Jalali with Persian digits in fa, Gregorian in en. Empty for a missing or invalid date. */
export function formatDate(value: string | number | Date | null | undefined, lang: string, withTime = false): string {
  if (value === null || value === undefined || value === '') return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  const opts: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'Asia/Tehran' };
  if (withTime) {
    opts.hour = '2-digit';
    opts.minute = '2-digit';
    opts.hourCycle = 'h23';
  }
  const locale = lang === 'en' ? 'en-US' : 'fa-IR-u-ca-persian-nu-arabext';
  return dateTimeFormat(locale, opts).format(d);
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
