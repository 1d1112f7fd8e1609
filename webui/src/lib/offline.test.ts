import { beforeEach, describe, expect, it, vi } from 'vitest';
import { keepSavedBusinesses, savedBusiness, savedProfile, savedProfiles, savedSearch, savedSearches, saveProfile, saveSearch } from './offline';
import type { Profile } from '../api/types';

function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => (m.has(k) ? m.get(k)! : null),
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, String(v)),
  };
}

const profile = (slug: string): Profile => ({ id: slug.length, slug, profile_name: slug, descriotion: 'long text' });

describe('offline copies', () => {
  beforeEach(() => vi.stubGlobal('localStorage', memoryStorage()));

  it('keeps the last viewed profiles, newest first, without duplicates', () => {
    for (let i = 0; i < 15; i++) saveProfile(profile(`p${i}`));
    saveProfile(profile('p5'));
    const list = savedProfiles();
    expect(list).toHaveLength(12);
    expect(list[0].slug).toBe('p5');
    expect(list.filter((p) => p.slug === 'p5')).toHaveLength(1);
    expect(savedProfile('p14')?.profile_name).toBe('p14');
    expect(savedProfile('p0')).toBeNull();
  });

  it('keeps searches by their request and the URL that showed them', () => {
    saveSearch('k1', '/search/tehran', { profiles: [profile('a')], count: 1 });
    saveSearch('k2', '/search/iran?q=x', { profiles: [], count: 0 });
    expect(savedSearch('k1')?.profiles[0].slug).toBe('a');
    expect(savedSearch('k1')?.profiles[0].descriotion).toBeUndefined();
    expect(savedSearches().map((s) => s.url)).toEqual(['/search/iran?q=x', '/search/tehran']);
    expect(savedSearch('nope')).toBeNull();
  });

  it('keeps the saved businesses\' forms while they are saved, refreshed by newer copies', () => {
    const a = { id: 1, slug: 'a', profile_name: 'A' } as Profile;
    const b = { id: 2, slug: 'b', profile_name: 'B' } as Profile;
    keepSavedBusinesses([a, b], [1, 2]);
    expect(savedBusiness('a')?.profile_name).toBe('A');
    // A newer copy replaces the old one; an id no longer saved is dropped.
    keepSavedBusinesses([{ ...a, profile_name: 'A2' }], [1]);
    expect(savedBusiness('a')?.profile_name).toBe('A2');
    expect(savedBusiness('b')).toBeNull();
    // A change of the list without forms keeps the forms of those still saved.
    keepSavedBusinesses([], [1]);
    expect(savedBusiness('a')?.profile_name).toBe('A2');
    keepSavedBusinesses([], []);
    expect(savedBusiness('a')).toBeNull();
  });
});
