// Journey 31: REVIEW #29 one digit style per language (a mobile and a WhatsApp of the same number
// read alike on the profile; a number typed into the sign-in form, the account's mobile the
// profile form's contact step starts with, a WhatsApp number there, the contact page's phone and
// a one-time code read in the language's digits and go to the API in Latin ones), #33 the desktop hero's and map page's example texts show whole, #36 the footer's
// links are at least 24 px tall on a phone. In Persian and English.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, DESKTOP, PHONE, digits, plumber, t, toast } from './harness.mjs';

let w;
let prof;

before(async () => {
  w = await World.start({ name: '31-digits-targets' });
  const owner = await w.user('09121110311', 'سینا رادمنش', 'password-sina-31');
  // One account per language signs in with a code, so neither waits for the other's SMS.
  await w.user('09121110312', 'سینا یک', 'password-sina-312');
  await w.user('09121110313', 'Sina Two', 'password-sina-313');
  prof = await w.profile(
    owner.token,
    plumber({
      profile_name: 'لوله‌کشی سینا',
      social_network: [
        { type: 'mobile', link: '09121110311' },
        { type: 'Whatsap', link: '09121110311' },
        { type: 'Telegram', link: '@sina_31' },
      ],
    }),
  );
});

after(async () => {
  await w?.stop();
});

