// Journey 7: the language and theme chosen in the header survive reloads; signing out asks first;
// a session revoked on the server sends the person to /login. Starting in Persian on a desktop
// (header toggles, Account menu) and starting in English on a phone (the slide-in menu).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, DESKTOP, JOURNEY_TIMEOUT, PHONE, signIn, t, toast } from './harness.mjs';

let w;

before(async () => {
  w = await World.start({ name: '07-settings-session' });
  await w.cli('user', 'create', '--phone', '09121110071', '--name', 'Sara', '--password', 'password-sara');
});

after(async () => {
  await w?.stop();
});

const user = { phone: '09121110071', password: 'password-sara' };

async function cookies(ctx) {
  return Object.fromEntries((await ctx.cookies()).map((c) => [c.name, c.value]));
}

for (const start of ['fa', 'en']) {
  const other = start === 'fa' ? 'en' : 'fa';
  const onPhone = start === 'en';

  test(`language and theme persist, sign-out asks, a revoked session goes to /login (${start}${onPhone ? ', phone' : ''})`, { timeout: JOURNEY_TIMEOUT }, async () => {
    // Nothing stored beforehand for fa: the app's defaults are Persian and the system theme (light here).
    await w.journey(`07-settings-session-${start}`, { lang: start, store: start !== 'fa', theme: 'system', viewport: onPhone ? PHONE : DESKTOP }, async (page, ctx) => {
      let lang = start;
      const html = page.locator('html');
      // The header's tools, or on a phone the slide-in menu that holds them.
      const tools = async () => {
        if (!onPhone) return page.locator('header .header-row');
        await page.getByRole('button', { name: t(lang, 'header.openMenu'), exact: true }).click();
        const drawer = page.locator('dialog#drawer');
        await drawer.waitFor();
        return drawer;
      };
      const closeTools = async () => {
        if (onPhone) {
          await page.locator('dialog#drawer').getByRole('button', { name: t(lang, 'common.close'), exact: true }).click();
          await page.locator('dialog#drawer').waitFor({ state: 'hidden' });
        }
      };
      const expectLang = async (l) => {
        await page.locator(`html[lang="${l}"][dir="${l === 'fa' ? 'rtl' : 'ltr'}"]`).waitFor({ state: 'attached' });
        await page.locator('header').getByRole('link', { name: t(l, 'header.home'), exact: true }).waitFor();
      };

      await page.goto('/');
      await expectLang(start);
      assert.equal(await html.getAttribute('data-theme'), 'light');

      // Language.
      let box = await tools();
      await box.getByRole('button', { name: t(lang, 'header.switchLang'), exact: true }).click();
      lang = other;
      await expectLang(lang);
      await closeTools();
      await page.reload();
      await expectLang(lang);
      await page.getByRole('heading', { level: 1, name: t(lang, 'home.slogan') }).waitFor();

      // Theme: system → light → dark.
      box = await tools();
      const themeButton = (th) => box.getByRole('button', { name: t(lang, 'header.theme', { theme: t(lang, `theme.${th}`) }), exact: true });
      await themeButton('system').click();
      await themeButton('light').click();
      await themeButton('dark').waitFor();
      assert.equal(await html.getAttribute('data-theme'), 'dark');
      await closeTools();
      await page.reload();
      await expectLang(lang);
      assert.equal(await html.getAttribute('data-theme'), 'dark');
      box = await tools();
      await themeButton('dark').waitFor();
      await closeTools();
      assert.deepEqual(await page.evaluate(() => [localStorage.getItem('lang'), localStorage.getItem('theme')]), [lang, 'dark']);

      // Sign in, then sign out: Close keeps the session, Confirm ends it.
      await signIn(page, lang, user.phone, user.password);
      await page.waitForURL((u) => u.pathname === '/dashboard');
      await expectLang(lang);
      assert.equal(await html.getAttribute('data-theme'), 'dark');
      const openSignOut = async () => {
        if (onPhone) {
          box = await tools();
          await box.getByRole('button', { name: t(lang, 'header.signOut'), exact: true }).click();
        } else {
          await page.getByRole('button', { name: t(lang, 'header.account') }).click();
          await page.locator('.account-menu').getByRole('button', { name: t(lang, 'header.signOut'), exact: true }).click();
        }
        const dialog = page.getByRole('dialog', { name: t(lang, 'header.exitTitle') });
        await dialog.getByText(t(lang, 'header.exitQuestion'), { exact: true }).waitFor();
        return dialog;
      };
      let dialog = await openSignOut();
      await w.shot(page, `07-settings-session-${start}-confirm`);
      await dialog.getByRole('button', { name: t(lang, 'common.close'), exact: true }).last().click();
      await dialog.waitFor({ state: 'hidden' });
      assert.ok((await cookies(ctx)).token, 'Close keeps the session');
      dialog = await openSignOut();
      await dialog.getByRole('button', { name: t(lang, 'common.confirm'), exact: true }).click();
      await toast(page, t(lang, 'header.signedOut'));
      await page.waitForURL((u) => u.pathname === '/');
      const after = await cookies(ctx);
      assert.ok(!after.token && !after.id, `sign-out clears the cookies: ${JSON.stringify(after)}`);
      if (!onPhone) await page.locator('header').getByRole('link', { name: t(lang, 'nav.login'), exact: true }).waitFor();

      // A session revoked on the server: the next authorised call sends the person to /login.
      await signIn(page, lang, user.phone, user.password);
      await page.waitForURL((u) => u.pathname === '/dashboard');
      const { token } = await cookies(ctx);
      assert.ok(token && token.length > 10, 'signed in again');
      await w.ok('POST', '/v1/user/logout', {}, { token });
      await page.goto('/dashboard');
      await page.waitForURL((u) => u.pathname === '/login');
      await page.getByRole('heading', { level: 1, name: t(lang, 'auth.loginTitle') }).waitFor();
      const gone = await cookies(ctx);
      assert.ok(!gone.token && !gone.id, `the revoked session is cleared: ${JSON.stringify(gone)}`);
    });
  });
}
