// Journey 31: REVIEW #29 one digit style per language (a mobile and a WhatsApp of the same number
// read alike on the profile), #33 the desktop hero's and map page's example texts show whole, #36 the footer's
// links are at least 24 px tall on a phone. In Persian and English.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, DESKTOP, PHONE, digits, plumber, t } from './harness.mjs';

let w;
let prof;

before(async () => {
  w = await World.start({ name: '31-digits-targets' });
  const owner = await w.user('09121110311', 'سینا رادمنش', 'password-sina-31');
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
      const texts = (await page.locator('.contacts .contact-label a').allTextContents()).map((s) => s.trim());
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
      const heights = await page.locator('.site-footer ul a').evaluateAll((as) => as.map((a) => a.getBoundingClientRect().height));
      assert.ok(heights.length >= 8, `${heights.length} footer links`);
      for (const h of heights) assert.ok(h >= 24, `a footer link ${h} px tall`);
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
