import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_PRESS, pressWatcher } from './afterPress';

describe('pressWatcher', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('with nothing pressed (a tap, the Tab key) runs in the next task, after the click of the same task', () => {
    const later = pressWatcher(new EventTarget());
    const ran: string[] = [];
    later(() => ran.push('error'));
    ran.push('click');
    expect(ran).toEqual(['click']);
    vi.runAllTimers();
    expect(ran).toEqual(['click', 'error']);
  });

  it('while a pointer is pressed waits for its release, then for the click that follows it', () => {
    const page = new EventTarget();
    const later = pressWatcher(page);
    const ran: string[] = [];
    page.dispatchEvent(new Event('pointerdown'));
    later(() => ran.push('error'));
    vi.advanceTimersByTime(MAX_PRESS - 1);
    // Nothing moves under a pressed pointer.
    expect(ran).toEqual([]);
    page.dispatchEvent(new Event('pointerup'));
    ran.push('click');
    vi.runAllTimers();
    expect(ran).toEqual(['click', 'error']);
  });

  it('a cancelled press (a scroll) lets the waiting change run too', () => {
    const page = new EventTarget();
    const later = pressWatcher(page);
    let n = 0;
    page.dispatchEvent(new Event('pointerdown'));
    later(() => n++);
    later(() => n++);
    page.dispatchEvent(new Event('pointercancel'));
    vi.runAllTimers();
    expect(n).toBe(2);
    // Run once: a later release runs nothing again.
    page.dispatchEvent(new Event('pointerup'));
    vi.runAllTimers();
    expect(n).toBe(2);
  });

  it('a release never seen (a native <select> list took it) holds the change back at most MAX_PRESS', () => {
    const page = new EventTarget();
    const later = pressWatcher(page);
    let n = 0;
    page.dispatchEvent(new Event('pointerdown'));
    later(() => n++);
    vi.advanceTimersByTime(MAX_PRESS - 1);
    expect(n).toBe(0);
    vi.advanceTimersByTime(1);
    vi.runOnlyPendingTimers();
    expect(n).toBe(1);
    // The press is over: the next change runs at once, in the next task.
    later(() => n++);
    vi.runOnlyPendingTimers();
    expect(n).toBe(2);
  });

  it('a new press starts its own MAX_PRESS', () => {
    const page = new EventTarget();
    const later = pressWatcher(page);
    let n = 0;
    page.dispatchEvent(new Event('pointerdown'));
    vi.advanceTimersByTime(MAX_PRESS - 100);
    page.dispatchEvent(new Event('pointerdown'));
    later(() => n++);
    vi.advanceTimersByTime(MAX_PRESS - 1);
    expect(n).toBe(0);
    page.dispatchEvent(new Event('pointerup'));
    vi.runOnlyPendingTimers();
    expect(n).toBe(1);
  });

  it('a key pressed while a release is missing ends the press', () => {
    const page = new EventTarget();
    const later = pressWatcher(page);
    let n = 0;
    page.dispatchEvent(new Event('pointerdown'));
    later(() => n++);
    vi.advanceTimersByTime(100);
    expect(n).toBe(0);
    page.dispatchEvent(new Event('keydown'));
    vi.runOnlyPendingTimers();
    expect(n).toBe(1);
    // Once: neither the time limit nor a late release runs it again.
    vi.runAllTimers();
    page.dispatchEvent(new Event('pointerup'));
    vi.runAllTimers();
    expect(n).toBe(1);
  });
});
