import { WEEK, type DayHours, type HoursOfWork, type TimeSlot, type Weekday } from './hours';

/** Slots are chosen in 15-minute steps (SPEC §9), as seconds from midnight. */
export const STEP = 900;
/** The server stores any whole minute (a stored 08:10 is a real opening time, not an error). */
export const MINUTE = 60;
export const DAY_END = 86400;
/** The server takes at most this many opening periods a day. */
export const MAX_SLOTS = 6;

export type DayMode = 'open' | 'boarding' | 'closed';

export type IssueKind = 'irregular' | 'order' | 'overlap' | 'tooMany' | 'empty' | 'both';

export interface DayIssue {
  day: Weekday;
  /** Index of the slot at fault (in the order shown), when one is. */
  slot?: number;
  kind: IssueKind;
}

/** Every selectable time: 00:00, 00:15 … 24:00. */
export function slotTimes(): number[] {
  const out: number[] = [];
  for (let s = 0; s <= DAY_END; s += STEP) out.push(s);
  return out;
}

export function dayMode(d: DayHours | null | undefined): DayMode {
  if (!d) return 'closed';
  if (d.boarding) return 'boarding';
  if (d.closed) return 'closed';
  return 'open';
}

/** A day switched to another mode; opening a day with no periods gives it 09:00–17:00. */
export function withMode(d: DayHours | null | undefined, mode: DayMode): DayHours {
  const time = [...(d?.time ?? [])];
  if (mode === 'boarding') return { boarding: true, closed: false, time };
  if (mode === 'closed') return { boarding: false, closed: true, time };
  return { boarding: false, closed: false, time: time.length ? time : [{ open: 9 * 3600, close: 17 * 3600 }] };
}

/** A sensible next period: an hour after the last one closes, two hours long, within the day. */
export function nextSlot(d: DayHours | null | undefined): TimeSlot {
  const last = d?.time?.[d.time.length - 1];
  if (!last) return { open: 9 * 3600, close: 17 * 3600 };
  const open = Math.min(DAY_END - STEP, Math.ceil((last.close + 3600) / STEP) * STEP);
  const close = Math.min(DAY_END, open + 2 * 3600);
  return { open, close };
}

/** Problems of a day, in the order they should be read: irregular values, order, overlap. */
export function validateDay(day: Weekday, d: DayHours | null | undefined): DayIssue[] {
  if (!d) return [];
  if (d.boarding && d.closed) return [{ day, kind: 'both' }];
  if (d.boarding || d.closed) return [];
  const slots = d.time ?? [];
  const out: DayIssue[] = [];
  if (slots.length === 0) out.push({ day, kind: 'empty' });
  if (slots.length > MAX_SLOTS) out.push({ day, kind: 'tooMany' });
  slots.forEach((s, i) => {
    const regular = (v: number) => Number.isInteger(v) && v >= 0 && v <= DAY_END && v % MINUTE === 0;
    if (!regular(s.open) || !regular(s.close)) out.push({ day, slot: i, kind: 'irregular' });
    else if (s.open >= s.close) out.push({ day, slot: i, kind: 'order' });
  });
  const order = slots.map((s, i) => ({ ...s, i })).sort((a, b) => a.open - b.open);
  for (let k = 1; k < order.length; k++) {
    if (order[k].open < order[k - 1].close) out.push({ day, slot: order[k].i, kind: 'overlap' });
  }
  return out;
}

/** Every problem of the week (Saturday first). An empty list means the server will take it. */
export function validateWeek(h: HoursOfWork | null | undefined): DayIssue[] {
  return WEEK.flatMap((day) => validateDay(day, h?.[day]));
}

/** The week with day `from` copied onto each of `to`. */
export function copyDay(h: HoursOfWork, from: Weekday, to: Weekday[]): HoursOfWork {
  const src = h[from];
  const out: HoursOfWork = { ...h };
  for (const d of to) {
    if (d === from) continue;
    out[d] = src ? { boarding: !!src.boarding, closed: !!src.closed, time: (src.time ?? []).map((s) => ({ ...s })) } : null;
  }
  return out;
}

/** A common Iranian week: Saturday–Wednesday 9–17, Thursday 9–13, Friday closed. */
export function defaultWeek(): HoursOfWork {
  const open = (close: number): DayHours => ({ boarding: false, closed: false, time: [{ open: 9 * 3600, close }] });
  return {
    saturday: open(17 * 3600),
    sunday: open(17 * 3600),
    monday: open(17 * 3600),
    tuesday: open(17 * 3600),
    wednesday: open(17 * 3600),
    thursday: open(13 * 3600),
    friday: { boarding: false, closed: true, time: [] },
  };
}

/** The week as the server takes it: all seven days, slots sorted, closed and round-the-clock days without periods. */
export function weekForServer(h: HoursOfWork | null | undefined): Record<Weekday, { boarding: boolean; closed: boolean; time: TimeSlot[] }> {
  const out = {} as Record<Weekday, { boarding: boolean; closed: boolean; time: TimeSlot[] }>;
  for (const day of WEEK) {
    const d = h?.[day];
    const mode = dayMode(d);
    out[day] = {
      boarding: mode === 'boarding',
      closed: mode === 'closed',
      time: mode === 'open' ? [...(d?.time ?? [])].map((s) => ({ open: s.open, close: s.close })).sort((a, b) => a.open - b.open) : [],
    };
  }
  return out;
}
