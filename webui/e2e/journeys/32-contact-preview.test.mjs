// Journey 32: REVIEW #25 the profile form's contact step (the account's own mobile already there,
// even when the account's answer comes late, plain labels, full-width inputs, "instagram.com/name"
// accepted and stored as a web address) and a number left invalid does not lose the tap on "add",
// two quick taps add two rows, #27 the admin's details of a waiting profile show its hours, its map
// point and a preview of the page as the public will see it, #29 with the owner's number in the
// language's digits, and #35 the admin's overview says a count is missing only on that count. In
// Persian and English.
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
      // The account's answer is held back (a slow network): the new form waits for it under its
      // loading state, so the first contact gets the account's mobile however late it comes (a
      // form started before it kept that row empty).
      let release;
      const held = new Promise((r) => {
        release = r;
      });
      await page.route((u) => u.pathname === '/v1/user', async (route) => {
        await held;
        await route.continue();
      });
      await signIn(page, lang, owners[lang].phone, owners[lang].password, { next: '/dashboard/profiles/new' });
      await page.locator('.desk-main .state[role="status"]').waitFor();
      await page.waitForTimeout(500);
      assert.equal(await page.locator('#pf-tab-contact').count(), 0, 'the new form waits for the account');
      release();
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

      // A number left invalid by pressing "add": its error used to appear on the press, push the
      // button down from under the pointer and lose the click. Pressed in the button's upper part
      // and held like a finger, the press now adds a row, and the error shows after it.
      const add = page.locator('.add-row');
      await add.click();
      const phone = page.locator('#pf-link-2');
      await phone.waitFor();
      assert.equal(await page.locator('#pf-link-2-type').inputValue(), 'phone');
      await phone.fill('12');
      await add.scrollIntoViewIfNeeded();
      const box = await add.boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 4);
      await page.mouse.down();
      await page.waitForTimeout(150);
      // (A pressed button sinks by a pixel; the error line, before, moved it by a line or two.)
      const pressed = await add.boundingBox();
      assert.ok(Math.abs(pressed.y - box.y) < 4, `the button stays under the pressed pointer: ${box.y} then ${pressed.y}`);
      await page.mouse.up();
      await page.locator('#pf-link-3').waitFor();
      // The error, then, as FormField shows one: described, invalid, announced.
      const err = page.locator('#pf-link-2-err');
      await err.waitFor();
      assert.equal((await err.textContent()).trim(), t(lang, 'deskForm.linkErrors.phone'));
      assert.equal(await err.getAttribute('role'), 'alert');
      assert.equal(await phone.getAttribute('aria-invalid'), 'true');
      assert.equal(await phone.getAttribute('aria-describedby'), 'pf-link-2-err');

      // Two taps on "add", one right after the other, add two rows, the second's type after the
      // first's. (Each finds the button again: a new row pushes it down by a row's height.)
      await add.click();
      await add.click();
      await page.locator('#pf-link-5').waitFor();
      assert.equal(await page.locator('.contact-row').count(), 6);
      // And so do two taps the page gets before it draws again (a busy phone): each add reads the
      // rows it is applied to, not the ones the button was drawn with.
      await page.evaluate(() => {
        const b = document.querySelector('.add-row');
        b.click();
        b.click();
      });
      await page.locator('#pf-link-7').waitFor();
      assert.equal(await page.locator('.contact-row').count(), 8);
      const types = await page.locator('.contact-type select').evaluateAll((els) => els.map((e) => e.value));
      assert.deepEqual(types, ['mobile', 'Instagram', 'phone', 'Whatsap', 'Telegram', 'Eitaa', 'Bale', 'Site']);
      await page.waitForFunction(() => document.activeElement?.id === 'pf-link-7');
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
