// Journey 36: previewing a profile not public yet, then the verified badge. The owner of a
// pending profile previews it as the public will see it (a stranger and the public get 404);
// once accepted, an admin sends a code to the business's listed mobile number, the owner types it
// in the Desk, the admin marks the business verified with a note; visitors see the badge on the
// profile (with what it means) and on the search card; removing the badge takes it away.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, PHONE, axeCheck, digits, plumber, signIn, t, toast } from './harness.mjs';

let w;
const owner = { phone: '09121110361', name: 'فرهاد', password: 'password-farhad' };
const stranger = { phone: '09121110362', name: 'غریبه', password: 'password-strange' };
const business = '09351110361';
let profile;
let ownerToken;

before(async () => {
  w = await World.start({ name: '36-verified' });
  ownerToken = (await w.user(owner.phone, owner.name, owner.password)).token;
  profile = await w.profile(ownerToken, plumber({ profile_name: 'لوله‌کشی فرهاد', social_network: [{ type: 'mobile', link: business }] }), { accept: false });
  await w.user(stranger.phone, stranger.name, stranger.password);
});

after(async () => {
  await w?.stop();
});

test('the owner previews a pending profile; a stranger and the public get 404 (fa, phone)', { timeout: JOURNEY_TIMEOUT }, async () => {
  const lang = 'fa';
  await w.journey('36-preview-owner-fa', { lang, viewport: PHONE, bypassCSP: true }, async (page) => {
    await signIn(page, lang, owner.phone, owner.password, { next: '/dashboard' });
    const card = page.locator('.mp-card').filter({ hasText: profile.profile_name });
    await card.getByRole('link', { name: t(lang, 'desk.preview') }).click();
    await page.waitForURL((u) => u.pathname === `/preview/${profile.id}`);
    await page.getByText(t(lang, 'preview.banner'), { exact: true }).waitFor();
    await page.getByRole('heading', { level: 1, name: profile.profile_name }).waitFor();
    // The page is the public one: services and hours are there.
    await page.getByRole('heading', { name: t(lang, 'profile.services') }).waitFor();
    await axeCheck(page, '36-preview-fa');
  });
  await w.journey('36-preview-stranger-fa', { lang }, async (page) => {
    await signIn(page, lang, stranger.phone, stranger.password, { next: '/' });
    await page.goto(`/preview/${profile.id}`);
    await page.getByRole('heading', { level: 1, name: t(lang, 'notFound.title') }).waitFor();
    assert.equal(await page.getByText(profile.profile_name).count(), 0);
    assert.equal(page.url().endsWith('/login'), false, 'the stranger stays signed in (404, never 403)');
    await page.goto(`/profile/${encodeURIComponent(profile.slug)}`);
    // A profile the public cannot see is the "business not found" page (REVIEW #8).
    await page.getByRole('heading', { level: 1, name: t(lang, 'notFound.profileTitle') }).waitFor();
  });
});

