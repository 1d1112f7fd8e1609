// Journey 37: claiming a listing. An admin lists a business; a signed-out visitor is asked to sign
// in first; a signed-in user proves the listed number with the SMS code and claims it; the admin
// accepts the claim in the Desk's queue; the listing moves to the claimant's Desk and stops
// offering itself to be claimed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, PHONE, axeCheck, digits, exact, plumber, signIn, t, toast } from './harness.mjs';

let w;
const claimant = { phone: '09121110371', name: 'کیوان', password: 'password-keyvan' };
const business = '09351110371';
let listing;
let claimantId;

before(async () => {
  w = await World.start({ name: '37-claim' });
  claimantId = (await w.user(claimant.phone, claimant.name, claimant.password)).id;
  listing = await w.ok('POST', '/v1/admin/user-technical/createListing', plumber({ profile_name: 'تعمیرگاه کیوان', social_network: [{ type: 'mobile', link: business }] }), {
    token: await w.adminToken(),
  });
  assert.equal(listing.claimable, true);
});

after(async () => {
  await w?.stop();
});

test('a user proves the listed number and claims the business; the admin accepts; it moves (fa claimant, en admin)', { timeout: JOURNEY_TIMEOUT * 2 }, async () => {
  const path = `/profile/${encodeURIComponent(listing.slug)}`;
  await w.journey('37-claim-signed-out-fa', { lang: 'fa', viewport: PHONE, bypassCSP: true }, async (page) => {
    const lang = 'fa';
    await page.goto(path);
    await page.getByText(t(lang, 'claim.question'), { exact: true }).waitFor();
    await axeCheck(page, '37-claimable-fa');
    await page.getByRole('button', { name: t(lang, 'claim.action'), exact: true }).click();
    const dialog = page.getByRole('dialog', { name: t(lang, 'claim.title', { name: listing.profile_name }) });
    await dialog.getByText(t(lang, 'claim.signIn'), { exact: true }).waitFor();
    await dialog.getByRole('link', { name: t(lang, 'nav.login') }).waitFor();
  });

  await w.journey('37-claim-claimant-fa', { lang: 'fa', viewport: PHONE }, async (page) => {
    const lang = 'fa';
    await signIn(page, lang, claimant.phone, claimant.password, { next: path });
    await page.getByText(t(lang, 'claim.question'), { exact: true }).waitFor();
    await page.getByRole('button', { name: t(lang, 'claim.action'), exact: true }).click();
    const dialog = page.getByRole('dialog', { name: t(lang, 'claim.title', { name: listing.profile_name }) });
    const before = w.smsCount();
    await dialog.getByRole('button', { name: t(lang, 'claim.sendCode'), exact: true }).click();
    // The claimant sees the number masked, in the language's digits; the code reached the business's phone.
    await dialog.getByText(digits('0935***0371', lang)).waitFor();
    assert.equal(await dialog.getByText(business).count(), 0);
    assert.equal(await dialog.getByText(digits(business, lang)).count(), 0);
    const code = await w.smsCode(business, { after: before });
    await dialog.getByLabel(t(lang, 'claim.code')).fill(code);
    await dialog.getByLabel(t(lang, 'claim.note')).fill('من صاحب این تعمیرگاه هستم');
    await dialog.getByRole('button', { name: t(lang, 'claim.submit'), exact: true }).click();
    await dialog.getByText(t(lang, 'claim.sent'), { exact: true }).waitFor();
  });

  await w.journey('37-claim-admin-en', { lang: 'en' }, async (page) => {
    const lang = 'en';
    await signIn(page, lang, w.admin.phone, w.admin.password, { next: '/dashboard/admin/claims' });
    const card = page.locator('.item-card').filter({ hasText: listing.profile_name });
    await card.getByText(claimant.phone).waitFor();
    await card.getByText(business).waitFor();
    await card.getByRole('button', { name: t(lang, 'deskAdmin.do.Accepted'), exact: true }).click();
    const dialog = page.getByRole('dialog', { name: t(lang, 'deskClaims.move.Accepted') });
    await dialog.getByLabel(t(lang, 'deskAdmin.note')).fill('Called the shop');
    await dialog.getByRole('button', { name: t(lang, 'deskAdmin.do.Accepted'), exact: true }).click();
    await toast(page, t(lang, 'deskAdmin.done'));
    await card.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: t(lang, 'deskClaims.status.Accepted') }).click();
    await page.locator('.item-card').filter({ hasText: listing.profile_name }).waitFor();
  });

  await w.journey('37-claim-owner-fa', { lang: 'fa', viewport: PHONE }, async (page) => {
    const lang = 'fa';
    await signIn(page, lang, claimant.phone, claimant.password, { next: '/dashboard' });
    await page.locator('.mp-card').filter({ hasText: listing.profile_name }).waitFor();
    // The claim itself, with the admin's answer, above the profiles.
    const claims = page.getByRole('region', { name: t(lang, 'deskClaims.mine') });
    await claims.getByRole('link', { name: listing.profile_name }).waitFor();
    await claims.getByText(t(lang, 'desk.status.Accepted'), { exact: true }).waitFor();
    await page.goto(path);
    await page.getByRole('heading', { level: 1, name: listing.profile_name }).waitFor();
    assert.equal(await page.getByText(t(lang, 'claim.question'), { exact: true }).count(), 0, 'a claimed listing offers no claim');
  });
  const pub = await w.ok('GET', `/v1/user-technical/${listing.id}`);
  assert.equal(pub.user_id.userId, claimantId);
  assert.equal(pub.claimable, false);
});