for (const lang of ['fa', 'en']) {
  test(`one digit style, a whole example text, footer targets (${lang})`, { timeout: JOURNEY_TIMEOUT }, async () => {
    await w.journey(`31-digits-${lang}`, { lang, viewport: PHONE }, async (page) => {
      // #29: the mobile and the WhatsApp number in the language's digits; the handle as written.
      await page.goto(`/profile/${encodeURIComponent(prof.slug)}`);
      // (allTextContents does not wait: the page's three contacts first.)
      const contacts = page.locator('.contacts .contact-label a');
      await contacts.nth(2).waitFor();
      const texts = (await contacts.allTextContents()).map((s) => s.trim());
      const number = digits('09121110311', lang);
      assert.equal(texts.filter((s) => s === number).length, 2, `mobile and WhatsApp read ${number}: ${texts}`);
      assert.ok(texts.includes('@sina_31'), `the handle stays: ${texts}`);
      if (lang === 'fa') assert.ok(texts.every((s) => !/[0-9]/.test(s.replace('@sina_31', ''))), `no Latin digit: ${texts}`);

      // #29: the sign-in form's example number is written in the language's digits too.
      await page.goto('/login');
      const example = await page.locator('#l-mobile').getAttribute('placeholder');
      assert.equal(example, t(lang, 'auth.mobilePlaceholder'));
      if (lang === 'fa') assert.doesNotMatch(example, /[0-9]/, example);

      // #36: every footer link is a target at least 24 px tall.
      const footer = page.locator('.site-footer ul a');
      await footer.nth(7).waitFor();
      const heights = await footer.evaluateAll((as) => as.map((a) => a.getBoundingClientRect().height));
      assert.ok(heights.length >= 8, `${heights.length} footer links`);
      for (const h of heights) assert.ok(h >= 24, `a footer link ${h} px tall`);

      // #29: the number typed (in Latin digits, as a phone's keyboard may) reads in the language's
      // digits, and the API gets it in Latin ones.
      await page.goto(`/login?next=${encodeURIComponent('/dashboard/profiles/new')}`);
      const mobile = page.locator('#l-mobile');
      await mobile.fill('09121110311');
      assert.equal(await mobile.inputValue(), digits('09121110311', lang));
      await page.locator('#l-password').fill('password-sina-31');
      const [login] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/v1/user/login')),
        page.locator('form').getByRole('button', { name: t(lang, 'nav.login') }).click(),
      ]);
      assert.equal(login.status(), 200);
      assert.equal(JSON.parse(login.request().postData()).numberPhone, '09121110311');
      await page.waitForURL((u) => u.pathname.endsWith('/dashboard/profiles/new'));

      // #29: the contact step starts with the account's mobile in the language's digits (it was
      // Latin inside the Persian form), and so does its example.
      await page.locator('#pf-tab-contact').click();
      const first = page.locator('#pf-link-0');
      await first.waitFor();
      assert.equal(await first.inputValue(), digits('09121110311', lang));
      if (lang === 'fa') {
        assert.doesNotMatch(await first.inputValue(), /[0-9]/);
        assert.doesNotMatch(await first.getAttribute('placeholder'), /[0-9]/);
      }
      // Digits typed in the middle land where the caret is, each shown in the language's digits.
      await first.fill('0912111031');
      await first.press('End');
      await first.press('ArrowLeft');
      await first.press('ArrowLeft');
      await first.pressSequentially('77');
      assert.equal(await first.inputValue(), digits('091211107731', lang));

      // #29: a WhatsApp number reads in the language's digits as the mobile does, and so does its
      // example; a Telegram handle stays as written.
      // A valid mobile again, so leaving the field shows no error that would move the add button
      // under the pointer. The form offers phone, WhatsApp and Telegram next, in that order.
      await first.fill('09121110311');
      await first.blur();
      for (const i of [1, 2, 3]) {
        await page.locator('.add-row').click();
        await page.locator(`#pf-link-${i}`).waitFor();
      }
      assert.equal(await page.locator('#pf-link-2-type').inputValue(), 'Whatsap');
      assert.equal(await page.locator('#pf-link-3-type').inputValue(), 'Telegram');
      const whatsapp = page.locator('#pf-link-2');
      await whatsapp.fill('+98 912 111 0311');
      assert.equal(await whatsapp.inputValue(), digits('+98 912 111 0311', lang));
      if (lang === 'fa') assert.doesNotMatch(await whatsapp.getAttribute('placeholder'), /[0-9]/);
      const telegram = page.locator('#pf-link-3');
      await telegram.fill('@sina_31');
      assert.equal(await telegram.inputValue(), '@sina_31');
      await telegram.fill('t.me/sina31');
      assert.equal(await telegram.inputValue(), 't.me/sina31');

      // #29: the contact page's phone number too; the message takes it in Latin digits.
      await page.goto('/contact');
      await page.locator('#c-name').fill('سینا');
      await page.locator('#c-subject').fill('ارقام');
      const phone = page.locator('#c-number_phone');
      await phone.fill('09121110311');
      assert.equal(await phone.inputValue(), digits('09121110311', lang));
      if (lang === 'fa') assert.doesNotMatch(await phone.getAttribute('placeholder'), /[0-9]/);
      await page.locator('#c-message').fill('شماره‌ها یک‌دست باشند.');
      const [critic] = await Promise.all([
        page.waitForResponse((r) => r.url().includes('/v1/critics-and-suggestions/')),
        page.getByRole('button', { name: t(lang, 'common.send'), exact: true }).click(),
      ]);
      assert.equal(critic.status(), 200, await critic.text());
      assert.equal(JSON.parse(critic.request().postData()).number_phone, '09121110311');
    });
    await w.journey(`31-code-${lang}`, { lang, viewport: PHONE }, async (page) => {
      // #29: a one-time code, typed as the SMS gives it, reads in the language's digits; the API
      // gets it in Latin ones.
      const number = lang === 'fa' ? '09121110312' : '09121110313';
      await page.goto('/login?tab=code');
      const before = w.smsCount();
      await page.locator('#c-mobile').fill(number);
      await page.getByRole('button', { name: t(lang, 'auth.sendCode'), exact: true }).click();
      await toast(page, t(lang, 'auth.codeSent'));
      const code = await w.smsCode(number, { after: before });
      const field = page.locator('#c-code');
      assert.equal(await field.getAttribute('autocomplete'), 'one-time-code');
      assert.equal(await field.getAttribute('inputmode'), 'numeric');
      await field.fill(code);
      assert.equal(await field.inputValue(), digits(code, lang));
      const [login] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/v1/user/loginWithCode')),
        page.locator('form').getByRole('button', { name: t(lang, 'nav.login'), exact: true }).click(),
      ]);
      assert.equal(login.status(), 200, await login.text());
      assert.equal(JSON.parse(login.request().postData()).otpCode, code);
    });
    await w.journey(`31-hero-${lang}`, { lang, viewport: DESKTOP }, async (page) => {
      // #33: on a desktop the hero's query field holds its whole example text, and so does the
      // map page's.
      const whole = async (input, text) => {
        await input.waitFor();
        const [need, room] = await input.evaluate((el) => {
          const cs = getComputedStyle(el);
          const ctx = document.createElement('canvas').getContext('2d');
          ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
          return [ctx.measureText(el.placeholder).width, el.clientWidth - parseFloat(cs.paddingInlineStart) - parseFloat(cs.paddingInlineEnd)];
        });
        assert.equal(await input.getAttribute('placeholder'), text);
        assert.ok(need <= room, `the example text "${text}" needs ${need} px, the field has ${room}`);
      };
      await page.goto('/');
      await whole(page.locator('.hero-q input'), t(lang, 'home.searchPlaceholder'));
      await page.goto('/map');
      await whole(page.locator('#m-q'), t(lang, 'map.searchPlaceholder'));
    });
  });
}
