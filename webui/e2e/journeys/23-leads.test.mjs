// Journey 23: requests for a price. A signed-in visitor asks three plumbers at once from the
// search results of their category; the bell shows the new request to an owner, who answers it
// in the Desk's inbox (and only then sees the visitor's number); a second plumber answers, the
// third declines; the visitor compares the two answers side by side, calls the cheaper and opens
// its page; that owner's statistics then show the request, the view and the call.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, DESKTOP, JOURNEY_TIMEOUT, PHONE, digits, plumber, signIn, t, toast } from './harness.mjs';

let w;
const owners = [
  { phone: '09121110231', name: 'امید', password: 'password-omid1', mobile: '09351110231' },
  { phone: '09121110232', name: 'بهرام', password: 'password-bahram', mobile: '09351110232' },
  { phone: '09121110233', name: 'کاوه', password: 'password-kaveh', mobile: '09351110233' },
];
const visitor = { phone: '09121110239', name: 'نگار', password: 'password-negar' };
const profiles = [];
const tokens = [];
const what = 'آبگرمکن دیواری روشن نمی‌شود';

before(async () => {
  w = await World.start({ name: '23-leads' });
  for (const [i, o] of owners.entries()) {
    const u = await w.user(o.phone, o.name, o.password);
    tokens.push(u.token);
    profiles.push(
      await w.profile(
        u.token,
        plumber({
          profile_name: `لوله‌کشی ${o.name}`,
          location: { lat: 35.7 + i / 100, long: 51.4 },
          social_network: [{ type: 'mobile', link: o.mobile }],
        }),
      ),
    );
  }
  await w.user(visitor.phone, visitor.name, visitor.password);
  await w.searchable({ category_slag: profiles[0].category_list[0].slag, city_slag: profiles[0].city.slag, skip: 0, take: 20 }, (r) => r.count >= 3, 'the three plumbers');
});

after(async () => {
  await w?.stop();
});

