import type { City, Profile } from '../api/types';
import { localName } from '../i18n';

/** The last chosen city, and the names of cities seen, so a slug in a URL can be shown by name. */

const LAST = 'kardan.city';
const NAMES = 'kardan.cityNames';

export interface KnownCity {
  slag: string;
  farsi_name: string;
  english_name: string;
  province_id?: number;
  lat?: number;
  long?: number;
}

function names(): Record<string, KnownCity> {
  try {
    return JSON.parse(localStorage.getItem(NAMES) || '{}') || {};
  } catch {
    return {};
  }
}

/** Remembers cities' names: read and written once for a whole list (localStorage is slow on phones). */
function learn(list: (KnownCity | City | null | undefined)[]) {
  const all = names();
  let changed = false;
  for (const c of list) {
    if (!c?.slag) continue;
    const prev = all[c.slag];
    const next: KnownCity = {
      slag: c.slag,
      farsi_name: c.farsi_name,
      english_name: c.english_name,
      province_id: c.province_id ?? prev?.province_id,
      lat: c.lat ?? prev?.lat,
      long: c.long ?? prev?.long,
    };
    if (!prev || (Object.keys(next) as (keyof KnownCity)[]).some((k) => next[k] !== prev[k])) {
      all[c.slag] = next;
      changed = true;
    }
  }
  if (!changed) return;
  try {
    localStorage.setItem(NAMES, JSON.stringify(all));
  } catch {
    /* names are a convenience */
  }
}

export function learnCity(c: KnownCity | City | null | undefined) {
  learn([c]);
}

export function learnFromProfiles(list: Profile[]) {
  learn(list.map((p) => p.city?.slag ? { slag: p.city.slag, farsi_name: p.city.farsi_name, english_name: p.city.english_name, province_id: p.province?.id } : null));
}

export function knownCity(slag: string): KnownCity | null {
  return names()[slag] ?? null;
}

export function cityLabel(slag: string, lang: string): string {
  const c = knownCity(slag);
  return c ? localName(c, lang) : slag;
}

export function rememberCity(c: KnownCity | null) {
  try {
    if (c) {
      learnCity(c);
      localStorage.setItem(LAST, c.slag);
    } else localStorage.removeItem(LAST);
  } catch {
    /* the choice then lasts for this visit only */
  }
}

export function lastCity(): KnownCity | null {
  try {
    const slag = localStorage.getItem(LAST);
    return slag ? knownCity(slag) : null;
  } catch {
    return null;
  }
}
