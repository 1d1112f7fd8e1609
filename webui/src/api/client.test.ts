import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, firstMessage, mapError, request, setUnauthorizedHandler } from './client';
import { i18n } from '../i18n';

/** The error a request failed with; a request that succeeds fails the test. */
async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    return e as ApiError;
  }
  throw new Error('the request was expected to fail');
}

describe('mapError (SPEC §8)', () => {
  it('no response → check internet', () => {
    expect(mapError(0, null)).toEqual({ key: 'errors.checkInternet' });
    expect(mapError(null, null)).toEqual({ key: 'errors.checkInternet' });
  });
  it('another failure without a response → raw message', () => {
    expect(mapError(null, null, 'Aborted by user')).toEqual({ text: 'Aborted by user' });
  });
  it('500 → server error, whatever the body says', () => {
    expect(mapError(500, { message: 'internal detail' })).toEqual({ key: 'errors.server' });
  });
  it('other statuses → first server message', () => {
    expect(mapError(400, { message: ['Enter name', 'Enter password'] })).toEqual({ text: 'Enter name' });
    expect(mapError(404, { message: 'Item not found' })).toEqual({ text: 'Item not found' });
    expect(mapError(409, { payload: null, message: 'You have already posted a comment' })).toEqual({
      text: 'You have already posted a comment',
    });
  });
  it('other statuses without a message → generic', () => {
    expect(mapError(404, null)).toEqual({ key: 'errors.generic' });
    expect(mapError(400, { message: [] })).toEqual({ key: 'errors.generic' });
    expect(mapError(429, { message: '' })).toEqual({ key: 'errors.generic' });
  });
  it('firstMessage skips empty items', () => {
    expect(firstMessage({ message: ['', 'b'] })).toBe('b');
    expect(firstMessage('x')).toBeUndefined();
  });
});

function fakeFetch(status: number, body: unknown) {
  return vi.fn(async () => new Response(body === undefined ? '' : JSON.stringify(body), { status }));
}

describe('request', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    i18n.changeLanguage('fa');
  });

  it('unwraps the payload and sends the locale', async () => {
    const f = fakeFetch(200, { payload: { a: 1 }, message: null });
    vi.stubGlobal('fetch', f);
    await i18n.changeLanguage('en');
    expect(await request('GET', '/v1/x')).toEqual({ a: 1 });
    const init = (f.mock.calls[0] as unknown[])[1] as RequestInit;
    expect((init.headers as Record<string, string>)['Accept-Language']).toBe('en');
  });

  it('localizes the network message', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await i18n.changeLanguage('en');
    const e = await failure(request('GET', '/v1/x'));
    expect(e).toBeInstanceOf(ApiError);
    expect(e.status).toBe(0);
    expect(e.offline).toBe(true);
    expect(e.message).toBe('Please check your internet');
  });

  it('500 → "Server error try again" in fa and en', async () => {
    vi.stubGlobal('fetch', fakeFetch(500, { payload: null, message: 'boom' }));
    await i18n.changeLanguage('en');
    expect((await failure(request('GET', '/v1/x'))).message).toBe('Server error try again');
    await i18n.changeLanguage('fa');
    expect((await failure(request('GET', '/v1/x'))).message).toBe('خطای سرور، دوباره تلاش کنید');
  });

  it('keeps every server message for forms', async () => {
    vi.stubGlobal('fetch', fakeFetch(400, { payload: null, message: ['Enter name', 'Enter correct mobile number'] }));
    const e = await failure(request('POST', '/v1/x', {}));
    expect(e.status).toBe(400);
    expect(e.message).toBe('Enter name');
    expect(e.messages).toEqual(['Enter name', 'Enter correct mobile number']);
  });

  it('401 and 403 call the sign-out handler, unless told not to', async () => {
    const h = vi.fn();
    setUnauthorizedHandler(h);
    vi.stubGlobal('fetch', fakeFetch(401, { payload: null, message: 'Unauthorized' }));
    await request('GET', '/v1/user').catch(() => undefined);
    vi.stubGlobal('fetch', fakeFetch(403, { payload: null, message: 'Forbidden' }));
    await request('GET', '/v1/user').catch(() => undefined);
    expect(h).toHaveBeenCalledTimes(2);
    await request('POST', '/v1/user/login', {}, { noAuthRedirect: true }).catch(() => undefined);
    expect(h).toHaveBeenCalledTimes(2);
    vi.stubGlobal('fetch', fakeFetch(404, { payload: null, message: 'Item not found' }));
    await request('GET', '/v1/x').catch(() => undefined);
    expect(h).toHaveBeenCalledTimes(2);
  });
});
