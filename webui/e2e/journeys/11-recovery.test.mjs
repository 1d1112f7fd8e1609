// Journey 11: accounts people can recover. A professional who forgot the password asks for a code
// on the login page, types it with a new password and is signed in (the old password no longer
// works); another signs in with an SMS code alone; the account page changes the password only
// with the current one. The codes come from the SMS file; errors sit on their field, in red,
// announced and linked to the input.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, DESKTOP, JOURNEY_TIMEOUT, PHONE, digits, t, toast } from './harness.mjs';

let w;

before(async () => {
  w = await World.start({ name: '11-recovery' });
});

after(async () => {
  await w?.stop();
});

/** Asserts that the field's error shows this text, is announced and describes the input. */
async function fieldError(page, id, text) {
  const err = page.locator(`#${id}-err`);
  await err.getByText(text, { exact: true }).waitFor();
  assert.equal(await err.getAttribute('role'), 'alert');
  const input = page.locator(`#${id}`);
  assert.equal(await input.getAttribute('aria-invalid'), 'true');
  assert.match((await input.getAttribute('aria-describedby')) ?? '', new RegExp(`\\b${id}-err\\b`));
  const color = await err.evaluate((e) => getComputedStyle(e).color);
  const [r, g, b] = color.match(/\d+/g).map(Number);
  assert.ok(r > 150 && g < 110 && b < 110, `the error is red (${color})`);
}

test('forgot password: code by SMS, a new password, signed in (fa, phone)', { timeout: JOURNEY_TIMEOUT }, async () => {
  const lang = 'fa';
  const number = '09121110111';
  await w.user(number, 'نرگس رضایی', 'old-password-1');
  await w.journey('11-forgot-fa', { lang, viewport: PHONE }, async (page, ctx) => {
    await page.goto('/login');
    await page.getByRole('heading', { level: 1, name: t(lang, 'auth.loginTitle') }).waitFor();
    await page.getByRole('button', { name: t(lang, 'auth.forgot'), exact: true }).click();
    await page.getByRole('heading', { level: 1, name: t(lang, 'auth.forgotTitle') }).waitFor();
    assert.equal(new URL(page.url()).searchParams.get('tab'), 'forgot');

    // A wrong number is refused on its field before anything is sent.
    await page.locator('#f-mobile').fill('۰۹۱۲');
    await page.getByRole('button', { name: t(lang, 'auth.sendCode'), exact: true }).click();
    await fieldError(page, 'f-mobile', t(lang, 'errors.enterCorrect', { des: t(lang, 'auth.mobile') }));

    const before = w.smsCount();
    await page.locator('#f-mobile').fill(digits(number, 'fa'));
    await page.getByRole('button', { name: t(lang, 'auth.sendCode'), exact: true }).click();
    await toast(page, t(lang, 'auth.codeSent'));
    await page.getByText(t(lang, 'auth.codeSentTo', { n: digits(number, 'fa') }), { exact: true }).waitFor();
    // The code's two minutes count down, and resending waits for the cooldown.
    const life = page.locator('[data-testid="code-life"]');
    const lifeText = await life.textContent();
    assert.match(lifeText, new RegExp(`[${digits('12', 'fa')}]:[${digits('0123456789', 'fa')}]{2}`), `countdown: ${lifeText}`);
    // It counts down.
    await page.waitForFunction((before) => document.querySelector('[data-testid="code-life"]')?.textContent !== before, lifeText);
    assert.equal(await page.getByRole('button', { name: t(lang, 'auth.resend'), exact: true }).isDisabled(), true);
    const code = await w.smsCode(number, { after: before });

    // A wrong code is reported on the code field.
    const wrong = code === '000000' ? '111111' : '000000';
    await page.locator('#f-code').fill(wrong);
    await page.locator('#f-password').fill('new-password-2');
    await page.getByRole('button', { name: t(lang, 'auth.resetAndLogin'), exact: true }).click();
    await page.locator('#f-code-err').waitFor();
    assert.equal(await page.locator('#f-code').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator('#f-code-err').getAttribute('role'), 'alert');

    await page.locator('#f-code').fill(digits(code, 'fa'));
    await page.getByRole('button', { name: t(lang, 'auth.resetAndLogin'), exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/dashboard');
    await toast(page, t(lang, 'auth.passwordReset'));
    const cookies = Object.fromEntries((await ctx.cookies()).map((c) => [c.name, c]));
    assert.ok(cookies.token?.value.length > 10 && cookies.id?.value, 'signed in');
  });
  // The new password works, the old one no longer does.
  assert.ok((await w.login(number, 'new-password-2')).token);
  assert.equal((await w.api('POST', '/v1/user/login', { numberPhone: number, password: 'old-password-1' })).status, 400);
});

test('sign in with a code alone; the account page changes the password only with the current one (en, desktop)', { timeout: JOURNEY_TIMEOUT }, async () => {
  const lang = 'en';
  const number = '09121110112';
  await w.user(number, 'Reza Karimi', 'reza-password-1');
  await w.journey('11-code-login-en', { lang, viewport: DESKTOP }, async (page) => {
    await page.goto('/login');
    await page.getByRole('tab', { name: t(lang, 'auth.withCode'), exact: true }).click();
    await page.getByRole('heading', { level: 1, name: t(lang, 'auth.codeLoginTitle') }).waitFor();
    assert.equal(await page.getByRole('tab', { name: t(lang, 'auth.withCode'), exact: true }).getAttribute('aria-selected'), 'true');

    // An empty number is refused on the field.
    await page.getByRole('button', { name: t(lang, 'auth.sendCode'), exact: true }).click();
    await fieldError(page, 'c-mobile', t(lang, 'errors.enter', { des: t(lang, 'auth.mobile') }));

    const before = w.smsCount();
    await page.locator('#c-mobile').fill(number);
    await page.getByRole('button', { name: t(lang, 'auth.sendCode'), exact: true }).click();
    await toast(page, t(lang, 'auth.codeSent'));
    const code = await w.smsCode(number, { after: before });
    await page.locator('#c-code').fill(code);
    await page.locator('form').getByRole('button', { name: t(lang, 'nav.login'), exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/dashboard');
    await toast(page, t(lang, 'auth.welcome'));

    // The account page: a new password needs the current one.
    await page.goto('/dashboard/account');
    await page.locator('#ac-current').waitFor();
    await page.locator('#ac-current').fill('not-my-password');
    await page.locator('#ac-pw').fill('reza-password-2');
    await page.locator('#ac-pw2').fill('reza-password-2');
    await page.getByRole('button', { name: t(lang, 'deskAccount.changePassword'), exact: true }).click();
    await page.locator('#ac-current-err').waitFor();
    assert.equal(await page.locator('#ac-current').getAttribute('aria-invalid'), 'true');
    await page.locator('#ac-current').fill('reza-password-1');
    await page.getByRole('button', { name: t(lang, 'deskAccount.changePassword'), exact: true }).click();
    await toast(page, t(lang, 'deskAccount.passwordChanged'));
  });
  assert.ok((await w.login(number, 'reza-password-2')).token);
});
