// Journey 35: the request for a price from the browser, both ways in. A signed-out visitor asks a
// plumber from the profile page, proves their number with the code the SMS brought (read from
// the test sender's file), which offers them the photos, attaches one, puts a point on the map
// and sends; the owner's inbox has it with the photo and the point and without the number. A signed-in visitor attaches two photos and a point; the owner
// sees both photos and the point in the Desk's inbox.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, PHONE, digits, photo, plumber, signIn, t } from './harness.mjs';

let w;
const owner = { phone: '09121110351', name: 'سهراب', password: 'password-sohrab' };
const visitor = { phone: '09121110359', name: 'مینا', password: 'password-mina1' };
let profile;
let ownerToken;

before(async () => {
  w = await World.start({ name: '35-lead-signed-out' });
  ownerToken = (await w.user(owner.phone, owner.name, owner.password)).token;
  profile = await w.profile(ownerToken, plumber({ profile_name: 'لوله‌کشی سهراب', social_network: [{ type: 'mobile', link: '09351110351' }] }));
  await w.user(visitor.phone, visitor.name, visitor.password);
});

after(async () => {
  await w?.stop();
});

/** The owner's inbox through the API. */
const inbox = async () => (await w.ok('POST', '/v1/lead/getForProfile', { user_technical_id: profile.id, skip: 0, take: 20 }, { token: ownerToken })).leads;

/** Opens the request dialog on the profile page, fills what and when, and puts a pin on the map. */
async function fillRequest(page, lang, what) {
  await page.goto(`/profile/${encodeURIComponent(profile.slug)}`);
  await page.getByRole('button', { name: t(lang, 'lead.action'), exact: true }).click();
  const dialog = page.getByRole('dialog', { name: t(lang, 'lead.title') });
  await dialog.waitFor();
  await dialog.getByLabel(t(lang, 'lead.what')).fill(what);
  await dialog.getByLabel(t(lang, 'lead.when')).fill(lang === 'fa' ? 'پنجشنبه عصر' : 'Thursday afternoon');
  await dialog.getByText(t(lang, 'lead.noPin'), { exact: true }).waitFor();
  await dialog.getByRole('button', { name: t(lang, 'lead.showMap') }).click();
  const map = dialog.getByRole('region', { name: t(lang, 'lead.mapLabel') });
  await map.waitFor();
  // Tap a little off the centre (the profile's point): the pin goes where the visitor taps.
  await map.scrollIntoViewIfNeeded();
  const box = await map.boundingBox();
  await map.click({ position: { x: box.width / 2 + 30, y: box.height / 2 - 20 } });
  await dialog.getByText(t(lang, 'lead.clearPin'), { exact: true }).waitFor();
  return dialog;
}

test('a signed-out visitor proves their number with the SMS code, attaches a photo and sends a request with a point (fa, phone)', { timeout: JOURNEY_TIMEOUT }, async () => {
  const lang = 'fa';
  const what = 'نشت آب زیر سینک';
  await w.journey('35-lead-signed-out-fa', { lang, viewport: PHONE }, async (page) => {
    const dialog = await fillRequest(page, lang, what);
    // Signed out: photos come once the number is confirmed with the code.
    await dialog.getByText(t(lang, 'lead.photosAfterCode', { max: digits(2, lang) }), { exact: true }).waitFor();
    assert.equal(await dialog.locator('#lead-photos').count(), 0, 'no photos before the code');
    await dialog.getByLabel(t(lang, 'lead.phone')).fill(visitor.phone);
    const before = w.smsCount();
    await dialog.getByRole('button', { name: t(lang, 'lead.sendCode'), exact: true }).click();
    const code = await w.smsCode(visitor.phone, { after: before });
    // A wrong code is refused on the code's field, and nothing is sent.
    await dialog.getByLabel(t(lang, 'lead.code')).fill(code === '000000' ? '111111' : '000000');
    await dialog.getByRole('button', { name: t(lang, 'lead.verify'), exact: true }).click();
    await dialog.locator('#lead-code-err').waitFor();
    assert.equal((await inbox()).length, 0, 'a wrong code sent nothing');
    await dialog.getByLabel(t(lang, 'lead.code')).fill(code);
    await dialog.getByRole('button', { name: t(lang, 'lead.verify'), exact: true }).click();
    await dialog.getByText(t(lang, 'lead.verified', { phone: digits(visitor.phone, lang) }), { exact: true }).waitFor();
    // The pressed "Confirm number" is gone: focus goes on to the photos, not to the page's body.
    await page.waitForFunction(() => document.activeElement?.id === 'lead-photos');
    // Confirmed: the photo input is offered; one photo goes up with the number's pass.
    await dialog.locator('#lead-photos').setInputFiles([await photo(page, { name: 'sink.jpg' })]);
    await dialog.getByRole('img', { name: t(lang, 'reviewPhotos.photoN', { n: digits(1, lang) }) }).waitFor();
    await dialog.getByRole('button', { name: t(lang, 'lead.submit'), exact: true }).click();
    await dialog.getByText(t(lang, 'lead.sentSignedOut'), { exact: true }).waitFor();
  });
  const leads = await inbox();
  assert.equal(leads.length, 1);
  assert.equal(leads[0].what, what);
  assert.equal(leads[0].numberPhone, '', 'the owner sees no number before answering');
  assert.equal(leads[0].photos.length, 1, 'the photo reached the owner');
  assert.equal((await fetch(w.base + leads[0].photos[0])).status, 200, 'the photo is served');
  assert.equal(leads[0].location?.length, 2, 'the point reached the owner');
  const [long, lat] = leads[0].location;
  assert.ok(Math.abs(lat - 35.7) < 0.05 && Math.abs(long - 51.4) < 0.05, `the point is near the profile: ${lat},${long}`);
  assert.notEqual(`${lat},${long}`, '35.7,51.4', 'the point is where the visitor tapped, not the profile');

  // The owner sees the signed-out visitor's photo in the Desk's inbox.
  await w.journey('35-lead-signed-out-owner-fa', { lang }, async (page) => {
    await signIn(page, lang, owner.phone, owner.password, { next: '/dashboard/leads' });
    const card = page.locator('.item-card').filter({ hasText: what });
    await card.waitFor();
    await card.getByRole('button', { name: t(lang, 'profile.photoOf', { name: what, n: digits(1, lang), total: digits(1, lang) }) }).waitFor();
    assert.equal(await card.locator('.gallery img').count(), 1);
    await page.waitForFunction((sel) => [...document.querySelectorAll(sel)].every((i) => i.complete && i.naturalWidth > 0), '.item-card .gallery img');
  });
});

