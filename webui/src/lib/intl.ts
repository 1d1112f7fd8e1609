/*
 * Shared Intl formatters. Building an Intl.DateTimeFormat or NumberFormat costs far more than
 * using one (locale and calendar data are loaded each time): a list of twenty cards formatting
 * prices, scores and opening hours spent a noticeable part of a slow phone's start-up on it.
 */
const dates = new Map<string, Intl.DateTimeFormat>();
const numbers = new Map<string, Intl.NumberFormat>();

export function dateTimeFormat(locale: string, opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = locale + JSON.stringify(opts);
  let f = dates.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, opts);
    dates.set(key, f);
  }
  return f;
}

export function numberFormat(locale: string, opts: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = locale + JSON.stringify(opts);
  let f = numbers.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, opts);
    numbers.set(key, f);
  }
  return f;
}
