/** A point on the screen (pixels at the map's zoom) with what it stands for. */
export interface ScreenPoint<T> {
  x: number;
  y: number;
  item: T;
}

/** Points drawn as one: their items and where the group sits (the mean of its points). */
export interface Cluster<T> {
  x: number;
  y: number;
  items: T[];
}

/**
 * Groups points that would overlap on the screen: a point joins a group whose first point lies
 * within `radius` pixels (a square, so the test is two subtractions), looked for in a fixed
 * order, so the same points in the same view always group the same way. Points are bucketed in a grid of `radius`-sized
 * cells and only the neighbouring cells are looked at, so a hundred pins cost a few hundred
 * comparisons; a group of one is a plain pin.
 */
export function clusterPoints<T>(points: ScreenPoint<T>[], radius: number): Cluster<T>[] {
  const groups: { ax: number; ay: number; sx: number; sy: number; items: T[] }[] = [];
  const grid = new Map<string, number[]>();
  const key = (cx: number, cy: number) => `${cx}:${cy}`;
  for (const p of points) {
    const cx = Math.floor(p.x / radius);
    const cy = Math.floor(p.y / radius);
    let joined = -1;
    for (let dx = -1; dx <= 1 && joined < 0; dx++) {
      for (let dy = -1; dy <= 1 && joined < 0; dy++) {
        for (const g of grid.get(key(cx + dx, cy + dy)) ?? []) {
          const a = groups[g];
          if (Math.abs(a.ax - p.x) <= radius && Math.abs(a.ay - p.y) <= radius) {
            joined = g;
            break;
          }
        }
      }
    }
    if (joined >= 0) {
      const g = groups[joined];
      g.sx += p.x;
      g.sy += p.y;
      g.items.push(p.item);
      continue;
    }
    groups.push({ ax: p.x, ay: p.y, sx: p.x, sy: p.y, items: [p.item] });
    const k = key(cx, cy);
    grid.set(k, [...(grid.get(k) ?? []), groups.length - 1]);
  }
  return groups.map((g) => ({ x: g.sx / g.items.length, y: g.sy / g.items.length, items: g.items }));
}