test('a signed-in visitor attaches two photos and a point (en, desktop)', { timeout: JOURNEY_TIMEOUT }, async () => {
  const lang = 'en';
  const what = 'Water heater makes a noise';
  await w.journey('35-lead-photos-en', { lang }, async (page) => {
    await signIn(page, lang, visitor.phone, visitor.password, { next: '/' });
    const dialog = await fillRequest(page, lang, what);
    const input = dialog.locator('#lead-photos');
    await input.setInputFiles([await photo(page, { name: 'sink.jpg' }), await photo(page, { name: 'pipe.jpg', width: 700 })]);
    await dialog.getByRole('img', { name: t(lang, 'reviewPhotos.photoN', { n: '2' }) }).waitFor();
    // Two is the most: the add button goes.
    assert.equal(await dialog.getByText(t(lang, 'reviewPhotos.add')).count(), 0);
    await dialog.getByRole('button', { name: t(lang, 'lead.submit'), exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/requests');
    await page.getByRole('heading', { name: what }).waitFor();
  });
  const lead = (await inbox()).find((l) => l.what === what);
  assert.ok(lead, 'the owner has the request');
  assert.equal(lead.photos.length, 2, 'both photos reached the owner');
  for (const src of lead.photos) assert.equal((await fetch(w.base + src)).status, 200, `${src} is served`);
  assert.equal(lead.location?.length, 2);

  // The owner sees them in the Desk's inbox: both photos (they open full size) and the visitor's
  // point in the map apps, before answering and so before the number.
  await w.journey('35-lead-photos-owner-en', { lang }, async (page) => {
    await signIn(page, lang, owner.phone, owner.password, { next: '/dashboard/leads' });
    const card = page.locator('.item-card').filter({ hasText: what });
    await card.waitFor();
    const shot = (n) => card.getByRole('button', { name: t(lang, 'profile.photoOf', { name: what, n: String(n), total: '2' }) });
    await shot(2).waitFor();
    assert.equal(await card.locator('.gallery img').count(), 2);
    await page.waitForFunction((sel) => [...document.querySelectorAll(sel)].every((i) => i.complete && i.naturalWidth > 0), '.item-card .gallery img');
    await shot(1).click();
    const viewer = page.getByRole('dialog', { name: t(lang, 'profile.photoOf', { name: what, n: '1', total: '2' }) });
    await viewer.waitFor();
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'hidden' });
    const [long, lat] = lead.location;
    const waze = card.getByRole('link', { name: t(lang, 'routes.waze'), exact: true });
    assert.equal(await waze.getAttribute('href'), `https://waze.com/ul?ll=${lat.toFixed(6)},${long.toFixed(6)}&navigate=yes`);
    await card.getByText(t(lang, 'deskLeads.point'), { exact: true }).waitFor();
    await card.getByText(t(lang, 'deskLeads.numberAfter')).waitFor();
  });
});
