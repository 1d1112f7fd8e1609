/** Calls of the Desk (own profiles, blogs, account) and of the admins' screens. Loaded with the Desk only. */
import { del, get, post, put, upload } from './client';
import type { Blog, BlogList, Profile, ProfileList, User } from './types';

export type ProfilePayload = Record<string, unknown>;

export interface UploadResult {
  address: string;
  data?: unknown;
}

export type UploadKey = 'userTechnical' | 'user' | 'comment';

/** Pictures larger than this are refused before upload (the server's limit). */
export const MAX_UPLOAD = 10 * 1024 * 1024;

/** Sends a picture to `/v1/upload-file`; `onProgress` gets 0..1. */
export function uploadFile(key: UploadKey, file: Blob, name: string, onProgress?: (f: number) => void, signal?: AbortSignal) {
  const form = new FormData();
  form.append('uploadKey', key);
  form.append('file', file, name);
  return upload<UploadResult>('/v1/upload-file', form, onProgress, signal);
}

function profileList(r: ProfileList | Profile[] | null): ProfileList {
  if (Array.isArray(r)) return { profiles: r, count: r.length };
  return { profiles: r?.profiles ?? [], count: r?.count ?? 0 };
}

/* Own profiles */
export const getMyProfiles = async (userId: number) =>
  profileList(await get<ProfileList | Profile[]>(`/v1/user-technical/getAll/${userId}?take=100`));
export const getOwnProfile = (id: number) => get<Profile>(`/v1/user-technical/getAuthProfileById/${id}`);
export const createProfile = (body: ProfilePayload) => post<Profile>('/v1/user-technical/createProfile', body);
export const updateProfile = (id: number, body: ProfilePayload) => put<Profile>(`/v1/user-technical/update/${id}`, body);
export const setProfileFlags = (id: number, flags: { active?: boolean; display?: boolean }) =>
  put<Profile>(`/v1/user-technical/${id}/flags`, flags);
export const deleteProfile = (id: number) => del<Profile>(`/v1/user-technical/${id}`);
export const restoreProfile = (id: number) => put<Profile>(`/v1/user-technical/restore${id}`);

/* Account */
export const editUser = (body: { id: number; name?: string; password?: string; currentPassword?: string; otpCode?: string; profileImage?: string }) =>
  put<User>('/v1/user/edit', body);

/* Own blogs */
export interface BlogPayload {
  id?: number;
  title: string;
  slug?: string;
  content: string;
  summary: string;
  image_url: string;
  tag: string[];
  category_list: number[];
  release_at: string;
  isDraft: boolean;
}
export const getMyBlogs = async (skip: number, take: number) => {
  const r = await post<BlogList | null>('/v1/blog/getAuthAll', { skip, take });
  return { blogs: r?.blogs ?? [], count: r?.count ?? 0 };
};
export const getMyBlog = (id: number) => get<Blog>(`/v1/blog/getAuth/${id}`);
// A category outside the writer's fields is a 400 on category_list, shown on that field. A 403
// here means someone else's article (edited by a stale tab): no lost session either.
export const addBlog = (body: BlogPayload) => post<Blog>('/v1/blog/add', body, { keepOn403: true });
export const editBlog = (body: BlogPayload & { id: number }) => put<Blog>('/v1/blog/edit', body, { keepOn403: true });
export const deleteBlog = (id: number) => del<unknown>(`/v1/blog/delete/${id}`);

/* Admin */
export type ModerationStatus = 'Pending' | 'Accepted' | 'Rejected' | 'Blocked';

