const FA = '۰۱۲۳۴۵۶۷۸۹';
const AR = '٠١٢٣٤٥٦٧٨٩';

/** Replaces Latin digits with Persian ones. */
export function toPersianDigits(s: string | number): string {
  return String(s).replace(/[0-9]/g, (d) => FA[Number(d)]);
}

/** Replaces Persian and Arabic-Indic digits with Latin ones (for inputs such as mobile numbers). */
export function toLatinDigits(s: string): string {
  return s.replace(/[۰-۹٠-٩]/g, (d) => {
    const i = FA.indexOf(d);
    return String(i >= 0 ? i : AR.indexOf(d));
  });
}

/** Digits in the script of the language: Persian in fa, Latin in en. */
export function localDigits(s: string | number, lang: string): string {
  return lang === 'fa' ? toPersianDigits(s) : String(s);
}

/**
 * A contact value in the language's digits when it is a phone number (a WhatsApp or Telegram
 * number as much as a mobile), so one page never shows the same number in two scripts
 * (REVIEW #29); handles and addresses stay as written.
 */
export function contactDigits(s: string, lang: string): string {
  return /^[+\d۰-۹٠-٩\s()-]+$/.test(s.trim()) ? localDigits(toLatinDigits(s), lang) : s;
}
