import { ApiError, get, post, put } from './client';
import type {
  AppConfig,
  Blog,
  BlogList,
  CategoryNode,
  City,
  CommentItem,
  CommentList,
  CommentSort,
  Critic,
  LoginAnswer,
  Profile,
  ProfileList,
  Province,
  Suggestions,
  User,
} from './types';
import type { SearchBody } from '../lib/searchUrl';
import { savedBlog, savedBlogList, saveBlog, saveBlogList, savedBusiness, savedProfile, saveProfile, savedSearch, saveSearch } from '../lib/offline';
import { takeFirstAnswer } from './first';

export * from './types';
export { ApiError, request, setUnauthorizedHandler, mapError } from './client';

const memo = new Map<string, Promise<unknown>>();

/** Reference data rarely changes: one request per page load, and a stored copy for offline use. */
function cached<T>(key: string, load: () => Promise<T>): Promise<T> {
  const hit = memo.get(key) as Promise<T> | undefined;
  if (hit) return hit;
  const p = load()
    .then((v) => {
      try {
        localStorage.setItem(`kardan.cache.${key}`, JSON.stringify(v));
      } catch {
        /* a full storage only loses the offline copy */
      }
      return v;
    })
    .catch((e) => {
      memo.delete(key);
      if (e instanceof ApiError && e.offline) {
        const raw = localStorage.getItem(`kardan.cache.${key}`);
        if (raw) return JSON.parse(raw) as T;
      }
      throw e;
    });
  memo.set(key, p);
  return p;
}

/* Locations and categories */
export const getProvinces = () => cached('provinces', () => get<Province[]>('/v1/locations/province/list'));
export const getCities = (provinceId: number) =>
  cached(`cities.${provinceId}`, () => get<City[]>(`/v1/locations/cities/list/${provinceId}`));
export const getNearestCity = (lat: number, long: number) =>
  get<City>(`/v1/locations/nearest?lat=${encodeURIComponent(lat)}&long=${encodeURIComponent(long)}`);
export const getCategoryTree = () => cached('categories', () => get<CategoryNode[]>('/v1/work_category/getTreeById'));
export const getFavouriteCategories = () => cached('favourites', () => get<CategoryNode[]>('/v1/work_category/getFavourite'));
export const getConfig = () => cached('config', () => get<AppConfig>('/v1/config'));

/* Profiles */
const SLUG_PATH = '/v1/user-technical/searchUserSlag';
const SEARCH_PATH = '/v1/user-technical/searchUser';

