// Journey 13: the city picker over Iran's full list of cities. A visitor opens it from home, picks
// a province and sees its capital first, then the other cities in the alphabet of the page's
// language, finds a renamed city by its former name, and searches the whole province. In Persian
// and in English.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, exact, t } from './harness.mjs';

let w;
let fars;
let sistan;

before(async () => {
  w = await World.start({ name: '13-city-picker' });
  const provinces = await w.ok('GET', '/v1/locations/province/list');
  fars = provinces.find((p) => p.english_name === 'Fars');
  sistan = provinces.find((p) => p.english_name === 'Sistan and Baluchestan');
});

after(async () => {
  await w?.stop();
});

for (const lang of ['fa', 'en']) {
  test(`the city picker lists a province's capital first, then A to Z (${lang})`, { timeout: JOURNEY_TIMEOUT }, async () => {
    const name = (x) => (lang === 'fa' ? x.farsi_name : x.english_name);
    await w.journey(`13-city-picker-${lang}`, { lang }, async (page) => {
      await page.goto('/');
      await page.getByRole('heading', { level: 1, name: t(lang, 'home.slogan') }).waitFor();
      await page.getByRole('button', { name: new RegExp(`^${t(lang, 'city.choose')}`) }).click();
      const provincePicker = page.getByRole('dialog', { name: t(lang, 'city.pickProvince') });
      await provincePicker.waitFor();
      await provincePicker.getByRole('button', { name: exact(name(fars)) }).click();
      const cityPicker = page.getByRole('dialog', { name: t(lang, 'city.pickCity', { province: name(fars) }) });
      await cityPicker.waitFor();

      // The whole province first, then Shiraz (the capital), then the rest in order. The dialog
      // opens before its list has loaded: wait for its last item (the whole province + every city).
      const cities = await w.ok('GET', `/v1/locations/cities/list/${fars.id}`);
      await cityPicker.locator('.picker-item').nth(cities.length).waitFor();
      const labels = await cityPicker.locator('.picker-item').allInnerTexts();
      assert.ok(cities.length > 80, `Fars has ${cities.length} cities`);
      assert.equal(labels[0].trim(), t(lang, 'city.allOfProvince', { province: name(fars) }));
      assert.ok(labels[1].startsWith(lang === 'fa' ? 'شیراز' : 'Shiraz'), `first city: ${labels[1]}`);
      assert.ok(labels[1].includes(t(lang, 'city.capital')), 'the capital is marked');
      const rest = labels.slice(2).map((s) => s.trim());
      assert.equal(rest.length, cities.length - 1);
      const collator = new Intl.Collator(lang === 'fa' ? 'fa' : 'en');
      const sorted = [...rest].sort(collator.compare);
      assert.deepEqual(rest, sorted, 'the cities after the capital are in alphabetical order');
      if (lang === 'fa') {
        // Persian order, not code points: پ comes before ت (U+067E sorts after U+062A).
        const pi = rest.findIndex((s) => s.startsWith('پ'));
        const ti = rest.findIndex((s) => s.startsWith('ت'));
        assert.ok(pi >= 0 && ti >= 0 && pi < ti, `پ at ${pi}, ت at ${ti}`);
      }

      // The whole province as a choice: the home search then names it and searches it.
      await cityPicker.getByRole('button', { name: exact(t(lang, 'city.allOfProvince', { province: name(fars) })) }).click();
      await cityPicker.waitFor({ state: 'hidden' });
      const place = page.locator('.hero-city span');
      assert.equal((await place.textContent()).trim(), t(lang, 'city.allOfProvince', { province: name(fars) }));
      await page.getByRole('button', { name: t(lang, 'home.searchButton') }).click();
      await page.waitForURL((u) => u.pathname.startsWith('/search/iran') && u.searchParams.get('province') === String(fars.id));

      // A renamed city is found by its former name: Zaboli is now Mehrestan.
      await page.goto('/');
      await page.getByRole('button', { name: new RegExp(`^${t(lang, 'city.choose')}`) }).click();
      await provincePicker.waitFor();
      await provincePicker.getByRole('button', { name: exact(name(sistan)) }).click();
      const sistanPicker = page.getByRole('dialog', { name: t(lang, 'city.pickCity', { province: name(sistan) }) });
      await sistanPicker.locator('#picker-filter').fill('زابلی');
      await sistanPicker.getByRole('button', { name: exact(lang === 'fa' ? 'مهرستان' : 'Mehrestan') }).click();
      await sistanPicker.waitFor({ state: 'hidden' });
      assert.equal((await place.textContent()).trim(), lang === 'fa' ? 'مهرستان' : 'Mehrestan');
    });
  });
}
