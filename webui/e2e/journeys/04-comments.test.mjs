// Journey 4: another user reviews a profile with a score; a second review is refused with the
// spec's message, and what was typed is kept and can replace the first; the score shows on the
// profile; the owner, who cannot review their own page, replies on it, and a visitor reads the reply.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, digits, exact, plumber, signIn, t, toast } from './harness.mjs';

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

test('a review with a score, a refused second one kept and used, the score on the profile, the owner\'s reply (fa)', { timeout: JOURNEY_TIMEOUT * 2 }, async () => {
  const lang = 'fa';
  const path = `/profile/${encodeURIComponent(omid.slug)}`;
  const review = 'کارش تمیز و سریع بود، فقط کمی دیر رسید.';
  const second = 'دوباره می‌نویسم: این بار سر وقت آمد و کار را تمیز تحویل داد.';
  const reply = 'ممنون از لطف شما؛ دفعهٔ بعد حتماً زودتر می‌رسیم.';
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
    await comments.getByText(t(lang, 'comments.already', { score: digits(4, lang) }), { exact: true }).waitFor();
    const item = comments.locator('li.comment', { hasText: review });
    await item.waitFor();
    await item.getByText(reviewer.name, { exact: true }).waitFor();
    await item.getByRole('img', { name: t(lang, 'rating.bare', { score: digits(4, lang) }) }).waitFor();

    // The second review, from the tab that still shows the form: the server refuses it, the
    // message shows and the text stays, with the offer to replace the first review with it.
    const staleComments = stale.locator('#comments');
    await stale.locator('#new-comment-text').fill(second);
    await stale.getByTitle(t(lang, 'comments.scoreN', { n: digits(5, lang) }), { exact: true }).click();
    const [refusal] = await Promise.all([
      stale.waitForResponse((r) => r.url().endsWith('/v1/comment/add')),
      staleComments.getByRole('button', { name: t(lang, 'comments.submit'), exact: true }).click(),
    ]);
    assert.equal(refusal.status(), 409);
    const refused = 'شما قبلاً نظر ثبت کرده‌اید';
    assert.equal((await refusal.json()).message, refused, "the server's refusal is the spec's message");
    await staleComments.getByRole('alert').filter({ hasText: exact(refused) }).waitFor();
    await staleComments.getByText(t(lang, 'comments.conflict'), { exact: true }).waitFor();
    assert.equal(await stale.locator('#new-comment-text').inputValue(), second, 'the refused text is kept');
    assert.equal(await staleComments.getByRole('radio', { name: t(lang, 'comments.scoreN', { n: digits(5, lang) }) }).isChecked(), true);
    // The earlier review shows in the list of that tab now.
    await staleComments.locator('li.comment', { hasText: review }).waitFor();
    await w.shot(stale, '04-comments-fa-refused');
    await staleComments.getByRole('button', { name: t(lang, 'comments.replaceMine'), exact: true }).click();
    await toast(stale, t(lang, 'comments.updated'));
    await staleComments.getByText(t(lang, 'comments.already', { score: digits(5, lang) }), { exact: true }).waitFor();
    await staleComments.locator('li.comment', { hasText: second }).waitFor();
    assert.equal(await staleComments.locator('li.comment', { hasText: review }).count(), 0, 'the first review was replaced');
    await stale.close();

    // The score on the profile: 5 of 5 from one review (the replaced one).
    await page.reload();
    const rating = t(lang, 'rating.aria', { score: digits(5, lang), count: 1, n: digits(1, lang) });
    await page.locator('.p-hero').getByRole('img', { name: rating }).waitFor();
    await comments.getByRole('img', { name: rating }).waitFor();
    await comments.locator('li.comment', { hasText: second }).getByRole('img', { name: t(lang, 'rating.bare', { score: digits(5, lang) }) }).waitFor();
    const scored = await w.ok('POST', '/v1/user-technical/searchUserSlag', { slug: omid.slug });
    assert.equal(scored.score, 5);
    assert.equal(scored.count_scorer, 1);
  });

  // The owner cannot review their own page (no form: the server would answer 403) but replies.
  await w.journey('04-comments-fa-owner', { lang }, async (page, ctx) => {
    await signIn(page, lang, owner.phone, owner.password, { next: path });
    await page.waitForURL((u) => decodeURIComponent(u.pathname) === `/profile/${omid.slug}`);
    const comments = page.locator('#comments');
    await comments.getByText(t(lang, 'comments.ownProfile'), { exact: true }).waitFor();
    assert.equal(await page.locator('#new-comment-text').count(), 0, 'no review form on one\'s own page');
    const item = comments.locator('li.comment', { hasText: second });
    await item.getByRole('button', { name: t(lang, 'comments.replyAction'), exact: true }).click();
    const box = item.getByLabel(t(lang, 'comments.replyText'), { exact: true });
    await box.waitFor();

    // An empty reply is stopped in the page; one letter is refused by the server, in Persian.
    const send = item.getByRole('button', { name: t(lang, 'comments.replySend'), exact: true });
    await send.click();
    await item.getByRole('alert').filter({ hasText: exact(t(lang, 'errors.enter', { des: t(lang, 'comments.replyWord') })) }).waitFor();
    await box.fill('م');
    const [short] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/v1/comment/reply')), send.click()]);
    assert.equal(short.status(), 400);
    const shortMessage = (await short.json()).message;
    const shown = Array.isArray(shortMessage) ? shortMessage[0] : shortMessage;
    assert.match(shown, /پاسخ/, `the server's refusal is in Persian: ${shown}`);
    await item.getByRole('alert').filter({ hasText: exact(shown) }).waitFor();
    assert.equal(await box.inputValue(), 'م', 'the refused reply is kept');
    await w.shot(page, '04-comments-fa-reply-refused');

    await box.fill(reply);
    const [saved] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/v1/comment/reply')), send.click()]);
    assert.equal(saved.status(), 200);
    assert.equal((await saved.json()).payload.reply.description, reply);
    await toast(page, t(lang, 'comments.replySaved'));
    const answer = item.locator('.comment-reply');
    await answer.getByText(t(lang, 'comments.reply'), { exact: true }).waitFor();
    await answer.getByText(reply, { exact: true }).waitFor();
    await item.getByRole('button', { name: t(lang, 'comments.editReply'), exact: true }).waitFor();
    // Still signed in: the reply did not cost the session.
    const cookies = (await ctx.cookies()).map((c) => c.name);
    assert.ok(cookies.includes('token') && cookies.includes('id'), `the session cookies are still there: ${cookies.join(', ')}`);
    assert.equal(decodeURIComponent(new URL(page.url()).pathname), `/profile/${omid.slug}`);
  });

  // A visitor, signed out, reads the review and the owner's reply.
  await w.journey('04-comments-fa-visitor', { lang }, async (page) => {
    await page.goto(path);
    const item = page.locator('#comments li.comment', { hasText: second });
    await item.getByText(reviewer.name, { exact: true }).waitFor();
    const answer = item.locator('.comment-reply');
    await answer.getByText(t(lang, 'comments.reply'), { exact: true }).waitFor();
    await answer.getByText(reply, { exact: true }).waitFor();
    // Only the report button (journey 12): no edit or reply for a visitor.
    assert.equal(await item.getByRole('button').filter({ hasNotText: t(lang, 'report.action') }).count(), 0, 'a visitor has nothing else to press on a review');
  });
});
