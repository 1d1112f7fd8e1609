import { readToken } from './auth';
import type { CategoryNode } from './types';

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
 *
 * A search naming a category carries that category's node too (`category`, without its
 * children), so the page names it in its heading and shows its price-request bar in its first
 * draw instead of when the category tree arrives, which moved the results on a phone.
 */

export const FIRST_ANSWER_ID = 'first-answer';

interface Block {
  path: string;
  body: unknown;
  answer: { payload?: unknown };
  category?: unknown;
}

/** The answer taken: the API's payload, and the category node a search's block carries. */
export interface FirstAnswer<T> {
  payload: T;
  category?: CategoryNode;
}

/** A category node as the tree writes one, or undefined for anything else. */
function categoryOf(v: unknown): CategoryNode | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const c = v as Partial<CategoryNode>;
  return typeof c.id === 'number' && typeof c.slag === 'string' && typeof c.farsi_name === 'string' && typeof c.english_name === 'string'
    ? (c as CategoryNode)
    : undefined;
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
  return function take<T>(path: string, body: unknown): FirstAnswer<T> | undefined {
    if (used) return undefined;
    used = true;
    const block = parse(read());
    if (!block || signedIn() || block.path !== path || bodyKey(block.body) !== bodyKey(body)) return undefined;
    const taken: FirstAnswer<T> = { payload: (block.answer.payload ?? null) as T };
    const category = categoryOf(block.category);
    if (category) taken.category = category;
    return taken;
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
