import { describe, expect, it } from 'vitest';
import { clock, secondsLeft } from './CodeTimer';

describe('code timer', () => {
  it('counts the seconds left of a span, never below zero', () => {
    const at = 1_000_000;
    expect(secondsLeft(at, 120, at)).toBe(120);
    expect(secondsLeft(at, 120, at + 500)).toBe(120);
    expect(secondsLeft(at, 120, at + 1_000)).toBe(119);
    expect(secondsLeft(at, 60, at + 59_001)).toBe(1);
    expect(secondsLeft(at, 60, at + 60_000)).toBe(0);
    expect(secondsLeft(at, 60, at + 600_000)).toBe(0);
  });
  it('writes m:ss in the language\'s digits', () => {
    expect(clock(120, 'en')).toBe('2:00');
    expect(clock(65, 'en')).toBe('1:05');
    expect(clock(0, 'en')).toBe('0:00');
    expect(clock(-3, 'en')).toBe('0:00');
    expect(clock(9, 'fa')).toBe('۰:۰۹');
  });
});
