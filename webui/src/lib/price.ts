import { toLatinDigits, toPersianDigits } from './digits';

/** Largest price the server takes (Toman). */
export const MAX_PRICE = 1_000_000_000_000;
const MAX_DIGITS = String(MAX_PRICE).length;

/** The thousands separator of each language: Arabic thousands separator in fa, comma in en. */
export function thousandsSeparator(lang: string): string {
  return lang === 'fa' ? '٬' : ',';
}

/** Digits only (Persian and Arabic-Indic digits read as Latin), leading zeros dropped. */
export function priceDigits(raw: string): string {
  const d = toLatinDigits(raw ?? '').replace(/\D/g, '').slice(0, MAX_DIGITS + 2);
  const trimmed = d.replace(/^0+(?=\d)/, '');
  return trimmed.slice(0, MAX_DIGITS);
}

/** A whole number of Toman from what was typed, or null when nothing numeric was typed. */
export function parsePrice(raw: string): number | null {
  const d = priceDigits(raw);
  return d ? Number(d) : null;
}

/** "1250000" → "1,250,000" (en) or "۱٬۲۵۰٬۰۰۰" (fa). */
export function groupPrice(value: number | string, lang: string): string {
  const d = typeof value === 'number' ? String(Math.max(0, Math.round(value))) : priceDigits(value);
  if (!d) return '';
  const grouped = d.replace(/\B(?=(\d{3})+(?!\d))/g, thousandsSeparator(lang));
  return lang === 'fa' ? toPersianDigits(grouped) : grouped;
}

/**
 * Formats a price field as the person types: separators are inserted and digits follow the
 * language, while the caret stays after the same digit it was after.
 */
export function formatPriceInput(raw: string, caret: number, lang: string): { text: string; caret: number; value: number | null } {
  const before = toLatinDigits((raw ?? '').slice(0, Math.max(0, caret))).replace(/\D/g, '');
  const all = toLatinDigits(raw ?? '').replace(/\D/g, '');
  const digits = priceDigits(raw);
  // Leading zeros that were dropped no longer count for the caret.
  const dropped = all.length - all.replace(/^0+(?=\d)/, '').length;
  let keep = Math.max(0, before.length - dropped);
  keep = Math.min(keep, digits.length);
  const text = groupPrice(digits, lang);
  let pos = 0;
  let seen = 0;
  if (keep > 0) {
    for (; pos < text.length; pos++) {
      if (/[0-9۰-۹]/.test(text[pos])) seen++;
      if (seen === keep) {
        pos++;
        break;
      }
    }
  }
  return { text, caret: pos, value: digits ? Number(digits) : null };
}