function searchKey(body: SearchBody): string {
  // Plain code-unit order: localeCompare built a collator, a long task on a slow phone's first search.
  return JSON.stringify(Object.entries(body).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** A search answer with its list and count filled in, whatever the API left out. */
function listOf(r: ProfileList | null | undefined): ProfileList {
  const list: ProfileList = { profiles: r?.profiles ?? [], count: r?.count ?? 0 };
  if (r?.fallback) list.fallback = r.fallback;
  if (r?.did_you_mean) list.did_you_mean = r.did_you_mean;
  return list;
}

export interface Offline<T> {
  data: T;
  offline: boolean;
}

export async function searchProfiles(body: SearchBody, url?: string, signal?: AbortSignal): Promise<Offline<ProfileList>> {
  const key = searchKey(body);
  try {
    const r = await post<ProfileList>(SEARCH_PATH, body, { signal });
    const data = listOf(r);
    if (url) saveSearch(key, url, data);
    return { data, offline: false };
  } catch (e) {
    const copy = e instanceof ApiError && e.offline ? savedSearch(key) : null;
    if (copy) return { data: copy, offline: true };
    throw e;
  }
}

export async function getProfileBySlug(slug: string): Promise<Offline<Profile>> {
  try {
    const p = await post<Profile>(SLUG_PATH, { slug });
    if (!p) throw new ApiError(404, '');
    saveProfile(p);
    return { data: p, offline: false };
  } catch (e) {
    const copy = e instanceof ApiError && e.offline ? (savedProfile(slug) ?? savedBusiness(slug)) : null;
    if (copy) return { data: copy, offline: true };
    throw e;
  }
}

/*
 * Answers started as soon as the app starts on a page's address, while that page's own code is
 * still on its way: on a slow network the two requests overlap instead of following one another.
 * When the server already wrote the answer into the page (first.ts), it is there at once and the
 * page draws with it on its first render. The page takes its answer once; later visits ask the
 * server again.
 */
interface Early {
  p: Promise<unknown>;
  at: number;
  /** The answer itself when the page held it. */
  now?: unknown;
}
const early = new Map<string, Early>();
const EARLY_MS = 15_000; // an answer nobody took soon is stale; ask again

function startEarly<T>(key: string, load: () => Promise<T>, held?: T) {
  if (early.has(key)) return;
  const p = held !== undefined ? Promise.resolve(held) : load();
  p.catch(() => undefined); // the page reports a failure when it takes the answer
  early.set(key, { p, at: Date.now(), now: held });
}

function takeEarly<T>(key: string, load: () => Promise<T>): Promise<T> {
  const e = early.get(key);
  early.delete(key);
  return e && Date.now() - e.at < EARLY_MS ? (e.p as Promise<T>) : load();
}

/** The early answer for key when it is already there (the page held it), taken; else undefined. */
function takeEarlyNow<T>(key: string): T | undefined {
  const e = early.get(key);
  if (!e || e.now === undefined) return undefined;
  early.delete(key);
  return e.now as T;
}

/** Keeps the offline copy after the first paint: the page's answer needs no storage to show. */
function later(fn: () => void) {
  setTimeout(fn, 0);
}

export function startProfileLoad(slug: string) {
  if (!slug) return;
  const held = takeFirstAnswer<Profile | null>(SLUG_PATH, { slug })?.payload;
  if (held) later(() => saveProfile(held));
  startEarly(`profile:${slug}`, () => getProfileBySlug(slug), held ? { data: held, offline: false } : undefined);
}
/** The profile of a page: the answer started early for it when there is one, else a new request. */
export const profileBySlug = (slug: string) => takeEarly(`profile:${slug}`, () => getProfileBySlug(slug));
/** The profile of a page when the page already holds it (see first.ts), for its first render. */
export const profileBySlugNow = (slug: string) => takeEarlyNow<Offline<Profile>>(`profile:${slug}`);

/** The category nodes the page came with (see first.ts), by slug. */
const heldCategories = new Map<string, CategoryNode>();

export function startSearchLoad(body: SearchBody, url: string) {
  const first = takeFirstAnswer<ProfileList | null>(SEARCH_PATH, body);
  if (first?.category) heldCategories.set(first.category.slag, first.category);
  const held = first?.payload;
  let now: Offline<ProfileList> | undefined;
  if (held) {
    const data = listOf(held);
    later(() => saveSearch(searchKey(body), url, data));
    now = { data, offline: false };
  }
  startEarly(`search:${url}`, () => searchProfiles(body, url), now);
}
/** A search page's results: the answer started early for its address when there is one. */
export const searchFor = (body: SearchBody, url: string, signal?: AbortSignal) =>
  takeEarly(`search:${url}`, () => searchProfiles(body, url, signal));
/** A search page's results when the page already holds them (see first.ts), for its first render. */
export const searchForNow = (url: string) => takeEarlyNow<Offline<ProfileList>>(`search:${url}`);
/**
 * The category of the slug when the page came with it (see first.ts), for a search page's first
 * render: the category tree, which also has it, arrives later.
 */
export const categoryNow = (slag: string | undefined) => (slag ? heldCategories.get(slag) : undefined);

export const getProfile = (id: number) => get<Profile>(`/v1/user-technical/${id}`);
// Shown on public pages: a refusal must not sign the visitor out.
export const getUserProfiles = (userId: number) =>
  get<Profile[] | ProfileList>(`/v1/user-technical/getAll/${userId}`, { noAuthRedirect: true });

/* Suggestions as you type (categories, cities, profiles), in the current city when one is chosen. */
export const getSuggestions = (q: string, city: string | undefined, signal?: AbortSignal) =>
  get<Suggestions>(`/v1/search/suggest?q=${encodeURIComponent(q)}${city ? `&city_slag=${encodeURIComponent(city)}` : ''}`, { signal });

/* Comments */
export const getComments = (body: {
  category?: number;
  user_technical_id: number;
  skip: number;
  take: number;
  /** Keep one score (1-5); absent or 0 keeps all. */
  score?: number;
  sort?: CommentSort;
  /** Keep the reviews that carry a photo; absent or false keeps all. */
  with_photos?: boolean;
}) =>
  post<CommentList>('/v1/comment/get', body);
/** The caller's own comment on a profile (hidden or not): also alone as `comment`, null when there is none. */
export const getMyComments = (body: { category?: number; user_technical_id: number; skip: number; take: number }) =>
  post<CommentList & { comment?: CommentItem | null }>('/v1/comment/getCommentRegisterByMe', body);
export const addComment = (body: { category_list: number[]; description: string; score: number; user_technical_id: number; images?: string[] }) =>
  post<unknown>('/v1/comment/add', body);
export const editComment = (body: { category_list: number[]; description: string; score: number; id: number; images?: string[] }) =>
  put<unknown>('/v1/comment/edit', body);
// The profile owner's reply (sent again, it replaces the reply). Its 403 means "not the owner of
// this profile", not a lost session: a 401 still signs out.
export const replyComment = (body: { id: number; description: string }) =>
  post<CommentItem>('/v1/comment/reply', body, { keepOn403: true });

/* Blogs */
/** Blog lists, kept on the device so a list seen online reads offline too (REVIEW #7). */
export async function searchBlogs(body: { writer_id?: number; skip: number; take: number; category_id?: number; search_txt?: string; tag?: string }) {
  const key = JSON.stringify(body);
  try {
    const r = await post<BlogList>('/v1/blog/search', body);
    if (r) later(() => saveBlogList(key, r));
    return r;
  } catch (e) {
    const copy = e instanceof ApiError && e.offline ? savedBlogList(key) : null;
    if (copy) return copy;
    throw e;
  }
}
/** An article, kept on the device once read so it reads offline too. */
export async function getBlog(slugOrId: string) {
  try {
    const b = await get<Blog>(`/v1/blog/get/${encodeURIComponent(slugOrId)}`);
    if (b) later(() => saveBlog(slugOrId, b));
    return b;
  } catch (e) {
    const copy = e instanceof ApiError && e.offline ? savedBlog(slugOrId) : null;
    if (copy) return copy;
    throw e;
  }
}

/* Accounts */
export const login = (numberPhone: string, password: string) =>
  post<LoginAnswer>('/v1/user/login', { numberPhone, password }, { noAuthRedirect: true });
export const logoutServer = () => post<unknown>('/v1/user/logout', {}, { noAuthRedirect: true });
export const sendSignupCode = (numberPhone: string) => post<CodeSent>('/v1/send-sms/sendSmsForSignUp', { numberPhone });
export const createUser = (body: { numberPhone: string; name: string; password: string; profileImage: string; otpCode: string }) =>
  post<LoginAnswer>('/v1/user/create', body, { noAuthRedirect: true });
export const getMe = () => get<User>('/v1/user');

/** The reasons a visitor may report an item for (the server's list); `other` needs a description. */
export const REPORT_REASONS = ['spam', 'fake', 'offensive', 'scam', 'wrong_info', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const reportItem = (body: { entity: 'profile' | 'comment' | 'lead'; id: number; reason: ReportReason; description: string }) =>
  post<unknown>('/v1/report/add', body);

/** What a code send answers: the normalised number, the code's lifetime and the resend cooldown (seconds). */
export interface CodeSent {
  numberPhone: string;
  expiresIn: number;
  resendIn: number;
}
export const sendResetCode = (numberPhone: string) => post<CodeSent>('/v1/send-sms/sendSmsForReset', { numberPhone });
export const sendLoginCode = (numberPhone: string) => post<CodeSent>('/v1/send-sms/sendSmsForLogin', { numberPhone });
export const resetPassword = (body: { numberPhone: string; otpCode: string; password: string }) =>
  post<LoginAnswer>('/v1/user/reset-password', body, { noAuthRedirect: true });
export const loginWithCode = (numberPhone: string, otpCode: string) =>
  post<LoginAnswer>('/v1/user/loginWithCode', { numberPhone, otpCode }, { noAuthRedirect: true });

/* Critics and suggestions */
export const sendCritic = (body: Critic, signedIn: boolean) =>
  post<unknown>(signedIn ? '/v1/critics-and-suggestions/addWithAuth' : '/v1/critics-and-suggestions/add', body);

