import { describe, expect, it } from 'vitest';
import { pageCount, pageWindow, skipFor, TAKE } from './paging';

describe('paging (SPEC §9)', () => {
  it('take 20, skip (n-1)*20', () => {
    expect(TAKE).toBe(20);
    expect(skipFor(1)).toBe(0);
    expect(skipFor(2)).toBe(20);
    expect(skipFor(7)).toBe(120);
    expect(skipFor(0)).toBe(0);
  });
  it('page count ceil((count+1)/20)', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(19)).toBe(1);
    expect(pageCount(20)).toBe(2);
    expect(pageCount(39)).toBe(2);
    expect(pageCount(40)).toBe(3);
    expect(pageCount(1000)).toBe(51);
  });
  it('windows long page lists', () => {
    expect(pageWindow(5, 12)).toEqual([1, null, 4, 5, 6, null, 12]);
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
  });
});
