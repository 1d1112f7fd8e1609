import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLang } from './index';

// The inline script of index.html sets <html lang dir> before the first paint, and the app then
// starts in startLang's language: the two must agree, or the page flips when the app starts.
const page = readFileSync(join(__dirname, '../../index.html'), 'utf8');
const boot = /<script>([\s\S]*?)<\/script>/.exec(page)?.[1] ?? '';

function runBoot(served: string, stored: string | null, pathname = '/') {
  const attrs: Record<string, string> = { lang: served };
  const root = { getAttribute: (k: string) => attrs[k] ?? null, setAttribute: (k: string, v: string) => (attrs[k] = v) };
  const storage = { getItem: (k: string) => (k === 'lang' ? stored : null) };
  new Function('document', 'localStorage', 'window', 'location', boot)({ documentElement: root }, storage, {}, { pathname });
  return attrs;
}

describe('the boot script of index.html', () => {
  it('is there', () => expect(boot).toContain("localStorage.getItem('lang')"));
  for (const served of ['fa', 'en']) {
    for (const stored of [null, 'fa', 'en', 'junk']) {
      it(`served ${served}, stored ${stored}: the same language as the app`, () => {
        const want = startLang(stored, served);
        const attrs = runBoot(served, stored);
        expect(attrs.lang).toBe(want);
        expect(attrs.dir).toBe(want === 'en' ? 'ltr' : 'rtl');
      });
      it(`served ${served}, stored ${stored}, an English address: English`, () => {
        for (const path of ['/en', '/en/profile/x']) {
          const attrs = runBoot(served, stored, path);
          expect(attrs.lang).toBe('en');
          expect(attrs.dir).toBe('ltr');
        }
        expect(runBoot(served, stored, '/enamel').lang).toBe(startLang(stored, served));
      });
    }
  }
});
