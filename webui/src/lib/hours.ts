import { zonedParts } from './intl';
export const WEEK = ['saturday', 'sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const;
export type Weekday = (typeof WEEK)[number];

export interface TimeSlot {
  open: number;
  close: number;
}

export interface DayHours {
  boarding?: boolean;
  closed?: boolean;
  time?: TimeSlot[] | null;
}

export type HoursOfWork = Partial<Record<Weekday, DayHours | null>>;

export type OpenStatus = 'Open' | 'Closed' | 'Boarding';

export const TIME_ZONE = 'Asia/Tehran';

const SUNDAY_FIRST: Weekday[] = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** Weekday (lowercase English name) and seconds from midnight of `now` in the given time zone. */
export function zonedNow(now: Date, timeZone = TIME_ZONE): { day: Weekday; seconds: number } {
  const z = zonedParts(now, timeZone);
  return { day: SUNDAY_FIRST[z.weekday], seconds: z.hour * 3600 + z.minute * 60 + z.second };
}

export function today(now: Date = new Date(), timeZone = TIME_ZONE): Weekday {
  return zonedNow(now, timeZone).day;
}

/** "08:30" from seconds since midnight (86400 is shown as 24:00). */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.min(86400, Math.round(seconds)));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/**
 * The times offered in a time-of-day select, in minutes after midnight: every quarter hour, plus
 * `current` in its place when it is off the grid (a default of "now", or a time saved elsewhere),
 * so the select can show it without rounding it away.
 */
export function quarterHourChoices(current?: number | null): number[] {
  const list = Array.from({ length: 96 }, (_, i) => i * 15);
  if (current === null || current === undefined || !Number.isInteger(current) || current < 0 || current >= 1440 || current % 15 === 0) return list;
  list.splice(Math.floor(current / 15) + 1, 0, current);
  return list;
}

/** True when some day has any information (so the week table is worth showing). */
export function hasHours(hours: HoursOfWork | null | undefined): boolean {
  if (!hours) return false;
  return WEEK.some((d) => {
    const h = hours[d];
    return !!h && (h.boarding || h.closed || (h.time?.length ?? 0) > 0);
  });
}

/** The moment an open status holds until, as the server answers it with a profile. */
export interface StatusChange {
  at: string;
  status: OpenStatus;
}

/**
 * What a card says of the next change: "until" a time today (or later) while open, "opens" at a
 * time (on a weekday when not today) while closed; undefined when there is no change ahead or it
 * has already passed (a stored answer read later).
 */
export function nextChangeOf(
  change: StatusChange | null | undefined,
  now: Date = new Date(),
  timeZone = TIME_ZONE,
): { kind: 'until' | 'opens'; time: string; day?: Weekday } | undefined {
  if (!change) return undefined;
  const at = new Date(change.at);
  if (Number.isNaN(at.getTime()) || at.getTime() <= now.getTime()) return undefined;
  const z = zonedParts(at, timeZone);
  const time = formatClock(z.hour * 3600 + z.minute * 60);
  if (change.status === 'Closed') return { kind: 'until', time };
  const sameDay = zonedNow(now, timeZone).day === SUNDAY_FIRST[z.weekday] && at.getTime() - now.getTime() < 86400_000;
  return sameDay ? { kind: 'opens', time } : { kind: 'opens', time, day: SUNDAY_FIRST[z.weekday] };
}

/** What currentStatus reads of a profile answer. */
export interface StatusOfAnswer {
  open_status?: OpenStatus;
  next_change?: StatusChange | null;
  hours_of_work?: HoursOfWork | null;
  special_days?: unknown[] | null;
}

/**
 * The open status to show for a profile as the server answered it: its `open_status`, worked out
 * by the server with the holidays and the special days. The answer holds until its next_change;
 * past that (an answer kept from earlier) it is no longer known, and nothing is shown rather than
 * a guess. A profile that never gave any hours shows no status.
 */
export function currentStatus(p: StatusOfAnswer, now: Date = new Date()): OpenStatus | undefined {
  if (!p.open_status) return undefined;
  if (!hasHours(p.hours_of_work) && !p.next_change && !(p.special_days?.length)) return undefined;
  if (p.next_change) {
    const at = new Date(p.next_change.at).getTime();
    if (!Number.isNaN(at) && at <= now.getTime()) return undefined;
  }
  return p.open_status;
}