test('an admin verifies the business through a code to its number; visitors see the badge (en admin, fa owner and visitor)', { timeout: JOURNEY_TIMEOUT * 2 }, async () => {
  const admin = await w.adminToken();
  await w.ok('PUT', `/v1/admin/user-technical/${profile.id}/status`, { status: 'Accepted', description: '' }, { token: admin });
  const before = w.smsCount();
  await w.journey('36-verify-admin-start-en', { lang: 'en' }, async (page) => {
    const lang = 'en';
    await signIn(page, lang, w.admin.phone, w.admin.password, { next: '/dashboard/admin/all' });
    const card = page.locator('.item-card').filter({ hasText: profile.profile_name });
    await card.getByRole('button', { name: t(lang, 'deskVerify.start') }).click();
    await toast(page, t(lang, 'deskVerify.codeSent', { phone: business }));
  });
  const code = await w.smsCode(business, { after: before });

  await w.journey('36-verify-owner-code-fa', { lang: 'fa', viewport: PHONE }, async (page) => {
    const lang = 'fa';
    await signIn(page, lang, owner.phone, owner.password, { next: '/dashboard' });
    const card = page.locator('.mp-card').filter({ hasText: profile.profile_name });
    // The business's number in the language's digits, as everywhere else (REVIEW #29).
    await card.getByText(t(lang, 'deskVerify.sent', { phone: digits(business, lang) }), { exact: true }).waitFor();
    // The code, typed as the SMS gives it, reads in the language's digits too.
    const field = card.getByLabel(t(lang, 'deskVerify.code'));
    await field.fill(code);
    assert.equal(await field.inputValue(), digits(code, lang));
    const [confirm] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/verification/confirm')),
      card.getByRole('button', { name: t(lang, 'deskVerify.confirm'), exact: true }).click(),
    ]);
    // ...and goes to the API in Latin ones.
    assert.equal(JSON.parse(confirm.request().postData()).otpCode, code);
    await toast(page, t(lang, 'deskVerify.thanks'));
    await card.getByText(t(lang, 'deskVerify.confirmed'), { exact: true }).waitFor();
  });

  const note = 'Called the listed number and saw the trade licence';
  await w.journey('36-verify-admin-mark-en', { lang: 'en' }, async (page) => {
    const lang = 'en';
    await signIn(page, lang, w.admin.phone, w.admin.password, { next: '/dashboard/admin/verification' });
    const card = page.locator('.item-card').filter({ hasText: profile.profile_name });
    await card.getByText(t(lang, 'deskVerify.status.confirmed'), { exact: true }).waitFor();
    await card.getByRole('button', { name: t(lang, 'deskVerify.mark') }).click();
    const dialog = page.getByRole('dialog', { name: t(lang, 'deskVerify.markTitle') });
    await dialog.getByLabel(t(lang, 'deskAdmin.note')).fill(note);
    await dialog.getByRole('button', { name: t(lang, 'deskVerify.mark'), exact: true }).click();
    await toast(page, t(lang, 'deskAdmin.done'));
    await page.locator('.item-card').filter({ hasText: profile.profile_name }).waitFor({ state: 'detached' });
  });

  await w.journey('36-verify-visitor-fa', { lang: 'fa', viewport: PHONE, bypassCSP: true }, async (page) => {
    const lang = 'fa';
    await page.goto(`/profile/${encodeURIComponent(profile.slug)}`);
    await page.getByRole('button', { name: t(lang, 'verified.badge') }).click();
    const dialog = page.getByRole('dialog', { name: t(lang, 'verified.title') });
    await dialog.getByText(t(lang, 'verified.phone'), { exact: true }).waitFor();
    await dialog.getByText(t(lang, 'verified.edits'), { exact: true }).waitFor();
    await axeCheck(page, '36-verified-explained-fa');
    await page.keyboard.press('Escape');
    // Closing the dialog steps back over its history entry (lib/backCloses): wait for that step,
    // or the next goto races it and is aborted.
    await dialog.waitFor({ state: 'hidden' });
    await page.waitForFunction(() => !history.state?.overlay);
    await w.searchable({ category_slag: profile.category_list[0].slag, city_slag: profile.city.slag, skip: 0, take: 20 }, (r) => r.profiles.some((p) => p.id === profile.id && p.verified), 'the verified plumber');
    await page.goto(`/search/${encodeURIComponent(profile.city.slag)}/${encodeURIComponent(profile.category_list[0].slag)}`);
    const card = page.locator('.pcard').filter({ hasText: profile.profile_name });
    await card.locator('.verified-badge').filter({ hasText: t(lang, 'verified.badge') }).waitFor();
  });

  // The note is in the audit log's story, and removing the badge takes it off the page.
  const v = await w.ok('GET', `/v1/user-technical/${profile.id}/verification`, undefined, { token: ownerToken });
  assert.equal(v.status, 'verified');
  await w.journey('36-verify-admin-revoke-en', { lang: 'en' }, async (page) => {
    const lang = 'en';
    await signIn(page, lang, w.admin.phone, w.admin.password, { next: '/dashboard/admin/all' });
    const card = page.locator('.item-card').filter({ hasText: profile.profile_name });
    await card.getByRole('button', { name: t(lang, 'deskVerify.revoke') }).click();
    const dialog = page.getByRole('dialog', { name: t(lang, 'deskVerify.revokeTitle') });
    await dialog.getByLabel(t(lang, 'deskAdmin.note')).fill('The shop moved away');
    await dialog.getByRole('button', { name: t(lang, 'deskVerify.revoke'), exact: true }).click();
    await toast(page, t(lang, 'deskAdmin.done'));
    await card.getByRole('button', { name: t(lang, 'deskVerify.start') }).waitFor();
  });
  const pub = await w.ok('GET', `/v1/user-technical/${profile.id}`);
  assert.equal(pub.verified, false);
});
