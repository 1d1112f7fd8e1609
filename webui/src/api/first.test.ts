import { describe, expect, it } from 'vitest';
import { bodyKey, firstAnswerTaker } from './first';

const PATH = '/v1/user-technical/searchUser';
const block = (body: unknown, payload: unknown = { count: 1, profiles: [{ id: 7 }] }, path = PATH) =>
  JSON.stringify({ path, body, answer: { payload, message: '' } });

/** A taker over a block that is read (and removed from the page) at most once. */
function taker(text: string | null, signedIn = false) {
  let reads = 0;
  const take = firstAnswerTaker(() => (reads++ === 0 ? text : null), () => signedIn);
  return { take, reads: () => reads };
}

describe('the page’s first answer', () => {
  it('answers the matching request once, whatever the key order', () => {
    const { take } = taker(block({ take: 20, skip: 0, search_txt: 'لوله' }));
    expect(take(PATH, { search_txt: 'لوله', skip: 0, take: 20 })).toEqual({ payload: { count: 1, profiles: [{ id: 7 }] } });
    expect(take(PATH, { search_txt: 'لوله', skip: 0, take: 20 })).toBeUndefined();
  });

  it('is dropped by a request it does not answer: the next one asks the API', () => {
    const { take } = taker(block({ take: 20, skip: 0 }));
    expect(take(PATH, { take: 20, skip: 20 })).toBeUndefined();
    expect(take(PATH, { take: 20, skip: 0 })).toBeUndefined();
  });

  it('answers only its own path', () => {
    const { take } = taker(block({ slug: 'a' }, { id: 1 }, '/v1/user-technical/searchUserSlag'));
    expect(take(PATH, { slug: 'a' })).toBeUndefined();
  });

  it('is never taken by a signed-in user, who is answered differently', () => {
    const { take } = taker(block({ take: 20, skip: 0 }), true);
    expect(take(PATH, { take: 20, skip: 0 })).toBeUndefined();
  });

  it('asks the API when the page has no block or a broken one', () => {
    expect(taker(null).take(PATH, {})).toBeUndefined();
    expect(taker('{"path":').take(PATH, {})).toBeUndefined();
    expect(taker('{"path":"/x","body":{}}').take('/x', {})).toBeUndefined();
  });

  it('reads the page once', () => {
    const t = taker(block({}));
    t.take(PATH, { other: 1 });
    t.take(PATH, {});
    expect(t.reads()).toBe(1);
  });

  it('carries the category node a search block names', () => {
    const node = { id: 101, parent_id: 1, farsi_name: 'لوله‌کش', english_name: 'Plumber', slag: 'plumber', children: [] };
    const text = JSON.stringify({ path: PATH, body: { take: 20 }, answer: { payload: { count: 0, profiles: [] } }, category: node });
    expect(taker(text).take(PATH, { take: 20 })).toEqual({ payload: { count: 0, profiles: [] }, category: node });
    // Without one, or with something that is not a node, the answer comes alone.
    expect(taker(block({ take: 20 })).take(PATH, { take: 20 })).not.toHaveProperty('category');
    const odd = JSON.stringify({ path: PATH, body: {}, answer: { payload: null }, category: { id: '101', slag: 'plumber' } });
    expect(taker(odd).take(PATH, {})).toEqual({ payload: null });
    // Nor is it taken with an answer that does not match.
    expect(taker(text).take(PATH, { take: 40 })).toBeUndefined();
  });

  it('keys bodies by content, not key order', () => {
    expect(bodyKey({ b: 1, a: { d: 2, c: [3, { f: 1, e: 0 }] } })).toBe(bodyKey({ a: { c: [3, { e: 0, f: 1 }], d: 2 }, b: 1 }));
    expect(bodyKey({ a: 1 })).not.toBe(bodyKey({ a: '1' }));
  });
});
