// Journey 26: English pages have their own addresses (/en/…, api/web.go). A Persian-speaking browser
// that opens an English address gets the page in English, left to right, with the profile's content
// in the HTML before any script; links in the app stay under /en/; the Persian address stays Persian.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, plumber } from './harness.mjs';

let w;
let omid;

before(async () => {
  w = await World.start({ name: '26-english-addresses' });
  const owner = await w.user('09122610001', 'امید رضایی', 'password-omid');
  omid = await w.profile(owner.token, plumber());
  await w.searchable({ city_slag: 'tehran', category_slag: 'plumber' }, (r) => r.count === 1, 'the plumber');
});

after(async () => {
  await w?.stop();
});

test('an English address is English, and its links stay English', { timeout: JOURNEY_TIMEOUT }, async () => {
  await w.journey('26-english-addresses', { lang: 'fa' }, async (page) => {
    const slug = encodeURIComponent(omid.slug);
    const html = await (await fetch(`${w.base}/en/profile/${slug}`, { headers: { 'Accept-Language': 'fa' } })).text();
    assert.match(html, /<html lang="en" dir="ltr">/);
    assert.match(html, /<div id="app"><header class="site-header">.*<main id="main" class="ssr">.*<h1 dir="auto">لوله‌کشی امید<\/h1>/, 'the content is in the HTML');
    assert.match(html, /hreflang="fa"/);

    await page.goto(`/en/search/tehran/plumber`);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    assert.equal(await page.evaluate(() => document.documentElement.dir), 'ltr');
    const card = page.locator('.results-grid .pcard').getByRole('heading', { name: 'لوله‌کشی امید' });
    await card.waitFor();
    await card.click();
    await page.waitForURL((u) => u.pathname === `/en/profile/${slug}` || u.pathname === `/en/profile/${omid.slug}`);
    await page.getByRole('heading', { level: 1, name: 'لوله‌کشی امید' }).waitFor();
    assert.equal(await page.locator('main.ssr').count(), 0, 'the app took the root over');

    await page.goto(`/profile/${slug}`);
    await page.getByRole('heading', { level: 1, name: 'لوله‌کشی امید' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'fa');
  });
});
