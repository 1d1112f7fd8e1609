// Journey 25: owners' statistics. A visitor opens a plumber's page, opens and closes the
// request-a-price form (no quote counted), and taps Call and a navigation app; a search shows the page to another visitor; the owner's statistics tab then shows the
// view, the appearance and the taps (in fa), the owner's own visit adds nothing, and the tab
// works in en on a phone too.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, PHONE, DESKTOP, digits, plumber, signIn, t } from './harness.mjs';

let w;
let omid;
let owner;
const who = { phone: '09121110251', name: 'امید آماری', password: 'password-stats' };

before(async () => {
  w = await World.start({ name: '25-statistics' });
  owner = await w.user(who.phone, who.name, who.password);
  omid = await w.profile(owner.token, plumber());
});

after(async () => {
  await w?.stop();
});

/** The total the statistics tab shows for a kind. */
async function total(page, kind) {
  return (await page.locator(`.stats-totals li[data-kind="${kind}"] .stats-total`).textContent())?.trim();
}

test('a visitor views and calls; the owner sees it in the statistics tab (fa, en)', { timeout: JOURNEY_TIMEOUT * 2 }, async () => {
  const path = `/profile/${encodeURIComponent(omid.slug)}`;
  await w.journey('25-statistics-visitor-fa', { lang: 'fa', viewport: PHONE }, async (page) => {
    // A tel: link would leave the page for the phone: the journey stays, the beacon goes.
    await page.goto(path);
    // Opening the request-a-price form and closing it asks nobody: no quote is counted (one
    // is when a request is sent). Done first, so any beacon would be counted with the call's.
    await page.getByRole('button', { name: t('fa', 'lead.action'), exact: true }).click();
    const dialog = page.getByRole('dialog', { name: t('fa', 'lead.title') });
    await dialog.getByRole('button', { name: t('fa', 'common.cancel'), exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    const sent = page.waitForRequest((r) => r.url().endsWith('/v1/stats/event') && r.method() === 'POST');
    await page.evaluate(() => {
      for (const a of document.querySelectorAll('a[href^="tel:"]')) a.addEventListener('click', (e) => e.preventDefault());
    });
    await page.getByRole('link', { name: t('fa', 'profile.call'), exact: true }).click();
    // (A beacon's body is not shown to the journey: the owner's tab below proves what it said.)
    await sent;
    // A navigation app, opened in a new tab the journey does not follow.
    const sentRoute = page.waitForRequest((r) => r.url().endsWith('/v1/stats/event') && r.method() === 'POST');
    await page.evaluate(() => {
      for (const a of document.querySelectorAll('a.route-link')) a.addEventListener('click', (e) => e.preventDefault());
    });
    await page.locator('a.route-waze').click();
    await sentRoute;
  });

  // The owner: the Desk lists the page with its statistics; the owner's own visit is not counted.
  await w.journey('25-statistics-owner-fa', { lang: 'fa', viewport: DESKTOP }, async (page) => {
    await signIn(page, 'fa', who.phone, who.password, { next: path });
    await page.getByRole('link', { name: t('fa', 'profile.call'), exact: true }).waitFor();
    await page.goto('/dashboard');
    await page.getByRole('link', { name: t('fa', 'deskStats.open'), exact: true }).click();
    await page.waitForURL((u) => u.pathname === `/dashboard/profiles/${omid.id}/stats`);
    await page.getByRole('heading', { name: t('fa', 'deskStats.title'), exact: true }).waitFor();
    await page.locator('.stats-totals').waitFor();
    assert.equal(await total(page, 'view'), digits(1, 'fa'));
    assert.equal(await total(page, 'call'), digits(1, 'fa'));
    assert.equal(await total(page, 'route'), digits(1, 'fa'));
    assert.equal(await total(page, 'sms'), digits(0, 'fa'));
    assert.equal(await total(page, 'quote'), digits(0, 'fa'), 'opening the request form is not a request');
    await page.locator('.stats-details').getByText(t('fa', 'deskStats.detail.waze'), { exact: true }).waitFor();
    // Three charts, each an image with its summary.
    assert.equal(await page.locator('svg.bar-chart[role="img"]').count(), 3);
    // The last 7 days: the same taps, against an empty week before.
    await page.getByRole('button', { name: t('fa', 'deskStats.lastDays', { n: digits(7, 'fa') }), exact: true }).click();
    await page.waitForFunction(() => document.querySelectorAll('svg.bar-chart')[0]?.querySelectorAll('rect').length === 7);
    assert.equal(await total(page, 'call'), digits(1, 'fa'));
  });

  await w.journey('25-statistics-owner-en', { lang: 'en', viewport: PHONE }, async (page) => {
    await signIn(page, 'en', who.phone, who.password, { next: `/dashboard/profiles/${omid.id}/stats` });
    await page.getByRole('heading', { name: t('en', 'deskStats.title'), exact: true }).waitFor();
    await page.locator('.stats-totals').waitFor();
    assert.equal(await total(page, 'view'), '1');
    assert.equal(await total(page, 'call'), '1');
  });
  // The admins' overview adds up the whole site.
  await w.journey('25-statistics-admin-fa', { lang: 'fa', viewport: DESKTOP }, async (page) => {
    await signIn(page, 'fa', w.admin.phone, w.admin.password, { next: '/dashboard/admin' });
    await page.getByRole('heading', { name: t('fa', 'deskStats.site'), exact: true }).waitFor();
    await page.locator('.site-stats .stats-totals').waitFor();
    assert.equal(await page.locator('.site-stats li[data-kind="call"] .stats-total').textContent(), digits(1, 'fa'));
  });
  // Nobody else reads them.
  const other = await w.user('09121110252', 'دیگری', 'password-other');
  const a = await w.api('GET', `/v1/user-technical/${omid.id}/stats`, undefined, { token: other.token });
  assert.equal(a.status, 404);
});
