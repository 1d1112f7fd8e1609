// Journey 28: the search filters people expect of a local search: the cards say the price
// from, a minimum score keeps the rated business, a price range keeps the businesses with a service priced within it (and refuses a range
// upside down before asking), the distance choices appear once the position is known and cut
// the results, and an empty city offers all of its province.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, plumber, t } from './harness.mjs';

let w;
let otherCity;

/** A price as the app groups it: Persian digits and «٬» in fa. */
function price(n, lang) {
  const s = String(n).replace(/\B(?=(\d{3})+(?!\d))/g, lang === 'fa' ? '٬' : ',');
  return lang === 'fa' ? s.replace(/[0-9]/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)]) : s;
}

before(async () => {
  w = await World.start({ name: '28-search-filters' });
  const a = await w.user('09122810001', 'امید', 'password-aaaa');
  const b = await w.user('09122810002', 'بهرام', 'password-bbbb');
  // The first keeps the usual services (350,000 and a free one), at the point the browser is at.
  await w.profile(a.token, plumber({ profile_name: 'لوله‌کشی نزدیک' }));
  // The second charges more and is 3 km away.
  const far = await w.profile(
    b.token,
    plumber({
      profile_name: 'لوله‌کشی دور',
      location: { lat: 35.727, long: 51.4 },
      services: [{ title: 'لوله‌کشی کامل ساختمان', price: 2_000_000, description: '' }],
    }),
  );
  await w.searchable({ city_slag: 'tehran' }, (r) => r.count === 2, 'both plumbers');
  // A customer gives the dearer one five stars; the near one has no score yet.
  const rater = await w.user('09122810003', 'سارا', 'password-cccc');
  await w.ok('POST', '/v1/comment/add', { category_list: [101], description: 'تمیز و سر وقت', score: 5, user_technical_id: far.id }, { token: rater.token });
  await w.searchable({ city_slag: 'tehran', min_score: 4 }, (r) => r.count === 1, 'the rated plumber');
  const cities = await w.ok('GET', '/v1/locations/cities/list/1');
  otherCity = (cities.items ?? cities).find((c) => c.slag !== 'tehran');
  assert.ok(otherCity, 'another city in Tehran province');
});

after(async () => {
  await w?.stop();
});

for (const lang of ['fa', 'en']) {
  test(`price range, distance, all of the province (${lang})`, { timeout: JOURNEY_TIMEOUT }, async () => {
    await w.journey(`28-search-filters-${lang}`, { lang, geolocation: { latitude: 35.7, longitude: 51.4 } }, async (page) => {
      await page.goto('/search/tehran/plumber');
      const cards = page.locator('.results-grid .pcard');
      await cards.nth(1).waitFor();
      const near = cards.filter({ hasText: 'لوله‌کشی نزدیک' });
      const far = cards.filter({ hasText: 'لوله‌کشی دور' });
      await near.getByText(t(lang, 'price.fromFree')).waitFor();
      await far.getByText(t(lang, 'price.from', { price: price(2_000_000, lang) })).waitFor();

      // Four stars or more: only the rated one; any score again: both.
      // (The chips are styled labels over a hidden radio: the visitor presses the label.)
      await page.locator('label.chip-radio').filter({ hasText: t(lang, 'search.atLeast', { score: lang === 'fa' ? '۴' : '4' }) }).click();
      await page.waitForURL((u) => new URL(u).searchParams.get('min_score') === '4');
      await page.waitForFunction(() => document.querySelectorAll('.results-grid .pcard').length === 1);
      await far.waitFor();
      await page.locator('label.chip-radio').filter({ hasText: t(lang, 'search.any') }).click();
      await page.waitForURL((u) => !new URL(u).searchParams.has('min_score'));
      await page.waitForFunction(() => document.querySelectorAll('.results-grid .pcard').length === 2);

      // From 1,000,000: only the dearer one.
      await page.locator('#f-price-min').fill('1000000');
      await page.getByRole('button', { name: t(lang, 'search.priceApply') }).click();
      await page.waitForURL((u) => new URL(u).searchParams.get('price_min') === '1000000');
      await page.waitForFunction(() => document.querySelectorAll('.results-grid .pcard').length === 1);
      await far.waitFor();

      // A range upside down is refused on the spot.
      await page.locator('#f-price-min').fill('3000000');
      await page.locator('#f-price-max').fill('1000000');
      await page.getByRole('alert').filter({ hasText: t(lang, 'search.priceOrder') }).waitFor();
      assert.equal(await page.getByRole('button', { name: t(lang, 'search.priceApply') }).isDisabled(), true);
      await page.getByRole('button', { name: t(lang, 'search.priceClear') }).click();
      await page.waitForURL((u) => !new URL(u).searchParams.has('price_min'));
      await page.waitForFunction(() => document.querySelectorAll('.results-grid .pcard').length === 2);

      // The distance choices come with the position; 1 km keeps the near one.
      await page.getByRole('button', { name: t(lang, 'search.useMyPosition') }).click();
      await page.waitForURL((u) => new URL(u).searchParams.get('near') === '35.7000,51.4000');
      await page.locator('.pcard-distance').nth(1).waitFor();
      await page.getByText(t(lang, 'search.withinKm', { n: lang === 'fa' ? '۱' : '1' }), { exact: true }).click();
      await page.waitForURL((u) => new URL(u).searchParams.get('radius') === '1000');
      await page.waitForFunction(() => document.querySelectorAll('.results-grid .pcard').length === 1);
      await near.waitFor();

      // Nothing in the other city: all of Tehran province is offered, and finds them.
      await page.goto(`/search/${otherCity.slag}/plumber?province=1`);
      const province = lang === 'fa' ? 'تهران' : 'Tehran';
      const all = page.getByRole('link', { name: t(lang, 'search.allOfProvince', { province }) });
      await all.click();
      await page.waitForURL((u) => new URL(u).pathname === '/search/iran/plumber' || new URL(u).pathname === '/en/search/iran/plumber');
      await page.waitForFunction(() => document.querySelectorAll('.results-grid .pcard').length === 2);
    });
  });
}
