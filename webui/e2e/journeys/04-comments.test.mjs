// Journey 4: another user reviews a profile with a score; a second review is refused with the
// spec's message; the score shows on the profile. (The owner's reply needs a reply screen in the
// Desk, which it does not have yet.)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, digits, plumber, signIn, t, toast } from './harness.mjs';

let w;
let omid;
const owner = { phone: '09121110041', name: 'امید رضایی', password: 'password-omid' };
const reviewer = { phone: '09121110042', name: 'رضا کریمی', password: 'password-reza' };

before(async () => {
  w = await World.start({ name: '04-comments' });
  const o = await w.user(owner.phone, owner.name, owner.password);
  omid = await w.profile(o.token, plumber());
  await w.cli('user', 'create', '--phone', reviewer.phone, '--name', reviewer.name, '--password', reviewer.password);
});

after(async () => {
  await w?.stop();
});

test('a review with a score, a refused second one, the score on the profile (fa)', { timeout: JOURNEY_TIMEOUT }, async () => {
  const lang = 'fa';
  const path = `/profile/${encodeURIComponent(omid.slug)}`;
  const review = 'کارش تمیز و سریع بود، فقط کمی دیر رسید.';
  await w.journey('04-comments-fa', { lang }, async (page, ctx) => {
    // Signed out, the profile asks the visitor to sign in first (the spec's message).
    await page.goto(path);
    const comments = page.locator('#comments');
    await comments.getByText(t(lang, 'comments.loginFirst'), { exact: true }).waitFor();
    await comments.getByText(t(lang, 'comments.none'), { exact: true }).waitFor();

    await signIn(page, lang, reviewer.phone, reviewer.password, { next: path });
    await page.waitForURL((u) => decodeURIComponent(u.pathname) === `/profile/${omid.slug}`);
    await comments.locator('#new-comment-text').waitFor();

    // A second tab on the same page, opened before the first review is posted.
    const stale = await ctx.newPage();
    await stale.goto(path);
    await stale.locator('#new-comment-text').waitFor();

    // Without a score the form says what is missing.
    await comments.locator('#new-comment-text').fill(review);
    await comments.getByRole('button', { name: t(lang, 'comments.submit'), exact: true }).click();
    await comments.getByText(t(lang, 'errors.enter', { des: t(lang, 'comments.scoreWord') }), { exact: true }).waitFor();
    // A person taps the fourth star (the radio button itself sits under it).
    await comments.getByTitle(t(lang, 'comments.scoreN', { n: digits(4, lang) }), { exact: true }).click();
    assert.equal(await comments.getByRole('radio', { name: t(lang, 'comments.scoreN', { n: digits(4, lang) }) }).isChecked(), true);
    await comments.getByRole('button', { name: t(lang, 'comments.submit'), exact: true }).click();
    await toast(page, t(lang, 'comments.thanks'));
    await comments.getByText(t(lang, 'comments.already'), { exact: true }).waitFor();
    const item = comments.locator('li.comment', { hasText: review });
    await item.waitFor();
    await item.getByText(reviewer.name, { exact: true }).waitFor();
    await item.getByRole('img', { name: t(lang, 'rating.bare', { score: digits(4, lang) }) }).waitFor();

    // The second review, from the tab that still shows the form: the server refuses it.
    await stale.locator('#new-comment-text').fill('دوباره می‌نویسم.');
    await stale.getByTitle(t(lang, 'comments.scoreN', { n: digits(5, lang) }), { exact: true }).click();
    const [refusal] = await Promise.all([
      stale.waitForResponse((r) => r.url().endsWith('/v1/comment/add')),
      stale.getByRole('button', { name: t(lang, 'comments.submit'), exact: true }).click(),
    ]);
    assert.equal(refusal.status(), 409);
    assert.equal((await refusal.json()).message, 'شما قبلاً نظر ثبت کرده‌اید', "the server's refusal is the spec's message");
    await stale.locator('#comments').getByText(t(lang, 'comments.already'), { exact: true }).waitFor();
    await w.shot(stale, '04-comments-fa-refused');
    await stale.close();

    // The score on the profile: 4 of 5 from one review.
    await page.reload();
    const rating = t(lang, 'rating.aria', { score: digits(4, lang), count: digits(1, lang) });
    await page.locator('.p-hero').getByRole('img', { name: rating }).waitFor();
    await comments.getByRole('img', { name: rating }).waitFor();
    const scored = await w.ok('POST', '/v1/user-technical/searchUserSlag', { slug: omid.slug });
    assert.equal(scored.score, 4);
    assert.equal(scored.count_scorer, 1);
  });
});
