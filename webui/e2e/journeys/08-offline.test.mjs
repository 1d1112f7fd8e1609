// Journey 8: offline. After a visitor has seen a profile, the browser loses the network: the
// profile still opens (the service worker serves the app, the saved copy fills it) and a page
// never visited shows the offline page with what is saved.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, PHONE, plumber, t } from './harness.mjs';

let w;
let omid;
let other;

before(async () => {
  w = await World.start({ name: '08-offline' });
  const owner = await w.user('09121110081', 'امید', 'password-omid');
  omid = await w.profile(owner.token, plumber());
  other = await w.profile(owner.token, plumber({ profile_name: 'برق ساختمان امید', category_list: [102] }));
});

after(async () => {
  await w?.stop();
});

test('a viewed profile opens offline, an unvisited one shows the offline page (fa)', { timeout: JOURNEY_TIMEOUT }, async () => {
  const lang = 'fa';
  await w.journey('08-offline-fa', { lang, viewport: PHONE, serviceWorkers: true }, async (page, ctx) => {
    await page.goto('/');
    // The service worker installs (precaching the app) and takes control of the page.
    await page.waitForFunction(() => !!navigator.serviceWorker.controller).catch(async (e) => {
      const reg = await page.evaluate(async () => {
        const r = await navigator.serviceWorker.getRegistration();
        return r ? { installing: r.installing?.state ?? null, waiting: r.waiting?.state ?? null, active: r.active?.state ?? null } : null;
      });
      throw new Error(`the service worker never took control of the page (registration: ${JSON.stringify(reg)})\n${e.message}`);
    });

    await page.goto(`/profile/${encodeURIComponent(omid.slug)}`);
    await page.getByRole('heading', { level: 1, name: omid.profile_name }).waitFor();
    await page.locator('section[aria-labelledby="services-title"]').waitFor();

    await ctx.setOffline(true);
    const reachable = await page.evaluate(() =>
      fetch('/healthz', { cache: 'no-store' }).then(
        () => true,
        () => false,
      ),
    );
    assert.equal(reachable, false, 'the browser is offline');

    // The visited profile, loaded anew while offline.
    const res = await page.goto(`/profile/${encodeURIComponent(omid.slug)}`);
    assert.ok(res?.fromServiceWorker(), 'the page came from the service worker');
    await page.getByRole('heading', { level: 1, name: omid.profile_name }).waitFor();
    await page.getByText(t(lang, 'offline.savedCopy'), { exact: true }).waitFor();
    const services = page.locator('section[aria-labelledby="services-title"] li.service');
    assert.equal(await services.count(), 2, 'the saved copy has the services');
    await page.locator('section[aria-labelledby="hours-title"]').waitFor();
    await w.shot(page, '08-offline-fa-profile');

    // A profile never opened: the offline page, offering the saved one.
    await page.goto(`/profile/${encodeURIComponent(other.slug)}`);
    await page.getByRole('heading', { level: 1, name: t(lang, 'offline.title') }).waitFor();
    await page.getByText(t(lang, 'offline.text'), { exact: true }).waitFor();
    await page.getByRole('heading', { name: t(lang, 'offline.profiles') }).waitFor();
    const saved = page.locator('.offline-grid .pcard');
    assert.equal(await saved.count(), 1);
    await saved.getByRole('heading', { name: omid.profile_name }).waitFor();

    await ctx.setOffline(false);
  });
});

test('offline before the app is on the device, a page whose code never came shows the offline page (fa)', { timeout: JOURNEY_TIMEOUT }, async () => {
  const lang = 'fa';
  // No service worker: the first visit on a browser that has none, or before it installed. The
  // profile page's code is fetched only when a profile is opened; offline it cannot be.
  await w.journey('08-offline-no-worker-fa', { lang, viewport: PHONE }, async (page, ctx) => {
    await page.goto('/');
    const link = page.locator(`a[href="/profile/${encodeURIComponent(omid.slug)}"]`).first();
    await link.waitFor();
    await ctx.setOffline(true);
    await link.click();
    await page.getByRole('heading', { level: 1, name: t(lang, 'offline.title') }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/profile/${encodeURIComponent(omid.slug)}`, 'the address is the one tapped, not reloaded');
    await ctx.setOffline(false);
    // Online again, "try again" loads the page.
    await page.getByRole('button', { name: t(lang, 'common.tryAgain'), exact: true }).click();
    await page.getByRole('heading', { level: 1, name: omid.profile_name }).waitFor();
  });
});
