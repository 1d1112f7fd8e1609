// Journey 2: registration on a phone. Mobile number (typed with Persian digits) → the code from the
// SMS file → name, password and the terms → signed in, on the Desk.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, PHONE, digits, t, toast } from './harness.mjs';

let w;

before(async () => {
  w = await World.start({ name: '02-register' });
});

after(async () => {
  await w?.stop();
});

test('a new professional registers with the SMS code and lands on the Desk (fa, phone)', { timeout: JOURNEY_TIMEOUT }, async () => {
  const lang = 'fa';
  const number = '09121110021';
  await w.journey('02-register-fa', { lang, viewport: PHONE }, async (page, ctx) => {
    await page.goto('/');
    await page.locator('header').getByRole('link', { name: t(lang, 'nav.register'), exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/register');
    await page.getByRole('heading', { level: 1, name: t(lang, 'auth.registerTitle') }).waitFor();

    // Step 1: the number, as a Persian keyboard types it.
    const before = w.smsCount();
    await page.locator('#r-mobile').fill(digits(number, 'fa'));
    await page.getByRole('button', { name: t(lang, 'auth.sendCode'), exact: true }).click();
    await toast(page, t(lang, 'auth.codeSent'));
    await page.getByText(t(lang, 'auth.codeSentTo', { n: digits(number, 'fa') }), { exact: true }).waitFor();
    // The resend button waits for its countdown.
    assert.equal(await page.getByRole('button', { name: t(lang, 'auth.resend'), exact: true }).isDisabled(), true);
    const code = await w.smsCode(number, { after: before });
    assert.match(code, /^\d{6}$/);

    // Step 2: code, name, password; the terms must be accepted.
    await page.locator('#r-code').fill(code);
    await page.locator('#r-name').fill('مریم احمدی');
    await page.locator('#r-password').fill('maryam-password-1');
    const create = page.getByRole('button', { name: t(lang, 'auth.createAccount'), exact: true });
    await create.click();
    await page.locator('#r-terms-err').getByText(t(lang, 'auth.acceptTerms'), { exact: true }).waitFor();
    await page.getByRole('checkbox').check();
    await create.click();

    await page.waitForURL((u) => u.pathname === '/dashboard');
    await toast(page, t(lang, 'auth.registered'));
    const cookies = Object.fromEntries((await ctx.cookies()).map((c) => [c.name, c]));
    assert.ok(cookies.token?.value.length > 10 && cookies.id?.value, 'token and id cookies');
    assert.equal(cookies.token.path, '/');
    const days = (cookies.token.expires - Date.now() / 1000) / 86400;
    assert.ok(days > 2.9 && days <= 3, `the token cookie lasts 3 days (${days})`);
    // Signed in: the header offers the Desk instead of the login/register pair.
    await page.locator('header').getByRole('link', { name: t(lang, 'header.desk'), exact: true }).waitFor();
    assert.equal(await page.locator('header').getByRole('link', { name: t(lang, 'nav.register'), exact: true }).count(), 0);

    // The server knows the account: the new password signs in.
    const login = await w.login(number, 'maryam-password-1');
    assert.equal(String(login.id), cookies.id.value);
  });
});
