/**
 * The owner's list of profiles (getAll) leaves deleted ones out, so the Desk remembers which
 * profiles were deleted from this browser and reads them back (getAuthProfileById answers them
 * in any state) to offer Restore during the 30 days.
 */

export const RETENTION_DAYS = 30;
const DAY = 86400000;

function key(userId: number | null) {
  return `kardan.deleted.${userId ?? 'anon'}`;
}

export function deletedIds(userId: number | null): number[] {
  try {
    const v = JSON.parse(localStorage.getItem(key(userId)) || '[]');
    return Array.isArray(v) ? v.filter((x) => Number.isInteger(x)) : [];
  } catch {
    return [];
  }
}

function write(userId: number | null, ids: number[]) {
  try {
    if (ids.length) localStorage.setItem(key(userId), JSON.stringify(ids));
    else localStorage.removeItem(key(userId));
  } catch {
    /* only the Restore shortcut is lost */
  }
}

export function rememberDeleted(userId: number | null, id: number) {
  const ids = deletedIds(userId);
  if (!ids.includes(id)) write(userId, [...ids, id]);
}

export function forgetDeleted(userId: number | null, id: number) {
  write(
    userId,
    deletedIds(userId).filter((x) => x !== id),
  );
}

/** Whole days left to restore a profile deleted at `deleteAt` (0 when the time is over). */
export function daysLeft(deleteAt: string | null | undefined, now = Date.now()): number {
  const t = deleteAt ? Date.parse(deleteAt) : NaN;
  if (Number.isNaN(t)) return 0;
  return Math.max(0, Math.ceil((t + RETENTION_DAYS * DAY - now) / DAY));
}

/** The last day a deleted profile can be restored. */
export function restoreUntil(deleteAt: string | null | undefined): Date | null {
  const t = deleteAt ? Date.parse(deleteAt) : NaN;
  return Number.isNaN(t) ? null : new Date(t + RETENTION_DAYS * DAY);
}
