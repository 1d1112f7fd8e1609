import { afterEach, describe, expect, it, vi } from 'vitest';
import { contactTap, sendTap } from './beacon';

describe('taps', () => {
  afterEach(() => vi.unstubAllGlobals());
  it('names contacts as the server counts them', () => {
    expect(contactTap('mobile', 'mobile')).toEqual({ kind: 'call', detail: '' });
    expect(contactTap('site', 'Site')).toEqual({ kind: 'website', detail: '' });
    expect(contactTap('instagram', 'Instagram')).toEqual({ kind: 'social', detail: 'Instagram' });
  });
  it('sends a JSON beacon', async () => {
    const sent: { url: string; body: string; type: string }[] = [];
    vi.stubGlobal('navigator', {
      sendBeacon: (url: string, b: Blob) => {
        void b.text().then((body) => sent.push({ url, body, type: b.type }));
        return true;
      },
    });
    sendTap(7, 'route', 'waze');
    await new Promise((r) => setTimeout(r, 10));
    expect(sent).toEqual([{ url: '/v1/stats/event', body: '{"profile_id":7,"kind":"route","detail":"waze"}', type: 'application/json' }]);
  });
});