test('an admin lists a business through the Desk form; it is public at once and claimable (fa)', { timeout: JOURNEY_TIMEOUT }, async () => {
  const lang = 'fa';
  const name = 'قفل‌سازی نمونه';
  await w.journey('37-listing-admin-fa', { lang }, async (page) => {
    await signIn(page, lang, w.admin.phone, w.admin.password, { next: '/dashboard/admin/all' });
    await page.getByRole('link', { name: t(lang, 'deskClaims.list') }).click();
    await page.waitForURL((u) => u.pathname === '/dashboard/profiles/new' && u.search === '?listing=1');
    await page.getByText(t(lang, 'deskClaims.listingNote'), { exact: true }).waitFor();
    await page.locator('#pf-profile_name').fill(name);
    await page.locator('#pf-range_worker').click();
    const tree = page.getByRole('dialog', { name: t(lang, 'deskForm.labels.fieldAndCategories') });
    await tree.locator('#pf-range_worker-filter').fill('لوله‌کش');
    await tree.getByRole('checkbox', { name: 'لوله‌کش' }).first().check();
    await tree.getByRole('button', { name: t(lang, 'picker.done', { n: 1 }) }).click();
    await tree.waitFor({ state: 'hidden' });
    await page.getByRole('tab', { name: new RegExp(t(lang, 'deskForm.tabs.place')) }).click();
    await page.locator('#pf-province_id').click();
    const provinces = page.getByRole('dialog', { name: t(lang, 'deskForm.labels.province_id') });
    await provinces.locator('#pf-province_id-filter').fill('تهران');
    await provinces.getByRole('button', { name: exact('تهران') }).click();
    await provinces.waitFor({ state: 'hidden' });
    await page.locator('#pf-city_id').click();
    const cities = page.getByRole('dialog', { name: t(lang, 'deskForm.labels.city_id') });
    await cities.locator('#pf-city_id-filter').fill('تهران');
    await cities.getByRole('button', { name: exact('تهران') }).click();
    await cities.waitFor({ state: 'hidden' });
    await page.getByRole('tab', { name: new RegExp(t(lang, 'deskForm.tabs.contact')) }).click();
    await page.locator('#pf-link-0-type').selectOption('mobile');
    await page.locator('#pf-link-0').fill('09351110372');
    // Pictures are optional; the last stage has the create button.
    await page.getByRole('tab', { name: new RegExp(t(lang, 'deskForm.tabs.pictures')) }).click();
    const [created] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/v1/admin/user-technical/createListing')),
      page.getByRole('button', { name: t(lang, 'deskForm.create') }).click(),
    ]);
    assert.equal(created.status(), 200, await created.text());
    await toast(page, t(lang, 'deskForm.created'));
    await page.waitForURL((u) => u.pathname === '/dashboard/admin/all');
  });
  const found = await w.searchable({ search_txt: name, skip: 0, take: 20 }, (r) => r.profiles.some((p) => p.profile_name === name), 'the listing');
  const p = found.profiles.find((x) => x.profile_name === name);
  assert.equal(p.account_status, 'Accepted');
  assert.equal(p.claimable, true);
});
