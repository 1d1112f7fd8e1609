import { readToken } from './auth';

/**
 * The answer to a page's first API request, written into the page by the server for a visitor
 * (api/embed_answer.go): a data block `{path, body, answer}` where `answer` is the envelope the
 * API would send to a POST of `body` to `path`. The app takes it instead of asking, which spares
 * a slow phone one round trip before the profile or the results show.
 *
 * It is taken at most once, by the first request the app makes as it starts (main.tsx), and only
 * when that request is exactly the one answered and nobody is signed in: an owner or an admin is
 * answered differently, so they always ask. Whatever the first taker asks, the answer is then
 * gone: a request after a navigation, a sign-in or a retry always reaches the API.
 */

export const FIRST_ANSWER_ID = 'first-answer';

interface Block {
  path: string;
  body: unknown;
  answer: { payload?: unknown };
}

/** The answer's body in a form that compares equal for equal JSON objects, whatever their key order. */
export function bodyKey(body: unknown): string {
  return JSON.stringify(body, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

function parse(text: string | null | undefined): Block | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as Partial<Block> | null;
    if (v && typeof v.path === 'string' && v.answer && typeof v.answer === 'object') return v as Block;
  } catch {
    /* a broken block: the app asks the API */
  }
  return null;
}

/**
 * A taker of one page's answer. `read` answers the block's text (and removes it from the page),
 * `signedIn` whether a session token would go with the request.
 */
export function firstAnswerTaker(read: () => string | null | undefined, signedIn: () => boolean) {
  let used = false;
  return function take<T>(path: string, body: unknown): { payload: T } | undefined {
    if (used) return undefined;
    used = true;
    const block = parse(read());
    if (!block || signedIn() || block.path !== path || bodyKey(block.body) !== bodyKey(body)) return undefined;
    return { payload: (block.answer.payload ?? null) as T };
  };
}

function readBlock(): string | null {
  if (typeof document === 'undefined') return null;
  const el = document.getElementById(FIRST_ANSWER_ID);
  if (!el) return null;
  el.remove();
  return el.textContent;
}

/**
 * The payload the page holds for POST `path` with `body`, or undefined when the API must be asked.
 * The first call takes the page's answer, matching or not; later calls always answer undefined.
 */
export const takeFirstAnswer = firstAnswerTaker(readBlock, () => !!readToken());
