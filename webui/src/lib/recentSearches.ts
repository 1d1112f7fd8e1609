/** How many recent searches the empty search box offers. */
export const MAX_RECENT = 5;

/**
 * The recent searches as stored (JSON, newest first), read defensively: anything but a list of
 * strings (another version's format, a hand-edited storage) reads as no searches.
 */
export function parseRecent(raw: string | null): string[] {
  try {
    const v = JSON.parse(raw ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '').slice(0, MAX_RECENT) : [];
  } catch {
    return [];
  }
}

/**
 * The list after searching q: q first (trimmed), an earlier identical search moved up rather
 * than repeated, at most MAX_RECENT kept; an empty search changes nothing.
 */
export function withRecent(list: readonly string[], q: string): string[] {
  const v = q.trim();
  if (!v) return [...list];
  return [v, ...list.filter((x) => x !== v)].slice(0, MAX_RECENT);
}
