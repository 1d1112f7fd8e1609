// axe-core on the main screens, Persian/light on a phone and English/dark on a desktop: no serious
// or critical violations, and none of the moderate ones fixed since (content outside landmarks,
// skipped heading levels). Every finding, minor ones too, is written to e2e-results/axe-*.json.
import { after, before, test } from 'node:test';
import { World, DESKTOP, JOURNEY_TIMEOUT, PHONE, axeCheck, plumber, signIn } from './harness.mjs';

/** Moderate findings that were fixed and must stay fixed. */
const FIXED = ['region', 'heading-order'];

let w;
let omid;
const owner = { phone: '09121110101', password: 'password-omid' };

before(async () => {
  w = await World.start({ name: '10-accessibility' });
  const o = await w.user(owner.phone, 'امید رضایی', owner.password);
  omid = await w.profile(o.token, plumber());
  await w.searchable({ city_slag: 'iran' }, (r) => r.count === 1, 'the profile');
});

after(async () => {
  await w?.stop();
});

for (const [lang, theme, viewport] of [
  ['fa', 'light', PHONE],
  ['en', 'dark', DESKTOP],
]) {
  test(`no serious or critical accessibility violations (${lang}, ${theme})`, { timeout: JOURNEY_TIMEOUT }, async () => {
    await w.journey(`10-accessibility-${lang}-${theme}`, { lang, theme, viewport, bypassCSP: true }, async (page) => {
      const failures = [];
      const check = async (what) => {
        await page.evaluate(() => document.fonts.ready);
        const found = await axeCheck(page, `${what}-${lang}-${theme}`).catch((e) => {
          failures.push(e.message);
          return [];
        });
        for (const v of found.filter((x) => FIXED.includes(x.id))) failures.push(`${what}: ${v.impact} ${v.id}: ${v.help}\n    ${v.nodes.join('\n    ')}`);
      };

      await page.goto('/');
      await page.locator('.top-grid .pcard').first().waitFor();
      await page.locator('.quick-grid a.quick-item').first().waitFor();
      await check('home');

      await page.goto('/search/iran');
      await page.locator('.results-grid .pcard').first().waitFor();
      await check('search');

      await page.goto(`/profile/${encodeURIComponent(omid.slug)}`);
      await page.getByRole('heading', { level: 1, name: omid.profile_name }).waitFor();
      await page.locator('.p-map').scrollIntoViewIfNeeded();
      await page.locator('.p-map .leaflet-tile-loaded').first().waitFor();
      await page.locator('#comments').waitFor();
      await check('profile');

      await page.goto('/register');
      await page.locator('#r-mobile').waitFor();
      await check('register');

      await page.goto('/login');
      await page.locator('#l-mobile').waitFor();
      await check('login');

      await signIn(page, lang, owner.phone, owner.password);
      await page.waitForURL((u) => u.pathname === '/dashboard');
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.getByText(omid.profile_name).first().waitFor();
      await check('desk');

      await page.goto('/dashboard/profiles/new');
      await page.locator('#pf-profile_name').waitFor();
      await check('desk-profile-form');

      if (failures.length) throw new Error(failures.join('\n\n'));
    });
  });
}
