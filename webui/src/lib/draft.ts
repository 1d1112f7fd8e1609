/**
 * Drafts of forms kept in local storage until they are saved, so a reload, a closed tab or a lost
 * connection never loses what someone typed.
 */

export interface Draft<T> {
  v: 1;
  /** When the draft was written (ms since the epoch). */
  at: number;
  /** The saved version the draft started from (e.g. the profile's update_at), if any. */
  base?: string;
  data: T;
}

type KV = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export const DRAFT_PREFIX = 'kardan.draft.';
/** Drafts older than this are dropped when read. */
export const DRAFT_MAX_AGE_MS = 30 * 24 * 3600 * 1000;

function storage(): KV | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The storage key of a form's draft: one per user, form kind and item (`new` for an unsaved one). */
export function draftKey(userId: number | string | null, kind: string, id: number | string | null | undefined): string {
  return `${DRAFT_PREFIX}${userId ?? 'anon'}.${kind}.${id ?? 'new'}`;
}

export function saveDraft<T>(key: string, data: T, base?: string, store: KV | null = storage(), now = Date.now()): boolean {
  if (!store) return false;
  const d: Draft<T> = { v: 1, at: now, data };
  if (base) d.base = base;
  try {
    store.setItem(key, JSON.stringify(d));
    return true;
  } catch {
    // A full storage loses the draft, never the form.
    return false;
  }
}

export function loadDraft<T>(key: string, store: KV | null = storage(), now = Date.now()): Draft<T> | null {
  if (!store) return null;
  const raw = store.getItem(key);
  if (!raw) return null;
  try {
    const d = JSON.parse(raw) as Draft<T>;
    if (d?.v !== 1 || typeof d.at !== 'number' || d.data === undefined) throw new Error('bad draft');
    if (now - d.at > DRAFT_MAX_AGE_MS) {
      store.removeItem(key);
      return null;
    }
    return d;
  } catch {
    store.removeItem(key);
    return null;
  }
}

export function clearDraft(key: string, store: KV | null = storage()) {
  try {
    store?.removeItem(key);
  } catch {
    /* nothing to clear */
  }
}

/** Debounces draft writes while someone types. */
export function draftWriter<T>(key: string, delayMs = 400, store: KV | null = storage()) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pending: { data: T; base?: string } | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending) saveDraft(key, pending.data, pending.base, store);
    pending = null;
  };
  return {
    write(data: T, base?: string) {
      pending = { data, base };
      if (timer) clearTimeout(timer);
      timer = setTimeout(flush, delayMs);
    },
    flush,
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
      pending = null;
    },
  };
}
