import { describe, expect, it } from 'vitest';
import { currentStatus, formatClock, nextChangeOf, quarterHourChoices, WEEK, zonedNow, type HoursOfWork } from './hours';

// 2024-03-20 is a Wednesday. 05:00 UTC = 08:30 in Tehran (UTC+3:30).
const at = (iso: string) => new Date(iso);

describe('open-now (SPEC §4)', () => {
  const h: HoursOfWork = {
    saturday: { boarding: false, closed: false, time: [{ open: 28800, close: 61200 }] },
    wednesday: { boarding: false, closed: false, time: [{ open: 28800, close: 46800 }, { open: 57600, close: 75600 }] },
    thursday: { boarding: true, closed: true, time: [] },
    friday: { boarding: false, closed: true, time: [{ open: 0, close: 86400 }] },
  };

  it('uses Tehran time and a Saturday-first week', () => {
    expect(WEEK[0]).toBe('saturday');
    expect(WEEK[6]).toBe('friday');
    expect(zonedNow(at('2024-03-20T05:00:00Z'))).toEqual({ day: 'wednesday', seconds: 8 * 3600 + 30 * 60 });
  });

  it('the day boundary follows Tehran, not UTC', () => {
    // 2024-03-22 21:00 UTC is Saturday 00:30 in Tehran.
    expect(zonedNow(at('2024-03-22T21:00:00Z')).day).toBe('saturday');
  });

  it("shows the server's status while its answer holds, nothing once its next change has passed", () => {
    const answer = { open_status: 'Closed' as const, next_change: { at: '2024-03-20T05:30:00Z', status: 'Open' as const }, hours_of_work: h };
    // A holiday: the week says open, the server says closed; the server is believed.
    expect(currentStatus({ ...answer, open_status: 'Closed' }, at('2024-03-20T05:00:00Z'))).toBe('Closed');
    expect(currentStatus({ ...answer, open_status: 'Open', next_change: null }, at('2024-03-20T05:00:00Z'))).toBe('Open');
    expect(currentStatus(answer, at('2024-03-20T05:30:00Z'))).toBeUndefined(); // the change is due: no longer known
    expect(currentStatus(answer, at('2024-03-21T05:30:00Z'))).toBeUndefined();
    // No hours, no special day, no change ahead: nothing to say.
    expect(currentStatus({ open_status: 'Closed', next_change: null, hours_of_work: {} })).toBeUndefined();
    expect(currentStatus({ open_status: 'Closed', next_change: null, hours_of_work: {}, special_days: [{}] })).toBe('Closed');
    expect(currentStatus({})).toBeUndefined();
  });

  it('formats clock times', () => {
    expect(formatClock(28800)).toBe('08:00');
    expect(formatClock(61200 + 900)).toBe('17:15');
    expect(formatClock(86400)).toBe('24:00');
  });
});

describe('quarter-hour choices', () => {
  it('offers every quarter hour of the day', () => {
    const q = quarterHourChoices();
    expect(q).toHaveLength(96);
    expect(q[0]).toBe(0);
    expect(q[95]).toBe(1425);
    expect(quarterHourChoices(600)).toEqual(q);
  });

  it('keeps an off-grid time (such as now) in its place instead of rounding it', () => {
    const q = quarterHourChoices(877); // 14:37
    expect(q).toHaveLength(97);
    expect(q.slice(58, 61)).toEqual([870, 877, 885]);
    expect(quarterHourChoices(1439).at(-1)).toBe(1439);
    expect(quarterHourChoices(1).slice(0, 3)).toEqual([0, 1, 15]);
  });

  it('ignores values outside the day', () => {
    expect(quarterHourChoices(-5)).toHaveLength(96);
    expect(quarterHourChoices(1440)).toHaveLength(96);
    expect(quarterHourChoices(12.5)).toHaveLength(96);
  });
});

describe('nextChangeOf', () => {
  // 2026-11-25 10:00 in Tehran (a Wednesday) is 06:30 UTC.
  const now = new Date('2026-11-25T06:30:00Z');
  it('says until when the change closes', () => {
    expect(nextChangeOf({ at: '2026-11-25T20:30:00+03:30', status: 'Closed' }, now)).toEqual({ kind: 'until', time: '20:30' });
  });
  it('says the weekday when it opens on another day', () => {
    expect(nextChangeOf({ at: '2026-11-28T09:00:00+03:30', status: 'Open' }, now)).toEqual({ kind: 'opens', time: '09:00', day: 'saturday' });
  });
  it('leaves the day out when it opens today', () => {
    expect(nextChangeOf({ at: '2026-11-25T16:00:00+03:30', status: 'Open' }, now)).toEqual({ kind: 'opens', time: '16:00' });
  });
  it('says nothing of a change already past or missing', () => {
    expect(nextChangeOf({ at: '2026-11-25T09:00:00+03:30', status: 'Open' }, now)).toBeUndefined();
    expect(nextChangeOf(null, now)).toBeUndefined();
    expect(nextChangeOf({ at: 'soon', status: 'Open' }, now)).toBeUndefined();
  });
});
