import type { Blog, BlogList, Profile, ProfileList } from '../api/types';

/** Copies of the last viewed profiles and searches, so they read offline (searches are POSTs the service worker cannot cache). */

const PROFILES = 'kardan.saved.profiles';
const SEARCHES = 'kardan.saved.searches';
const MAX_PROFILES = 12;
const MAX_SEARCHES = 12;

interface SavedProfile {
  slug: string;
  at: number;
  profile: Profile;
}

interface SavedSearch {
  key: string;
  url: string;
  at: number;
  result: ProfileList;
}

function read<T>(key: string): T[] {
  try {
    const v = JSON.parse(localStorage.getItem(key) || '[]');
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

function write<T>(key: string, list: T[]) {
  try {
    localStorage.setItem(key, JSON.stringify(list));
  } catch {
    if (list.length > 1) write(key, list.slice(0, Math.floor(list.length / 2)));
  }
}

export function saveProfile(profile: Profile) {
  if (!profile?.slug) return;
  const list = read<SavedProfile>(PROFILES).filter((p) => p.slug !== profile.slug);
  list.unshift({ slug: profile.slug, at: Date.now(), profile });
  write(PROFILES, list.slice(0, MAX_PROFILES));
}

export function savedProfile(slug: string): Profile | null {
  return read<SavedProfile>(PROFILES).find((p) => p.slug === slug)?.profile ?? null;
}

export function savedProfiles(): Profile[] {
  return read<SavedProfile>(PROFILES).map((p) => p.profile);
}

const BUSINESSES = 'kardan.saved.businesses';
const MAX_BUSINESSES = 50;

/**
 * Keeps the whole read forms of the businesses saved with the heart (the newest 50), so their
 * pages open offline like recently viewed ones; `keep` are the ids still saved (the others are
 * dropped). Key: the profile's slug; refreshed whenever the saved list is loaded or a heart tapped.
 */
export function keepSavedBusinesses(forms: Profile[], keep: number[]) {
  const ids = new Set(keep);
  const fresh = new Map(forms.filter((p) => p?.slug).map((p) => [p.id, p]));
  const old = read<Profile>(BUSINESSES).filter((p) => ids.has(p.id) && !fresh.has(p.id));
  write(BUSINESSES, [...fresh.values(), ...old].filter((p) => ids.has(p.id)).slice(0, MAX_BUSINESSES));
}

/** A saved business's read form by slug, or null. */
export function savedBusiness(slug: string): Profile | null {
  return read<Profile>(BUSINESSES).find((p) => p.slug === slug) ?? null;
}

export function saveSearch(key: string, url: string, result: ProfileList) {
  const list = read<SavedSearch>(SEARCHES).filter((s) => s.key !== key);
  const slim: ProfileList = {
    count: result.count,
    profiles: result.profiles.map((p) => ({ ...p, hours_of_work: p.hours_of_work, descriotion: undefined, list_object: undefined })),
  };
  list.unshift({ key, url, at: Date.now(), result: slim });
  write(SEARCHES, list.slice(0, MAX_SEARCHES));
}

export function savedSearch(key: string): ProfileList | null {
  return read<SavedSearch>(SEARCHES).find((s) => s.key === key)?.result ?? null;
}

export function savedSearches(): { url: string; at: number; count: number }[] {
  return read<SavedSearch>(SEARCHES).map((s) => ({ url: s.url, at: s.at, count: s.result.count }));
}

// The blog: the lists (by their query) and the articles read, like profiles and searches.
// Key: the list's request body / the article's slug or id as asked. A newer answer for the same
// key replaces the copy; the oldest fall off past the limits.
const BLOG_LISTS = 'kardan.saved.blogLists';
const BLOGS = 'kardan.saved.blogs';
const MAX_BLOG_LISTS = 8;
const MAX_BLOGS = 12;

export function saveBlogList(key: string, list: BlogList) {
  const all = read<{ key: string; list: BlogList }>(BLOG_LISTS).filter((s) => s.key !== key);
  // The cards need no article text.
  all.unshift({ key, list: { count: list.count, blogs: (list.blogs ?? []).map((b) => ({ ...b, content: undefined })) } });
  write(BLOG_LISTS, all.slice(0, MAX_BLOG_LISTS));
}

export function savedBlogList(key: string): BlogList | null {
  return read<{ key: string; list: BlogList }>(BLOG_LISTS).find((s) => s.key === key)?.list ?? null;
}

export function saveBlog(key: string, blog: Blog) {
  const all = read<{ key: string; blog: Blog }>(BLOGS).filter((s) => s.key !== key);
  all.unshift({ key, blog });
  write(BLOGS, all.slice(0, MAX_BLOGS));
}

export function savedBlog(key: string): Blog | null {
  return read<{ key: string; blog: Blog }>(BLOGS).find((s) => s.key === key)?.blog ?? null;
}
