import { i18n, currentLang } from '../i18n';
import { clearSession, readToken } from './auth';

/** What an error becomes for a person: a catalogue key, or a text the server sent. */
export interface ErrorText {
  key?: 'errors.checkInternet' | 'errors.server' | 'errors.generic';
  text?: string;
}

/**
 * SPEC §8: no response (network) → "Please check your internet"; another failure without a
 * response → its raw message; 500 → "Server error try again"; any other status → the first
 * server message (first item of a list, or the string), else the generic message.
 */
export function mapError(status: number | null, body: unknown, raw?: string): ErrorText {
  if (status === null) {
    if (raw) return { text: raw };
    return { key: 'errors.checkInternet' };
  }
  if (status === 0) return { key: 'errors.checkInternet' };
  if (status === 500) return { key: 'errors.server' };
  const first = firstMessage(body);
  if (first) return { text: first };
  return { key: 'errors.generic' };
}

export function firstMessage(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const m = (body as { message?: unknown }).message;
  if (Array.isArray(m)) {
    const f = m.find((x) => typeof x === 'string' && x.trim());
    return typeof f === 'string' ? f : undefined;
  }
  return typeof m === 'string' && m.trim() ? m : undefined;
}

export class ApiError extends Error {
  /** HTTP status; 0 when no response came back (network). */
  status: number;
  /** Every message the server sent, for forms that place them on fields. */
  messages: string[];
  /** Validation answers: field name → localized message (`payload.fields`). */
  fields: Record<string, string>;
  constructor(status: number, message: string, messages: string[] = [], fields: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.messages = messages;
    this.fields = fields;
  }
  get offline(): boolean {
    return this.status === 0;
  }
}

function describe(e: ErrorText): string {
  return e.text ?? i18n.t(e.key ?? 'errors.generic');
}

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler = () => {
  clearSession();
  if (typeof location !== 'undefined' && location.pathname !== '/login') location.assign('/login');
};

/** The app replaces this so that a 401/403 signs out and routes to /login without a reload. */
export function setUnauthorizedHandler(h: UnauthorizedHandler) {
  onUnauthorized = h;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Skip the 401/403 sign-out (the login form itself). */
  noAuthRedirect?: boolean;
  /** Sign out on 401 only: the call's 403 means "not allowed for this content", not a lost session. */
  keepOn403?: boolean;
}

export function requestHeaders(hasJsonBody: boolean): Record<string, string> {
  const h: Record<string, string> = { Accept: 'application/json', 'Accept-Language': currentLang() };
  if (hasJsonBody) h['Content-Type'] = 'application/json';
  const token = readToken();
  if (token) h.Authorization = `Bearer ${token}`;
  return h;
}

/** One call to the API: envelope, headers and the error rules live here and nowhere else. */
export async function request<T>(method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
  const init: RequestInit = {
    method,
    headers: requestHeaders(body !== undefined && !isForm),
    signal: opts.signal,
    credentials: 'same-origin',
  };
  if (body !== undefined) init.body = isForm ? (body as FormData) : JSON.stringify(body);
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    const e = err instanceof TypeError ? mapError(0, null) : mapError(null, null, (err as Error)?.message);
    throw new ApiError(0, describe(e));
  }
  let data: unknown = null;
  const text = await res.text().catch(() => '');
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!res.ok) {
    if ((res.status === 401 || (res.status === 403 && !opts.keepOn403)) && !opts.noAuthRedirect) onUnauthorized();
    throw errorOf(res.status, data);
  }
  return ((data as { payload?: T } | null)?.payload ?? null) as T;
}

/** The error for a failed answer: the mapped text, every message and the per-field messages. */
export function errorOf(status: number, data: unknown): ApiError {
  const m = (data as { message?: unknown } | null)?.message;
  const list = Array.isArray(m) ? m.filter((x): x is string => typeof x === 'string') : typeof m === 'string' && m ? [m] : [];
  return new ApiError(status, describe(mapError(status, data)), list, fieldsOf(data));
}

/** `payload.fields` of a validation answer, keeping only string messages. */
export function fieldsOf(data: unknown): Record<string, string> {
  const f = (data as { payload?: { fields?: unknown } } | null)?.payload?.fields;
  const out: Record<string, string> = {};
  if (!f || typeof f !== 'object' || Array.isArray(f)) return out;
  for (const [k, v] of Object.entries(f as Record<string, unknown>)) if (typeof v === 'string' && v.trim()) out[k] = v;
  return out;
}

/**
 * A multipart upload with progress (fetch cannot report upload progress). Same headers, envelope
 * and error rules as `request`.
 */
export function upload<T>(path: string, form: FormData, onProgress?: (fraction: number) => void, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    for (const [k, v] of Object.entries(requestHeaders(false))) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && onProgress) onProgress(e.total ? e.loaded / e.total : 0);
    };
    xhr.onerror = () => reject(new ApiError(0, describe(mapError(0, null))));
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    xhr.onload = () => {
      let data: unknown = null;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        data = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(1);
        resolve(((data as { payload?: T } | null)?.payload ?? null) as T);
        return;
      }
      if (xhr.status === 401 || xhr.status === 403) onUnauthorized();
      reject(errorOf(xhr.status, data));
    };
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}

export const get = <T>(path: string, opts?: RequestOptions) => request<T>('GET', path, undefined, opts);
export const post = <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, body ?? {}, opts);
export const put = <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PUT', path, body ?? {}, opts);
export const del = <T>(path: string, opts?: RequestOptions) => request<T>('DELETE', path, undefined, opts);