function query(o: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(o)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

export const adminProfiles = async (status: string, skip: number, take: number) =>
  profileList(await get<ProfileList>(`/v1/admin/user-technical${query({ status, skip, take })}`));
export const allProfiles = async (skip: number, take: number) =>
  profileList(await get<ProfileList>(`/v1/user-technical/getAllWithSoftDeleted${query({ skip, take })}`));
export const setProfileStatus = (id: number, status: ModerationStatus, description: string) =>
  put<Profile>(`/v1/admin/user-technical/${id}/status`, { status, description });

export const adminBlogs = async (status: string, skip: number, take: number) => {
  const r = await get<BlogList | null>(`/v1/admin/blog${query({ status, skip, take })}`);
  return { blogs: r?.blogs ?? [], count: r?.count ?? 0 };
};
export const setBlogStatus = (id: number, status: ModerationStatus, description: string) =>
  put<Blog>(`/v1/admin/blog/${id}/status`, { status, description });

export interface AdminComment {
  id: number;
  description: string;
  score?: number;
  status?: string;
  create_at?: string;
  user?: { id?: number; name?: string } | null;
  user_technical_id?: number | null;
  /** The profile the comment is on (admin lists). */
  user_technical?: { id?: number; profile_name?: string; slug?: string } | null;
  register_admin?: { description?: string } | null;
  /** The reviewer's photos, moderated with the review. */
  images?: string[];
}
export const adminComments = async (status: string, skip: number, take: number) => {
  const r = await get<{ comments: AdminComment[]; count: number } | null>(`/v1/admin/comment${query({ status, skip, take })}`);
  return { comments: r?.comments ?? [], count: r?.count ?? 0 };
};
export const setCommentStatus = (id: number, status: 'Hidden' | 'Visible', description: string) =>
  put<unknown>(`/v1/admin/comment/${id}/status`, { status, description });

/** One reported item in the admins' queue. */
export interface ReportGroup {
  entity: 'profile' | 'comment';
  id: number;
  count: number;
  reasons: Record<string, number>;
  first_at: string;
  last_at: string;
  reports: { id: number; reason: string; description: string; create_at: string }[];
  title: string;
  slug: string;
  profile_id: number;
  item_status: string;
  missing: boolean;
  register_admin?: { adminRegisterId: number | null; description: string };
}
export const adminReports = async (status: string, skip: number, take: number) => {
  const r = await get<{ reports: ReportGroup[]; count: number } | null>(`/v1/admin/report${query({ status, skip, take })}`);
  return { reports: r?.reports ?? [], count: r?.count ?? 0 };
};
export const resolveReports = (entity: string, id: number, status: 'Dismissed' | 'Actioned', description: string) =>
  put<unknown>(`/v1/admin/report/${entity}/${id}/status`, { status, description });

export interface CriticItem {
  id: number;
  name: string;
  email?: string;
  number_phone?: string;
  subject: string;
  message: string;
  read?: boolean;
  create_at?: string;
  user_id?: number | null;
}
/** Contact-form messages; `read` false lists the unread ones only. */
export const getCritics = async (skip: number, take: number, read?: boolean) => {
  const r = await get<{ critics: CriticItem[]; count: number } | null>(`/v1/critics-and-suggestions${query({ read: read === undefined ? undefined : String(read), skip, take })}`);
  return { critics: r?.critics ?? [], count: r?.count ?? 0 };
};
export const setCriticRead = (id: number, read: boolean) => put<unknown>(`/v1/admin/critics/${id}/read`, { read });

/* Owners' statistics */
export type StatKind = 'view' | 'appearance' | 'call' | 'sms' | 'route' | 'share' | 'social' | 'website' | 'quote';
export type StatCounts = Record<StatKind, number>;
export interface ProfileStats {
  profile_id: number;
  from: string;
  to: string;
  kinds: StatKind[];
  days: { date: string; counts: StatCounts }[];
  totals: StatCounts;
  previous: StatCounts;
  details: { route: Record<string, number>; social: Record<string, number> };
}
/** A profile's daily figures from `from` to `to` (YYYY-MM-DD, both included), for its owner or an admin. */
export const getProfileStats = (id: number, from: string, to: string, signal?: AbortSignal) =>
  get<ProfileStats>(`/v1/user-technical/${id}/stats?from=${from}&to=${to}`, { signal });
/** Every profile's figures together, for the admins' overview. */
export const getSiteStats = (from: string, to: string, signal?: AbortSignal) =>
  get<ProfileStats>(`/v1/admin/stats?from=${from}&to=${to}`, { signal });
