import { useEffect } from 'preact/hooks';
import { del, get, post, put } from '../api/client';
import type { Profile, ProfileList } from '../api/types';
import { isLoggedIn, readUserId } from '../api/auth';
import { keepSavedBusinesses } from '../lib/offline';
import { createStore, useStore } from './store';

/**
 * The businesses saved with the heart. The list lives on the device (localStorage, with a copy of
 * each card so the saved page works offline); signed in, it mirrors the account's list on the
 * server (`/v1/saved`). `account` names the account the list mirrors, null for a list kept while
 * signed out, which is merged into the account at the next sign-in.
 */
export interface SavedState {
  ids: number[];
  items: Record<string, SavedCard>;
  account: number | null;
}

/** What a saved card needs to be drawn without the network. */
export type SavedCard = Pick<
  Profile,
  | 'id'
  | 'slug'
  | 'profile_name'
  | 'range_worker'
  | 'city'
  | 'score'
  | 'count_scorer'
  | 'profile_image'
  | 'logo'
  | 'hours_of_work'
  | 'open_status'
> & { portfolio_images?: string[] };

const KEY = 'kardan.saved';

function read(): SavedState {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? 'null') as SavedState | null;
    if (v && Array.isArray(v.ids) && v.items && typeof v.items === 'object') return { ids: v.ids, items: v.items, account: v.account ?? null };
  } catch {
    /* an unreadable list starts empty */
  }
  return { ids: [], items: {}, account: null };
}

export const savedStore = createStore<SavedState>(typeof localStorage === 'undefined' ? { ids: [], items: {}, account: null } : read());

function write(s: SavedState, forms: Profile[] = []) {
  savedStore.set(s);
  keepSavedBusinesses(forms, s.ids);
  try {
    localStorage.setItem(KEY, JSON.stringify(s));
  } catch {
    /* a full storage keeps the list for this visit only */
  }
}

function cardOf(p: Profile | SavedCard): SavedCard {
  return {
    id: p.id,
    slug: p.slug,
    profile_name: p.profile_name,
    range_worker: p.range_worker,
    city: p.city,
    score: p.score,
    count_scorer: p.count_scorer,
    profile_image: p.profile_image,
    logo: p.logo,
    portfolio_images: (p.portfolio_images ?? []).slice(0, 1),
    hours_of_work: p.hours_of_work,
    open_status: p.open_status,
  };
}

interface SavedAnswer {
  ids: number[];
  count: number;
  profiles?: Profile[];
}

/** The server's list becomes the device's: ids in its order, cards refreshed from its answer. */
function adopt(answer: SavedAnswer | (ProfileList & { ids?: number[] }), account: number) {
  const cur = savedStore.get();
  const items: Record<string, SavedCard> = {};
  const ids = answer.ids ?? [];
  for (const p of answer.profiles ?? []) items[p.id] = cardOf(p);
  for (const id of ids) if (!items[id] && cur.items[id]) items[id] = cur.items[id];
  write({ ids, items, account }, answer.profiles ?? []);
}

export function isSaved(s: SavedState, id: number): boolean {
  return s.ids.includes(id);
}

/**
 * Saves or unsaves p: on the device at once, then on the account when signed in. A refusal puts
 * the device's list back and is thrown, for the caller to show.
 */
export async function toggleSaved(p: Profile | SavedCard): Promise<boolean> {
  const before = savedStore.get();
  const on = !isSaved(before, p.id);
  const items = { ...before.items };
  if (on) items[p.id] = cardOf(p);
  else delete items[p.id];
  // A heart tapped on a profile's page holds the whole form: kept, its page opens offline.
  const form = on && 'slug' in p && 'social_network' in p ? [p as Profile] : [];
  write({ ...before, items, ids: on ? [p.id, ...before.ids] : before.ids.filter((x) => x !== p.id) }, form);
  const account = isLoggedIn() ? Number(readUserId()) : null;
  if (account === null || before.account !== account) return on;
  try {
    const answer = on ? await put<SavedAnswer>(`/v1/saved/${p.id}`) : await del<SavedAnswer>(`/v1/saved/${p.id}`);
    // The answer names the whole list: another device's changes come along.
    const now = savedStore.get();
    write({ ...now, ids: answer.ids, items: Object.fromEntries(answer.ids.filter((id) => now.items[id]).map((id) => [id, now.items[id]])) });
  } catch (e) {
    write(before);
    throw e;
  }
  return on;
}

let syncing: Promise<void> | null = null;

/**
 * Brings the device's list and the account's together: a list kept signed out (or for another
 * account) is merged into the account, then the account's list replaces the device's. Signed out,
 * a list that mirrored an account is dropped, so the next person on a shared device does not see it.
 */
export function syncSaved(): Promise<void> {
  if (syncing) return syncing;
  const run = async () => {
    const cur = savedStore.get();
    if (!isLoggedIn()) {
      if (cur.account !== null) write({ ids: [], items: {}, account: null });
      return;
    }
    const account = Number(readUserId());
    const answer =
      cur.account === account || cur.ids.length === 0
        ? await get<SavedAnswer>('/v1/saved')
        : await post<SavedAnswer>('/v1/saved', { ids: cur.account === null ? cur.ids : [] });
    adopt(answer, account);
  };
  syncing = run()
    .catch(() => undefined)
    .finally(() => {
      syncing = null;
    });
  return syncing;
}

export function useSaved(): SavedState {
  return useStore(savedStore);
}

/** Keeps the saved list in step with the account: at start, at sign-in and sign-out. */
export function useSavedSync(userId: number | null) {
  useEffect(() => {
    void syncSaved();
  }, [userId]);
}
