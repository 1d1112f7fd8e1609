// Journey 32: REVIEW #25 the profile form's contact step (the account's own mobile already there,
// plain labels, full-width inputs, "instagram.com/name" accepted and stored as a web address) and
// #27 the admin's details of a waiting profile show its hours, its map point and a preview of the
// page as the public will see it, #29 with the owner's number in the language's digits, and #35
// the admin's overview says a count is missing only on that count. In Persian and English.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, DESKTOP, PHONE, digits, plumber, signIn, t } from './harness.mjs';

let w;
const owners = {};
const waiting = {};

before(async () => {
  w = await World.start({ name: '32-contact-preview' });
  for (const [i, lang] of ['fa', 'en'].entries()) {
    const phone = `0912111032${i}`;
    owners[lang] = { phone, password: `password-owner-32-${i}`, ...(await w.user(phone, `مالک ${i}`, `password-owner-32-${i}`)) };
    const other = await w.user(`0912111033${i}`, `دیگری ${i}`, `password-other-32-${i}`);
    waiting[lang] = await w.profile(
      other.token,
      plumber({ profile_name: `لوله‌کشی منتظر ${i}`, social_network: [{ type: 'Instagram', link: 'instagram.com/ahmadi.plumbing' }] }),
      { accept: false },
    );
  }
});

after(async () => {
  await w?.stop();
});

for (const lang of ['fa', 'en']) {
  test(`the contact step and the admin's preview (${lang})`, { timeout: JOURNEY_TIMEOUT }, async () => {
    // The server stored the scheme-less Instagram address as a web address.
    const stored = await w.ok('GET', `/v1/user-technical/getAuthProfileById/${waiting[lang].id}`, undefined, { token: await w.adminToken() });
    assert.equal(stored.social_network[0].link, 'https://instagram.com/ahmadi.plumbing');

    await w.journey(`32-contact-${lang}`, { lang, viewport: PHONE }, async (page) => {
      await signIn(page, lang, owners[lang].phone, owners[lang].password, { next: '/dashboard/profiles/new' });
      await page.locator('#pf-tab-contact').click();
      const first = page.locator('#pf-link-0');
      await first.waitFor();
      // The account's own verified mobile is already there, under a plain label.
      assert.equal(await first.inputValue(), digits(owners[lang].phone, lang));
      assert.equal((await page.locator('label[for="pf-link-0"]').textContent()).trim(), t(lang, 'deskForm.labels.linkNumber', { type: t(lang, 'contact.types.mobile') }));
      // Instagram as people copy it: accepted, no error; the input takes the row's width.
      await page.locator('.add-row').click();
      await page.locator('#pf-link-1-type').selectOption('Instagram');
      await page.locator('#pf-link-1').fill('instagram.com/ahmadi.plumbing');
      await page.locator('#pf-link-1').blur();
      await page.waitForTimeout(300);
      assert.equal(await page.locator('#pf-link-1-err').count(), 0, 'no error for instagram.com/name');
      const [input, row] = await page.evaluate(() => [document.getElementById('pf-link-1').getBoundingClientRect().width, document.getElementById('pf-link-1').closest('.contact-row').getBoundingClientRect().width]);
      assert.ok(input >= row * 0.8, `the link input is ${input} px of a ${row} px row`);
    });

    await w.journey(`32-admin-preview-${lang}`, { lang, viewport: DESKTOP }, async (page) => {
      // #35: the overview's counts carry no standing footnote; the note shows on a count that
      // could not be read, and only there.
      await page.route(/\/v1\/admin\/user-technical\?.*status=Blocked/, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"payload":null,"message":"boom"}' }));
      await signIn(page, lang, w.admin.phone, w.admin.password, { next: '/dashboard/admin' });
      const blocked = page.locator('a.count-card[href$="status=Blocked"]');
      await blocked.locator('.count-note').getByText(t(lang, 'deskAdmin.countsNote'), { exact: true }).waitFor();
      await page.locator('a.count-card[href$="status=Accepted"] .count-value').filter({ hasText: /[0-9۰-۹]/ }).waitFor();
      assert.equal(await page.locator('.count-note').count(), 1, 'the note is on the missing count only');
      assert.equal((await blocked.locator('.count-value').textContent()).trim(), '—');
      await page.unroute(/\/v1\/admin\/user-technical\?.*status=Blocked/);
      await page.reload();
      await blocked.locator('.count-value').filter({ hasText: /[0-9۰-۹]/ }).waitFor();
      assert.equal(await page.getByText(t(lang, 'deskAdmin.countsNote')).count(), 0, 'no note when every count is there');

      await page.goto('/dashboard/admin/profiles');
      const item = page.locator('li.item-card', { has: page.getByRole('heading', { name: waiting[lang].profile_name }) });
      await item.locator('summary').click();
      const details = item.locator('.item-details');
      await details.locator('.hours-table').waitFor();
      await details.getByText(t(lang, 'profile.location'), { exact: true }).waitFor();
      // #29: the owner's number in the language's digits, like every other number on the page.
      assert.equal((await details.locator('a[href^="tel:"]').first().textContent()).trim(), digits(`0912111033${lang === 'fa' ? 0 : 1}`, lang));
      await details.getByRole('link', { name: t(lang, 'desk.preview') }).click();
      await page.waitForURL((u) => u.pathname === `/preview/${waiting[lang].id}`);
      await page.getByRole('heading', { level: 1, name: waiting[lang].profile_name }).waitFor();
      await page.getByRole('heading', { name: t(lang, 'profile.hours') }).waitFor();
    });
  });
}
