import { toLatinDigits } from './digits';

/** Mobile numbers as the server stores them: 09xxxxxxxxx (Persian digits, +98, 0098 and 98 accepted). */
export function normalizeMobile(v: string): string {
  let d = toLatinDigits(v || '').replace(/[\s\-()]/g, '');
  if (d.startsWith('+98')) d = `0${d.slice(3)}`;
  else if (d.startsWith('0098')) d = `0${d.slice(4)}`;
  else if (d.startsWith('98') && d.length === 12) d = `0${d.slice(2)}`;
  else if (d.startsWith('9') && d.length === 10) d = `0${d}`;
  return d;
}

export function isMobile(v: string): boolean {
  return /^09\d{9}$/.test(normalizeMobile(v));
}

export function isEmail(v: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(v.trim());
}

export const MIN_PASSWORD = 8;
export const OTP_LENGTH = 6;
export const RESEND_SECONDS = 60;
