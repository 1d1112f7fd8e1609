import { describe, expect, it } from 'vitest';
import { clusterPoints } from './cluster';

describe('clusterPoints', () => {
  it('groups points that would overlap and leaves the others alone', () => {
    const pts = [
      { x: 100, y: 100, item: 'a' },
      { x: 110, y: 95, item: 'b' },
      { x: 300, y: 300, item: 'c' },
      { x: 104, y: 130, item: 'd' },
      { x: 139, y: 100, item: 'e' }, // across a cell border from a, still within 40 px
    ];
    const got = clusterPoints(pts, 40);
    expect(got.map((c) => c.items.sort())).toEqual([['a', 'b', 'd', 'e'], ['c']]);
    expect(got[0].x).toBeCloseTo((100 + 110 + 104 + 139) / 4);
    expect(got[1]).toEqual({ x: 300, y: 300, items: ['c'] });
  });

  it('keeps apart points further than the radius, and handles none', () => {
    expect(clusterPoints([], 40)).toEqual([]);
    const far = clusterPoints(
      [
        { x: 0, y: 0, item: 1 },
        { x: 41, y: 0, item: 2 },
        { x: 0, y: -41, item: 3 },
      ],
      40,
    );
    expect(far.length).toBe(3);
  });

  it('groups a hundred pins at one spot into one', () => {
    const same = Array.from({ length: 100 }, (_, i) => ({ x: 5, y: 5, item: i }));
    const got = clusterPoints(same, 40);
    expect(got.length).toBe(1);
    expect(got[0].items.length).toBe(100);
  });
});
