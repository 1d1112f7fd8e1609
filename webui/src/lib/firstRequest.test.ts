import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstRequestOf } from './firstRequest';

// The cases the server's test reads too (api/embed_answer_urls_test.go).
const fixture = JSON.parse(readFileSync(join(__dirname, '../../../api/testdata/first_answer_urls.json'), 'utf8')) as {
  cases: { url: string; request: { page: string; body: unknown } | null; answered: boolean }[];
};

describe('the first request of a page, as the server reads it', () => {
  it('has cases', () => {
    expect(fixture.cases.length).toBeGreaterThan(20);
  });
  for (const c of fixture.cases) {
    it(c.url, () => {
      const [path, query = ''] = c.url.split(/\?(.*)/s);
      const got = firstRequestOf(path, query ? `?${query}` : '');
      expect(got && { page: got.page, body: got.body }).toEqual(c.request);
    });
  }
});