test('a visitor asks three plumbers for a price, two answer, the visitor compares and calls (fa, phone)', { timeout: JOURNEY_TIMEOUT * 2 }, async () => {
  const lang = 'fa';
  const search = `/search/${encodeURIComponent(profiles[0].city.slag)}/${encodeURIComponent(profiles[0].category_list[0].slag)}`;
  await w.journey('23-leads-visitor-ask-fa', { lang, viewport: PHONE }, async (page) => {
    await signIn(page, lang, visitor.phone, visitor.password, { next: search });
    await page.waitForURL((u) => u.pathname.startsWith('/search/'));
    await page.getByRole('button', { name: t(lang, 'lead.action'), exact: true }).click();
    const dialog = page.getByRole('dialog', { name: t(lang, 'lead.title') });
    await dialog.waitFor();
    for (const p of profiles) assert.ok(await dialog.getByRole('checkbox', { name: p.profile_name }).isChecked());
    // Nothing said: refused in the form.
    await dialog.getByRole('button', { name: t(lang, 'lead.submit'), exact: true }).click();
    await dialog.getByText(t(lang, 'errors.enter', { des: t(lang, 'lead.what') }), { exact: true }).waitFor();
    await dialog.getByLabel(t(lang, 'lead.what')).fill(what);
    await dialog.getByLabel(t(lang, 'lead.when')).fill('فردا صبح');
    await dialog.getByRole('button', { name: t(lang, 'lead.submit'), exact: true }).click();
    await toast(page, t(lang, 'lead.sent', { count: 3 }));
    await page.waitForURL((u) => u.pathname === '/requests');
    await page.getByRole('heading', { name: what }).waitFor();
    assert.equal(await page.locator('.lead-answer').count(), 3);
    assert.equal(await page.locator('a.lead-call').count(), 0, 'no number to call before an answer');
  });

  // The first owner: the bell shows the request; the inbox hides the number until they answer.
  await w.journey('23-leads-owner-inbox-fa', { lang }, async (page) => {
    await signIn(page, lang, owners[0].phone, owners[0].password, { next: '/' });
    // Two unread: the profile's acceptance, and the request.
    const bell = page.getByRole('button', { name: t(lang, 'bell.labelUnread', { count: 2 }) });
    await bell.waitFor();
    await bell.click();
    await page.getByRole('link', { name: t(lang, 'bell.kind.new_lead', { title: profiles[0].profile_name }) }).click();
    await page.waitForURL((u) => u.pathname === '/dashboard/leads');
    const card = page.locator('.item-card').filter({ hasText: what });
    await card.waitFor();
    await card.getByText(t(lang, 'deskLeads.numberAfter')).waitFor();
    assert.equal(await card.locator(`a[href="tel:${visitor.phone}"]`).count(), 0, 'no number before answering');
    await card.getByLabel(t(lang, 'deskLeads.price')).fill('850000');
    await card.getByLabel(t(lang, 'deskLeads.message')).fill('امروز عصر می‌آیم و قطعه را عوض می‌کنم');
    await card.getByRole('button', { name: t(lang, 'deskLeads.send'), exact: true }).click();
    await toast(page, t(lang, 'deskLeads.answered'));
    await card.locator(`a[href="tel:${visitor.phone}"]`).waitFor();
  });
  const inbox = await w.ok('POST', '/v1/lead/getForProfile', {}, { token: tokens[1] });
  const lead = inbox.leads[0];
  assert.equal(lead.numberPhone, '', 'the second owner has not answered: no number');
  await w.ok('PUT', `/v1/lead/${lead.id}/answer`, { price: 1200000, message: 'فردا ساعت ۹' }, { token: tokens[1] });
  await w.ok('PUT', `/v1/lead/${lead.id}/status`, { status: 'declined' }, { token: tokens[2] });
  // Another owner never sees it.
  const stranger = await w.user('09121110238', 'غریبه', 'password-strange');
  assert.equal((await w.api('PUT', `/v1/lead/${lead.id}/answer`, { price: 1, message: 'من' }, { token: stranger.token })).status, 404);

  await w.journey('23-leads-visitor-compare-fa', { lang, viewport: PHONE }, async (page) => {
    await signIn(page, lang, visitor.phone, visitor.password, { next: '/requests' });
    await page.getByRole('heading', { name: what }).waitFor();
    const calls = page.locator('a.lead-call');
    await calls.nth(1).waitFor();
    assert.equal(await calls.count(), 2);
    // The cheaper answer comes first; each has its number to call.
    const first = page.locator('.lead-answer').first();
    await first.getByText(profiles[0].profile_name).waitFor();
    assert.equal(await first.locator('a.lead-call').getAttribute('href'), `tel:${owners[0].mobile}`);
    assert.equal(await page.locator('.lead-answer').nth(1).locator('a.lead-call').getAttribute('href'), `tel:${owners[1].mobile}`);
    await page.locator('.lead-answer').nth(2).getByText(t(lang, 'requests.status.declined')).waitFor();
    // The visitor calls the cheaper one (the phone app is not followed: its beacon goes) and
    // opens its page.
    await page.evaluate(() => {
      for (const a of document.querySelectorAll('a.lead-call')) a.addEventListener('click', (e) => e.preventDefault());
    });
    const sent = page.waitForRequest((r) => r.url().endsWith('/v1/stats/event') && r.method() === 'POST');
    await first.locator('a.lead-call').click();
    await sent;
    await first.getByRole('link', { name: profiles[0].profile_name }).click();
    await page.waitForURL((u) => decodeURIComponent(u.pathname) === `/profile/${profiles[0].slug}`);
    await page.getByRole('heading', { name: profiles[0].profile_name, level: 1 }).waitFor();
  });

  // Within the minute the called owner's statistics show the request, the view and the call.
  await w.journey('23-leads-owner-stats-fa', { lang, viewport: DESKTOP }, async (page) => {
    await signIn(page, lang, owners[0].phone, owners[0].password, { next: `/dashboard/profiles/${profiles[0].id}/stats` });
    await page.getByRole('heading', { name: t(lang, 'deskStats.title'), exact: true }).waitFor();
    await page.locator('.stats-totals').waitFor();
    for (const kind of ['quote', 'view', 'call']) {
      assert.equal(await page.locator(`.stats-totals li[data-kind="${kind}"] .stats-total`).textContent(), digits(1, lang), kind);
    }
  });
  // The one not called: asked, not viewed, not called.
  const other = await w.ok('GET', `/v1/user-technical/${profiles[1].id}/stats`, undefined, { token: tokens[1] });
  assert.deepEqual([other.totals.quote, other.totals.view, other.totals.call], [1, 0, 0]);
});
