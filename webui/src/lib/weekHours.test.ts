import { describe, expect, it } from 'vitest';
import { copyDay, defaultWeek, nextSlot, slotTimes, validateDay, validateWeek, weekForServer, withMode } from './weekHours';

describe('working hours validation', () => {
  it('accepts the default week', () => {
    expect(validateWeek(defaultWeek())).toEqual([]);
  });
  it('offers every quarter hour from 00:00 to 24:00', () => {
    const s = slotTimes();
    expect(s[0]).toBe(0);
    expect(s[1]).toBe(900);
    expect(s.at(-1)).toBe(86400);
    expect(s).toHaveLength(97);
  });
  it('finds irregular values, reversed and overlapping periods', () => {
    expect(validateDay('monday', { time: [{ open: 28800, close: 28800 + 1000 }] })).toEqual([{ day: 'monday', slot: 0, kind: 'irregular' }]);
    expect(validateDay('monday', { time: [{ open: 61200, close: 28800 }] })).toEqual([{ day: 'monday', slot: 0, kind: 'order' }]);
    expect(validateDay('monday', { time: [{ open: 28800, close: 28800 }] })).toEqual([{ day: 'monday', slot: 0, kind: 'order' }]);
    expect(
      validateDay('monday', {
        time: [
          { open: 50400, close: 64800 },
          { open: 28800, close: 54000 },
        ],
      }),
    ).toEqual([{ day: 'monday', slot: 0, kind: 'overlap' }]);
    // touching periods do not overlap
    expect(validateDay('monday', { time: [{ open: 28800, close: 43200 }, { open: 43200, close: 61200 }] })).toEqual([]);
    expect(validateDay('monday', { time: [{ open: -900, close: 900 }] })[0].kind).toBe('irregular');
    // any whole minute is a time the server stores (08:10 to 13:55)
    expect(validateDay('monday', { time: [{ open: 29400, close: 50100 }] })).toEqual([]);
    expect(validateDay('monday', { time: [{ open: 29400 + 30, close: 50100 }] })[0].kind).toBe('irregular');
    expect(validateDay('monday', { time: [{ open: 0, close: 87300 }] })[0].kind).toBe('irregular');
  });
  it('an open day needs a period; a day cannot be closed and round the clock', () => {
    expect(validateDay('friday', { closed: false, boarding: false, time: [] })).toEqual([{ day: 'friday', kind: 'empty' }]);
    expect(validateDay('friday', { closed: true, boarding: true })).toEqual([{ day: 'friday', kind: 'both' }]);
    expect(validateDay('friday', { closed: true, time: [{ open: 5, close: 1 }] })).toEqual([]);
    expect(validateDay('friday', null)).toEqual([]);
  });
  it('limits periods to six a day', () => {
    const time = Array.from({ length: 7 }, (_, i) => ({ open: i * 7200, close: i * 7200 + 3600 }));
    expect(validateDay('sunday', { time }).map((x) => x.kind)).toEqual(['tooMany']);
  });
  it('reports days in week order', () => {
    const h = { friday: { time: [] }, saturday: { time: [{ open: 100, close: 900 }] } };
    expect(validateWeek(h).map((x) => x.day)).toEqual(['saturday', 'friday']);
  });
});

describe('working hours editing', () => {
  it('copies a day to others without sharing its periods', () => {
    const w = defaultWeek();
    const c = copyDay(w, 'thursday', ['friday', 'saturday']);
    expect(c.friday).toEqual(w.thursday);
    expect(c.saturday).toEqual(w.thursday);
    expect(c.friday!.time).not.toBe(w.thursday!.time);
    expect(c.sunday).toBe(w.sunday);
  });
  it('switching modes keeps periods and opening an empty day gives it one', () => {
    expect(withMode({ time: [] }, 'open').time).toEqual([{ open: 32400, close: 61200 }]);
    expect(withMode({ time: [{ open: 0, close: 900 }] }, 'closed')).toEqual({ boarding: false, closed: true, time: [{ open: 0, close: 900 }] });
    expect(withMode(null, 'boarding').boarding).toBe(true);
  });
  it('suggests a next period after the last one, inside the day', () => {
    expect(nextSlot({ time: [{ open: 28800, close: 46800 }] })).toEqual({ open: 50400, close: 57600 });
    const late = nextSlot({ time: [{ open: 0, close: 86400 }] });
    expect(late.open).toBeLessThan(late.close);
    expect(late.close).toBeLessThanOrEqual(86400);
  });
  it('sends all seven days, closed days without periods, slots sorted', () => {
    const s = weekForServer({ monday: { time: [{ open: 50400, close: 61200 }, { open: 28800, close: 43200 }] }, friday: { closed: true, time: [{ open: 0, close: 900 }] } });
    expect(Object.keys(s)).toEqual(['saturday', 'sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday']);
    expect(s.monday.time.map((x) => x.open)).toEqual([28800, 50400]);
    expect(s.friday).toEqual({ boarding: false, closed: true, time: [] });
    expect(s.saturday).toEqual({ boarding: false, closed: true, time: [] });
  });
});
