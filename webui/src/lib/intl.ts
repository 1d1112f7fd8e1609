/*
 * Shared Intl formatters. Building an Intl.DateTimeFormat or NumberFormat costs far more than
 * using one (locale and calendar data are loaded each time): a list of twenty cards formatting
 * prices, scores and opening hours spent a noticeable part of a slow phone's start-up on it.
 */
const dates = new Map<string, Intl.DateTimeFormat>();
const numbers = new Map<string, Intl.NumberFormat>();
const collators = new Map<string, Intl.Collator>();

function shared<F, O>(cache: Map<string, F>, locale: string, opts: O, make: (locale: string, opts: O) => F): F {
  const key = locale + JSON.stringify(opts);
  let f = cache.get(key);
  if (!f) {
    f = make(locale, opts);
    cache.set(key, f);
  }
  return f;
}

export function dateTimeFormat(locale: string, opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return shared(dates, locale, opts, (l, o) => new Intl.DateTimeFormat(l, o));
}

/** A shared collator: building one loads the language's collation data, tens of milliseconds on a slow phone. */
export function collator(locale: string): Intl.Collator {
  return shared(collators, locale, {}, (l) => new Intl.Collator(l));
}

export function numberFormat(locale: string, opts: Intl.NumberFormatOptions): Intl.NumberFormat {
  return shared(numbers, locale, opts, (l, o) => new Intl.NumberFormat(l, o));
}

export interface ZonedParts {
  year: number;
  month: number; // 1–12
  day: number;
  weekday: number; // 0 Sunday … 6 Saturday
  hour: number;
  minute: number;
  second: number;
}

// Iran has kept UTC+3:30 all year since its last summer time ended on 2022-09-22 (00:00 Tehran).
const TEHRAN_FIXED_SINCE = Date.UTC(2022, 8, 21, 19, 30);
const TEHRAN_OFFSET_MS = 210 * 60_000;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/**
 * The wall-clock fields of an instant in a time zone. Tehran's come by arithmetic for instants
 * since its offset became fixed: an Intl formatter with time-zone data costs a slow phone tens of
 * milliseconds to build, and every card's "open now" needs the time. Other zones and older
 * instants go through Intl.
 */
export function zonedParts(date: Date, timeZone: string): ZonedParts {
  const ms = date.getTime();
  if (timeZone === 'Asia/Tehran' && ms >= TEHRAN_FIXED_SINCE) {
    const d = new Date(ms + TEHRAN_OFFSET_MS);
    return {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      weekday: d.getUTCDay(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
    };
  }
  return zonedPartsViaIntl(date, timeZone);
}

/** The wall-clock fields of an instant in a time zone, as Intl gives them (zonedParts' fallback, and its tests' yardstick). */
export function zonedPartsViaIntl(date: Date, timeZone: string): ZonedParts {
  const parts = dateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    weekday: 'short',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '0';
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    weekday: WEEKDAYS.indexOf(get('weekday')),
    hour: Number(get('hour')),
    minute: Number(get('minute')),
    second: Number(get('second')),
  };
}
