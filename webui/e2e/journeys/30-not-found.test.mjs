// Journey 30: REVIEW #8. An address naming a city, a category or a profile that does not exist is
// answered 404 by the server and shows the app's own "not found" page with a way on: the city
// picker and all of Iran for a city (the category kept), every category of the city for a
// category, the city picker for a profile. In Persian and English.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, PHONE, exact, t } from './harness.mjs';

let w;

before(async () => {
  w = await World.start({ name: '30-not-found' });
});

after(async () => {
  await w?.stop();
});

for (const lang of ['fa', 'en']) {
  test(`unknown city, category and profile: a 404 page with a way on (${lang})`, { timeout: JOURNEY_TIMEOUT }, async () => {
    await w.journey(`30-not-found-${lang}`, { lang, viewport: PHONE }, async (page) => {
      // An unknown city with a real category: the city picker keeps the category.
      const res = await page.goto('/search/atlantis/plumber');
      assert.equal(res.status(), 404);
      await page.getByRole('heading', { level: 1, name: t(lang, 'notFound.cityTitle') }).waitFor();
      assert.equal(await page.title(), `${t(lang, 'notFound.cityTitle')} | ${t(lang, 'app.name')}`);
      assert.equal(await page.getByRole('button', { name: t(lang, 'common.tryAgain') }).count(), 0, 'no retry button that cannot help');
      const allIran = page.getByRole('link', { name: exact(t(lang, 'city.allIran')) });
      assert.match(await allIran.getAttribute('href'), /\/search\/iran\/plumber$/);
      await page.getByRole('button', { name: t(lang, 'notFound.pickCity') }).click();
      const provinces = page.getByRole('dialog', { name: t(lang, 'city.pickProvince') });
      await provinces.getByRole('button', { name: exact(lang === 'fa' ? 'تهران' : 'Tehran') }).click();
      const cities = page.getByRole('dialog', { name: t(lang, 'city.pickCity', { province: lang === 'fa' ? 'تهران' : 'Tehran' }) });
      await cities.locator('.picker-item').nth(1).click();
      await page.waitForURL((u) => u.pathname.endsWith('/search/tehran/plumber'));
      await page.locator('.search-page h1').waitFor();

      // An unknown category in a real city: every category of the city.
      assert.equal((await page.goto('/search/tehran/no-such-trade')).status(), 404);
      await page.getByRole('heading', { level: 1, name: t(lang, 'notFound.categoryTitle') }).waitFor();
      await page.getByRole('link', { name: t(lang, 'notFound.allCategories') }).click();
      await page.waitForURL((u) => u.pathname.endsWith('/search/tehran'));
      await page.locator('.search-page h1').waitFor();

      // The same when the app itself navigates there (no server page in between).
      await page.evaluate(() => {
        history.pushState({}, '', '/search/atlantis');
        dispatchEvent(new PopStateEvent('popstate'));
      });
      await page.getByRole('heading', { level: 1, name: t(lang, 'notFound.cityTitle') }).waitFor();

      // A profile that does not exist: the picker to find another.
      assert.equal((await page.goto('/profile/no-such-business')).status(), 404);
      await page.getByRole('heading', { level: 1, name: t(lang, 'notFound.profileTitle') }).waitFor();
      await page.getByRole('button', { name: t(lang, 'notFound.pickCity') }).waitFor();
    });
  });
}
