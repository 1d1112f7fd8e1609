// Journey 22: saving and sharing. A visitor saves businesses with the heart while signed out (the
// list lives on the device and its page works offline), signs in and finds the list merged into
// the account, and takes one back; the short link /p/{id} redirects to the profile's page (404 for
// a missing one); Share uses the phone's own share sheet with the short link where there is one,
// else the dialog (Eitaa and Bale with icons of their own), which leads to the printable QR poster.
// Each step runs in Persian and in English.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, PHONE, DESKTOP, axeCheck, digits, plumber, signIn, t } from './harness.mjs';

let w;
let first;
let second;
const owner = { phone: '09121110221', name: 'امید رضایی', password: 'password-omid' };
const owner2 = { phone: '09121110222', name: 'کیان احمدی', password: 'password-kian' };
// One visitor per language: each run merges its device's list into its own account.
const visitors = {
  fa: { phone: '09121110223', name: 'سارا محمدی', password: 'password-sara' },
  en: { phone: '09121110224', name: 'Sara Mohammadi', password: 'password-sara-en' },
};

before(async () => {
  w = await World.start({ name: '22-saving-sharing' });
  const o = await w.user(owner.phone, owner.name, owner.password);
  first = await w.profile(o.token, plumber());
  const o2 = await w.user(owner2.phone, owner2.name, owner2.password);
  second = await w.profile(o2.token, plumber({ profile_name: 'برق‌کاری کیان', category_list: [102], social_network: [{ type: 'mobile', link: '09129876543' }] }));
  for (const v of Object.values(visitors)) await w.cli('user', 'create', '--phone', v.phone, '--name', v.name, '--password', v.password);
  await w.searchable({ city_id: 1, skip: 0, take: 20 }, (r) => (r?.profiles ?? []).length >= 2, 'both businesses');
});

after(async () => {
  await w?.stop();
});

