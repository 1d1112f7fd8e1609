// Journey 9: the not-found page for an unknown route and for a profile slug that does not exist,
// with its way back home.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, PHONE, t } from './harness.mjs';

let w;

before(async () => {
  w = await World.start({ name: '09-not-found' });
});

after(async () => {
  await w?.stop();
});

test('an unknown route and a missing profile show "Page Not Found" (fa)', { timeout: JOURNEY_TIMEOUT }, async () => {
  const lang = 'fa';
  await w.journey('09-not-found-fa', { lang, viewport: PHONE }, async (page) => {
    await page.goto('/no-such-page/here');
    await page.getByRole('heading', { level: 1, name: t(lang, 'notFound.title') }).waitFor();
    await page.getByText(t(lang, 'notFound.text'), { exact: true }).waitFor();
    assert.equal(await page.title(), `${t(lang, 'notFound.title')} | ${t(lang, 'app.name')}`);

    // A profile that does not exist: the server answers 404 and the app shows the same page.
    const res = await page.goto(`/profile/${encodeURIComponent('لوله-کشی-که-نیست')}`);
    assert.equal(res.status(), 404, 'a missing profile is answered with 404');
    await page.getByRole('heading', { level: 1, name: t(lang, 'notFound.profileTitle') }).waitFor();
    await w.shot(page, '09-not-found-fa-profile');

    await page.getByRole('link', { name: t(lang, 'notFound.home'), exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByRole('heading', { level: 1, name: t(lang, 'home.slogan') }).waitFor();
  });
});
