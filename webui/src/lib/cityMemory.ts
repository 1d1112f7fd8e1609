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

export function learnCity(c: KnownCity | City | null | undefined) {
  if (!c?.slag) return;
  const all = names();
  const prev = all[c.slag];
  all[c.slag] = {
    slag: c.slag,
    farsi_name: c.farsi_name,
    english_name: c.english_name,
    province_id: c.province_id ?? prev?.province_id,
    lat: c.lat ?? prev?.lat,
    long: c.long ?? prev?.long,
  };
  try {
    localStorage.setItem(NAMES, JSON.stringify(all));
  } catch {
    /* names are a convenience */
  }
}

export function learnFromProfiles(list: Profile[]) {
  for (const p of list) {
    if (p.city?.slag) learnCity({ slag: p.city.slag, farsi_name: p.city.farsi_name, english_name: p.city.english_name, province_id: p.province?.id });
  }
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
