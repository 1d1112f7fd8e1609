/** Page size of every paged list (SPEC §9). */
export const TAKE = 20;

/** skip for 1-based page n: (n-1)*take. */
export function skipFor(page: number, take = TAKE): number {
  const n = Math.max(1, Math.floor(page) || 1);
  return (n - 1) * take;
}

/** Page count as the spec defines it: ceil((count+1)/take). */
export function pageCount(count: number, take = TAKE): number {
  const c = Math.max(0, Math.floor(count) || 0);
  return Math.ceil((c + 1) / take);
}

/** Page numbers to show around the current one, with null for a gap: [1, null, 4, 5, 6, null, 12]. */
export function pageWindow(current: number, total: number, around = 1): (number | null)[] {
  const out: (number | null)[] = [];
  for (let p = 1; p <= total; p++) {
    if (p === 1 || p === total || Math.abs(p - current) <= around) out.push(p);
    else if (out[out.length - 1] !== null) out.push(null);
  }
  return out;
}
