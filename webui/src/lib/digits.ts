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
 * The input handler of a field that shows numbers in the language's digits (a phone number in
 * Persian digits in fa) while its value stays in Latin ones, as the API takes numbers: rewrites
 * the element's text in place, keeping the caret, and answers the value in Latin digits.
 */
export function localDigitsInput(el: HTMLInputElement, lang: string): string {
  const latin = toLatinDigits(el.value);
  show(el, localDigits(latin, lang));
  return latin;
}

/**
 * The input handler of a messenger's field (WhatsApp, Telegram), which takes a number, a handle
 * or a link: a number reads in the language's digits as with localDigitsInput, anything else in
 * Latin ones, as handles and links are written; the value answered is in Latin digits either way.
 */
export function contactDigitsInput(el: HTMLInputElement, lang: string): string {
  const latin = toLatinDigits(el.value);
  show(el, contactDigits(latin, lang));
  return latin;
}

/** Rewrites an input's text in place, the caret kept (a digit is one UTF-16 unit in either script). */
function show(el: HTMLInputElement, shown: string) {
  if (el.value === shown) return;
  const [start, end] = [el.selectionStart, el.selectionEnd];
  el.value = shown;
  if (start !== null && end !== null && el.ownerDocument?.activeElement === el) el.setSelectionRange(start, end);
}

/**
 * A contact value in the language's digits when it is a phone number (a WhatsApp or Telegram
 * number as much as a mobile), so one page never shows the same number in two scripts
 * (REVIEW #29); handles and addresses stay as written.
 */
export function contactDigits(s: string, lang: string): string {
  return /^[+\d۰-۹٠-٩\s()-]+$/.test(s.trim()) ? localDigits(toLatinDigits(s), lang) : s;
}