for (const lang of ['fa', 'en']) {
  const visitor = visitors[lang];
  test(`saved signed out on the device, offline, merged into the account at sign-in (${lang})`, { timeout: JOURNEY_TIMEOUT * 2 }, async () => {
    await w.journey(`22-saved-${lang}`, { lang, viewport: PHONE, bypassCSP: true }, async (page, ctx) => {
      // A heart on a search card…
      await page.goto('/search/tehran');
      const heart = page.getByRole('button', { name: t(lang, 'saved.add', { name: first.profile_name }) });
      await heart.click();
      await page.getByRole('button', { name: t(lang, 'saved.remove', { name: first.profile_name }) }).waitFor();
      assert.equal(await page.getByRole('button', { name: t(lang, 'saved.remove', { name: first.profile_name }) }).getAttribute('aria-pressed'), 'true');
      // …and one on a profile page.
      await page.goto(`/profile/${encodeURIComponent(second.slug)}`);
      await page.locator('.p-actions').getByRole('button', { name: t(lang, 'saved.add', { name: second.profile_name }) }).click();
      await page.locator('.p-actions').getByRole('button', { name: t(lang, 'saved.remove', { name: second.profile_name }) }).waitFor();

      // The saved page lists both, newest first, and says the list is on this device only.
      await page.getByRole('link', { name: t(lang, 'nav.saved') }).first().click();
      await page.waitForURL((u) => u.pathname === '/saved');
      await page.getByText(t(lang, 'saved.deviceOnly'), { exact: false }).waitFor();
      const names = async () => page.locator('.saved-list .pcard-name').allTextContents();
      await page.locator('.saved-list .pcard-name').first().waitFor();
      assert.deepEqual(await names(), [second.profile_name, first.profile_name]);
      await axeCheck(page, `22-saved-${lang}`);

      // Offline, the saved page still shows them (drawn from the device's copy).
      await page.goto('/');
      await page.getByRole('link', { name: t(lang, 'nav.saved') }).first().waitFor();
      await ctx.setOffline(true);
      await page.getByRole('link', { name: t(lang, 'nav.saved') }).first().click();
      await page.waitForURL((u) => u.pathname === '/saved');
      await page.locator('.saved-list .pcard-name').first().waitFor();
      assert.deepEqual(await names(), [second.profile_name, first.profile_name]);
      // A saved business's page opens offline too, from the copy kept when it was saved.
      await page.locator('.saved-list .pcard-link', { hasText: second.profile_name }).click();
      await page.getByText(t(lang, 'offline.savedCopy'), { exact: true }).waitFor();
      await page.getByRole('heading', { level: 1, name: second.profile_name }).waitFor();
      await page.goBack();
      await page.waitForURL((u) => u.pathname === '/saved');
      await ctx.setOffline(false);

      // Signing in merges the device's list into the account.
      await signIn(page, lang, visitor.phone, visitor.password, { next: '/saved' });
      await page.waitForURL((u) => u.pathname === '/saved');
      const token = (await w.login(visitor.phone, visitor.password)).token;
      const until = Date.now() + 10_000;
      let server;
      for (;;) {
        server = await w.ok('GET', '/v1/saved', undefined, { token });
        if (server.count === 2 || Date.now() > until) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.deepEqual(server.ids, [second.id, first.id], JSON.stringify(server));
      assert.equal(await page.getByText(t(lang, 'saved.deviceOnly'), { exact: false }).count(), 0);

      // Taking one back on the saved page takes it back on the account.
      await page.locator('.saved-list').getByRole('button', { name: t(lang, 'saved.remove', { name: first.profile_name }) }).click();
      await page.locator('.saved-list .pcard-name', { hasText: first.profile_name }).waitFor({ state: 'detached' });
      server = await w.ok('GET', '/v1/saved', undefined, { token });
      assert.deepEqual(server.ids, [second.id]);
    });
    // Another device of the same account: the list comes from the account.
    await w.journey(`22-saved-other-device-${lang}`, { lang, viewport: DESKTOP }, async (page) => {
      await signIn(page, lang, visitor.phone, visitor.password, { next: '/saved' });
      await page.locator('.saved-list .pcard-name', { hasText: second.profile_name }).waitFor();
      assert.equal(await page.locator('.saved-list .pcard-name').count(), 1);
    });
  });

}
for (const lang of ['fa', 'en']) {
  test(`short links redirect; the native share sheet, the dialog and the QR poster (${lang})`, { timeout: JOURNEY_TIMEOUT * 2 }, async () => {
    // The short link is a permanent redirect to the slug; a missing profile is a 404.
    const res = await fetch(`${w.base}/p/${first.id}`, { redirect: 'manual' });
    assert.equal(res.status, 301);
    assert.equal(res.headers.get('location'), `/profile/${encodeURIComponent(first.slug)}`);
    assert.equal((await fetch(`${w.base}/p/999999`, { redirect: 'manual' })).status, 404);

    await w.journey(`22-share-native-${lang}`, { lang, viewport: PHONE }, async (page, ctx) => {
      await page.goto(`/p/${first.id}`);
      await page.waitForURL((u) => decodeURIComponent(u.pathname) === `/profile/${first.slug}`);
      await page.getByRole('heading', { level: 1, name: first.profile_name }).waitFor();
      await page.goto('/p/999999');
      await page.getByRole('heading', { level: 1, name: t(lang, 'notFound.title') }).waitFor();

      // A phone's browser with a share sheet: it gets the short link, and no dialog opens.
      await ctx.addInitScript(() => {
        window.__shared = [];
        navigator.share = async (d) => {
          window.__shared.push(d);
        };
      });
      await page.goto(`/profile/${encodeURIComponent(first.slug)}`);
      await page.getByRole('button', { name: t(lang, 'profile.share') }).click();
      await page.waitForFunction(() => window.__shared.length === 1);
      const shared = await page.evaluate(() => window.__shared[0]);
      assert.equal(shared.url, `${w.base}/p/${first.id}`);
      assert.equal(shared.title, first.profile_name);
      assert.equal(await page.locator('dialog[open]').count(), 0);
    });

    await w.journey(`22-share-dialog-poster-${lang}`, { lang, viewport: DESKTOP, bypassCSP: true }, async (page) => {
      // No share sheet (desktop): the dialog, with the short link to copy.
      await page.addInitScript(() => {
        Object.defineProperty(Navigator.prototype, 'share', { value: undefined, configurable: true });
      });
      await page.goto(`/profile/${encodeURIComponent(second.slug)}`);
      await page.getByRole('button', { name: t(lang, 'profile.share') }).click();
      const dialog = page.locator('dialog[open]');
      await dialog.waitFor();
      assert.equal(await dialog.locator('#share-url').inputValue(), `${w.base}/p/${second.id}`);
      // Eitaa and Bale each have an icon of their own, not a shared bubble.
      const icon = (name) => dialog.locator(`.share-${name} svg`).innerHTML();
      const icons = await Promise.all(['telegram', 'whatsapp', 'eitaa', 'bale'].map(icon));
      assert.equal(new Set(icons).size, 4, 'four distinct icons');

      // The poster: name, trade, the number to call and a QR code of the short link.
      await dialog.getByRole('link', { name: t(lang, 'share.poster') }).click();
      await page.waitForURL((u) => u.pathname === `/poster/${second.id}`);
      const poster = page.locator('article.poster');
      await poster.getByRole('heading', { level: 1, name: second.profile_name }).waitFor();
      await poster.getByText(digits('09129876543', lang)).waitFor();
      await poster.getByText(`${w.base.replace(/^https?:\/\//, '')}/p/${second.id}`).waitFor();
      const qr = poster.getByRole('img', { name: t(lang, 'poster.qrOf', { name: second.profile_name }) });
      await qr.waitFor();
      const size = Number((await qr.getAttribute('viewBox')).split(' ')[2]);
      assert.ok(size >= 21 + 4, `QR of ${size} modules`);
      assert.ok((await qr.locator('path').getAttribute('d')).length > 500, 'the QR code has its modules');
      await page.getByRole('button', { name: t(lang, 'poster.print') }).waitFor();
      await axeCheck(page, `22-poster-${lang}`);
      await w.shot(page, `22-poster-${lang}`);

      // Printed, the poster alone fills an A5 sheet (148 × 210 mm at 96 px an inch).
      await page.emulateMedia({ media: 'print' });
      const box = await poster.boundingBox();
      assert.ok(Math.abs(box.width - (148 / 25.4) * 96) < 3 && Math.abs(box.height - (210 / 25.4) * 96) < 3, `printed poster ${JSON.stringify(box)}`);
      // Polled: the print styles apply in the next style pass, not always before the next call.
      await page.waitForFunction(() => getComputedStyle(document.querySelector('header')).visibility === 'hidden');
      await page.emulateMedia({ media: 'screen' });

      // A poster for a missing profile is the 404 page.
      await page.goto('/poster/999999');
      await page.getByRole('heading', { level: 1, name: t(lang, 'notFound.title') }).waitFor();
    });
  });

}