// Journey 14: a visitor's first visit to a search page and to a profile page makes no API request for
// what the page already carries (api/embed_answer.go writes the answer into the HTML; the app takes it
// through src/lib/firstRequest.ts and src/api/first.ts). The next search, after a change of filter,
// does reach the API: the answer is used once, and the check below sees requests when there are some.
// A search naming a category carries that category too: on a phone, which shows no filters, the
// page names it and offers the price-request bar from its first draw without asking for the tree.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, PHONE, plumber, t } from './harness.mjs';

const SEARCH = '/v1/user-technical/searchUser';
const SLUG = '/v1/user-technical/searchUserSlag';
const TREE = '/v1/work_category/getTreeById';

let w;
let omid;

before(async () => {
  w = await World.start({ name: '14-first-answer' });
  const owner = await w.user('09121410001', 'امید رضایی', 'password-omid');
  omid = await w.profile(owner.token, plumber());
  await w.searchable({ city_slag: 'tehran', category_slag: 'plumber' }, (r) => r.count === 1, 'the plumber');
});

after(async () => {
  await w?.stop();
});

/** The API paths the page asks, as they happen. */
function apiCalls(page) {
  const calls = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/v1/')) calls.push(u.pathname);
  });
  return calls;
}

for (const lang of ['fa', 'en']) {
  test(`a first visit takes the page's answer instead of asking (${lang})`, { timeout: JOURNEY_TIMEOUT }, async () => {
    await w.journey(`14-first-answer-search-${lang}`, { lang }, async (page) => {
      const calls = apiCalls(page);
      const html = await (await fetch(`${w.base}/search/tehran/plumber`)).text();
      assert.match(html, /<script type="application\/json" id="first-answer">/, 'the search page carries its answer');

      await page.goto('/search/tehran/plumber');
      await page.locator('.results-grid .pcard').getByRole('heading', { name: 'لوله‌کشی امید' }).waitFor();
      await page.locator('.result-count').filter({ hasText: /\S/ }).waitFor();
      assert.deepEqual(
        calls.filter((p) => p === SEARCH),
        [],
        `the results came from the page, yet the app asked: ${calls.join(', ')}`,
      );

      // Another order, chosen in the page, is another search: this one is asked, once.
      await page.locator('#f-order').selectOption('best');
      await page.waitForURL((u) => u.searchParams.get('order') === 'best');
      await page.locator('.results-grid .pcard').first().waitFor();
      await waitUntil(() => calls.filter((p) => p === SEARCH).length === 1, `one search asked for the new filters: ${calls.join(', ')}`);
    });

    await w.journey(`14-first-answer-category-${lang}`, { lang, viewport: PHONE }, async (page) => {
      const calls = apiCalls(page);
      await page.goto('/search/tehran/plumber');
      await page.locator('.results-grid .pcard .save-btn').first().waitFor();
      const place = lang === 'fa' ? 'تهران' : 'Tehran';
      const category = lang === 'fa' ? 'لوله‌کش' : 'Plumber';
      assert.equal(await page.locator('.search-head h1').textContent(), t(lang, 'search.titleCategory', { category, place }));
      assert.equal(await page.locator('.lead-bar > span').textContent(), t(lang, 'lead.askMany'));
      await page.waitForLoadState('networkidle');
      assert.deepEqual(
        calls.filter((p) => p === SEARCH || p === TREE),
        [],
        `the results and the category came from the page, yet the app asked: ${calls.join(', ')}`,
      );
    });

    await w.journey(`14-first-answer-profile-${lang}`, { lang }, async (page) => {
      const calls = apiCalls(page);
      await page.goto(`/profile/${encodeURIComponent(omid.slug)}`);
      await page.getByRole('heading', { level: 1, name: 'لوله‌کشی امید' }).waitFor();
      await page.getByRole('heading', { name: t(lang, 'profile.services') }).waitFor();
      assert.deepEqual(
        calls.filter((p) => p === SLUG),
        [],
        `the profile came from the page, yet the app asked: ${calls.join(', ')}`,
      );
    });
  });
}

async function waitUntil(ok, what) {
  const until = Date.now() + 10_000;
  while (!ok()) {
    if (Date.now() > until) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
