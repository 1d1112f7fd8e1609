// Journey 17: the open-now switch keeps the businesses open at this moment (a round-the-clock
// pharmacy, not a shop that never opens), the cards say until when or from when, and the
// nearest order asks for the position once and shows distances.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, plumber, t } from './harness.mjs';

let w;

before(async () => {
  w = await World.start({ name: '17-open-now' });
  const a = await w.user('09121710001', 'شبانه‌روزی', 'password-aaaa');
  const b = await w.user('09121710002', 'هرگز', 'password-bbbb');
  const always = { boarding: true, closed: false, time: [] };
  const never = { boarding: false, closed: true, time: [] };
  const week = (d) => ({ saturday: d, sunday: d, monday: d, tuesday: d, wednesday: d, thursday: d, friday: d });
  await w.profile(a.token, plumber({ profile_name: 'لوله‌کشی همیشه باز', hours_of_work: week(always), open_on_holidays: true }));
  await w.profile(b.token, plumber({ profile_name: 'لوله‌کشی همیشه بسته', hours_of_work: week(never), location: { lat: 35.71, long: 51.41 } }));
  await w.searchable({ city_slag: 'tehran' }, (r) => r.count === 2, 'both plumbers');
});

after(async () => {
  await w?.stop();
});

for (const lang of ['fa', 'en']) {
  test(`open now and nearest (${lang})`, { timeout: JOURNEY_TIMEOUT }, async () => {
    await w.journey(`17-open-now-${lang}`, { lang, geolocation: { latitude: 35.7, longitude: 51.4 } }, async (page) => {
      await page.goto('/search/tehran');
      const cards = page.locator('.results-grid .pcard');
      await cards.nth(1).waitFor();
      assert.equal(await cards.count(), 2);
      await page.getByRole('switch', { name: t(lang, 'search.openNow') }).click();
      await page.waitForURL((u) => new URL(u).searchParams.get('open') === '1');
      await page.getByRole('heading', { name: 'لوله‌کشی همیشه باز' }).waitFor();
      await page.waitForFunction(() => document.querySelectorAll('.results-grid .pcard').length === 1);
      await page.locator('.results-grid').getByText(t(lang, 'hours.status.Boarding')).first().waitFor();

      await page.getByRole('switch', { name: t(lang, 'search.openNow') }).click();
      await page.waitForFunction(() => document.querySelectorAll('.results-grid .pcard').length === 2);
      await page.locator('#f-order').selectOption('nearest');
      await page.waitForURL((u) => new URL(u).searchParams.get('near') === '35.7000,51.4000');
      await page.locator('.pcard-distance').nth(1).waitFor();
      const first = await cards.first().locator('h2').textContent();
      assert.equal(first, 'لوله‌کشی همیشه باز', 'the nearer plumber comes first');
    });
  });
}
