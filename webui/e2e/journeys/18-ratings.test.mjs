// Journey 18: the star input follows the reading direction (REVIEW.md #2): in Persian the first
// star from the right is 1, the chosen stars fill from the right as every displayed rating does,
// and the "enter a score" error goes once a star is chosen. After posting, the summary and the
// page's header show the new score at once (#28), the notice reads "posted — edit", and the
// histogram (5★…1★) keeps one score's reviews, with newest / highest / lowest orders, and the
// "with photos" chip keeps the reviews that carry a photo (every review has text already).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { PHONE, World, JOURNEY_TIMEOUT, digits, photo, plumber, signIn, t, toast } from './harness.mjs';

let w;
let prof;
const owner = { phone: '09121110181', name: 'مینا صالحی', password: 'password-mina' };
const reviewer = { phone: '09121110182', name: 'کاوه نادری', password: 'password-kaveh' };
const earlier = [
  { phone: '09121110183', score: 5, text: 'عالی بود و سر وقت آمد.' },
  { phone: '09121110184', score: 3, text: 'کار را انجام داد ولی گران بود.' },
  { phone: '09121110185', score: 5, text: 'دومین بار است که می‌آید؛ راضی‌ام.' },
];

before(async () => {
  w = await World.start({ name: '18-ratings' });
  const o = await w.user(owner.phone, owner.name, owner.password);
  prof = await w.profile(o.token, plumber({ profile_name: 'لوله‌کشی مینا', social_network: [{ type: 'mobile', link: '09121110181' }] }));
  await w.cli('user', 'create', '--phone', reviewer.phone, '--name', reviewer.name, '--password', reviewer.password);
  // The first earlier review carries a photo, drawn in a throwaway page and uploaded as the app does.
  const ctx = await w.context();
  const page = await ctx.newPage();
  await page.goto('/offline');
  const file = await photo(page, { name: 'review.jpg' });
  await ctx.close();
  for (const [i, e] of earlier.entries()) {
    const u = await w.user(e.phone, `نظردهنده ${i + 1}`, `password-r${i}-long`);
    const images = [];
    if (i === 0) {
      const form = new FormData();
      form.append('uploadKey', 'comment');
      form.append('file', new Blob([file.buffer], { type: 'image/jpeg' }), file.name);
      const res = await fetch(`${w.base}/v1/upload-file`, { method: 'POST', body: form, headers: { authorization: `Bearer ${u.token}` } });
      const body = await res.json();
      assert.equal(res.status, 200, JSON.stringify(body));
      images.push(body.payload.address);
    }
    await w.ok('POST', '/v1/comment/add', { category_list: [101], description: e.text, score: e.score, user_technical_id: prof.id, images }, { token: u.token });
  }
});

after(async () => {
  await w?.stop();
});

/** The centre x of each of the five star labels, in the order 1…5. */
async function starCentres(form, lang) {
  const xs = [];
  for (let n = 1; n <= 5; n++) {
    const box = await form.getByTitle(t(lang, 'comments.scoreN', { n: digits(n, lang) }), { exact: true }).boundingBox();
    xs.push(box.x + box.width / 2);
  }
  return xs;
}

for (const lang of ['fa', 'en']) {
  test(`the first star in reading order is 1, the summary follows a new review, the histogram filters (${lang})`, { timeout: JOURNEY_TIMEOUT * 2 }, async () => {
    const path = `/profile/${encodeURIComponent(prof.slug)}`;
    const me = lang === 'fa' ? reviewer : { ...reviewer, phone: '09121110186' };
    if (lang === 'en') await w.cli('user', 'create', '--phone', me.phone, '--name', 'Kaveh', '--password', me.password);
    await w.journey(`18-ratings-${lang}`, { lang, viewport: PHONE }, async (page) => {
      await signIn(page, lang, me.phone, me.password, { next: path });
      await page.waitForURL((u) => decodeURIComponent(u.pathname) === `/profile/${prof.slug}`);
      const comments = page.locator('#comments');
      const form = comments.locator('form.comment-form');
      await form.locator('#new-comment-text').waitFor();

      // The stars run in the reading direction: 1 on the right in Persian, on the left in English.
      const xs = await starCentres(form, lang);
      for (let i = 1; i < 5; i++) {
        if (lang === 'fa') assert.ok(xs[i] < xs[i - 1], `fa: star ${i + 1} is left of star ${i}: ${xs}`);
        else assert.ok(xs[i] > xs[i - 1], `en: star ${i + 1} is right of star ${i}: ${xs}`);
      }

      // No score: the error shows; choosing a star clears it.
      await form.locator('#new-comment-text').fill(lang === 'fa' ? 'زود آمد ولی کار نیمه‌کاره ماند.' : 'Came early but left the job half done.');
      await form.getByRole('button', { name: t(lang, 'comments.submit'), exact: true }).click();
      const scoreError = form.getByText(t(lang, 'errors.enter', { des: t(lang, 'comments.scoreWord') }), { exact: true });
      await scoreError.waitFor();

      // The reader taps the star they see first: the right-most in Persian, the left-most in English.
      const labels = form.locator('.score-stars label');
      const boxes = await Promise.all([0, 1, 2, 3, 4].map((i) => labels.nth(i).boundingBox()));
      const first = lang === 'fa' ? boxes.reduce((a, b) => (b.x > a.x ? b : a)) : boxes.reduce((a, b) => (b.x < a.x ? b : a));
      await page.mouse.click(first.x + first.width / 2, first.y + first.height / 2);
      assert.equal(await form.getByRole('radio', { name: t(lang, 'comments.scoreN', { n: digits(1, lang) }) }).isChecked(), true, 'the first star seen is 1');
      await scoreError.waitFor({ state: 'detached' });
      // One star filled, and it is the one on the reading side.
      const on = form.locator('.score-stars label.on');
      assert.equal(await on.count(), 1);
      const onBox = await on.boundingBox();
      assert.equal(Math.round(onBox.x), Math.round(first.x));

      // Then 2: the two filled stars are the first two on the reading side.
      await form.getByTitle(t(lang, 'comments.scoreN', { n: digits(2, lang) }), { exact: true }).click();
      assert.equal(await on.count(), 2);
      await form.getByTitle(t(lang, 'comments.scoreN', { n: digits(1, lang) }), { exact: true }).click();

      const [posted] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/v1/comment/add')),
        form.getByRole('button', { name: t(lang, 'comments.submit'), exact: true }).click(),
      ]);
      assert.equal(posted.status(), 200);
      assert.equal(JSON.parse(posted.request().postData()).score, 1, 'the first star posts score 1');
      await toast(page, t(lang, 'comments.thanks'));

      // The summary follows at once, in the section and in the page's header, without a reload.
      const n = lang === 'fa' ? 4 : 5;
      const sum = lang === 'fa' ? 5 + 3 + 5 + 1 : 5 + 3 + 5 + 1 + 1;
      const mean = Math.round((sum / n) * 10) / 10;
      const rating = t(lang, 'rating.aria', { score: digits(mean, lang).replace('.', lang === 'fa' ? '٫' : '.'), count: n, n: digits(n, lang) });
      await comments.locator('#comments-summary').getByRole('img', { name: rating }).waitFor();
      await page.locator('.p-hero').getByRole('img', { name: rating }).waitFor();
      // The notice says it was posted and offers to edit it, not a rebuke.
      const notice = comments.locator('#my-comment-notice');
      await notice.getByText(t(lang, 'comments.already', { score: digits(1, lang) }), { exact: true }).waitFor();
      await notice.getByRole('button', { name: t(lang, 'comments.editMine'), exact: true }).click();
      const edit = comments.locator('#edit-comment');
      await edit.waitFor();
      assert.equal(await comments.getByRole('radio', { name: t(lang, 'comments.scoreN', { n: digits(1, lang) }) }).first().isChecked(), true);
      await comments.getByRole('button', { name: t(lang, 'common.cancel'), exact: true }).click();
      await notice.waitFor();

      // The histogram: the 1★ row counts the new review(s); choosing it keeps only 1★ reviews.
      const ones = lang === 'fa' ? 1 : 2;
      const row1 = comments.locator('.hist-row[data-score="1"]');
      assert.equal((await row1.locator('.hist-c').textContent()).trim(), digits(ones, lang));
      assert.equal((await comments.locator('.hist-row[data-score="5"] .hist-c').textContent()).trim(), digits(2, lang));
      await row1.click();
      assert.equal(await row1.getAttribute('aria-pressed'), 'true');
      await comments.locator('li.comment[data-score="5"]').first().waitFor({ state: 'detached' });
      const kept = await comments.locator('li.comment').evaluateAll((els) => els.map((e) => e.dataset.score));
      assert.deepEqual(kept, Array(ones).fill('1'));
      // Clearing the filter shows them all again.
      await comments.locator('#comment-score-clear').click();
      await comments.locator('li.comment[data-score="5"]').first().waitFor();

      // Orders: highest first, then lowest first.
      const scoresShown = () => comments.locator('li.comment').evaluateAll((els) => els.map((e) => Number(e.dataset.score)));
      await comments.locator('#comment-sort').selectOption('highest');
      await page.waitForFunction(() => document.querySelector('#comments li.comment')?.dataset.score === '5');
      let s = await scoresShown();
      assert.deepEqual(s, [...s].sort((a, b) => b - a), `highest first: ${s}`);
      await comments.locator('#comment-sort').selectOption('lowest');
      await page.waitForFunction(() => document.querySelector('#comments li.comment')?.dataset.score === '1');
      s = await scoresShown();
      assert.deepEqual(s, [...s].sort((a, b) => a - b), `lowest first: ${s}`);

      // With photos: the chip counts the one review with a photo; on, it keeps that review and
      // drops the ones without; off, they come back.
      const withPhotos = comments.locator('#comment-with-photos');
      assert.equal((await withPhotos.textContent()).trim(), t(lang, 'comments.withPhotos', { c: digits(1, lang) }));
      assert.equal(await withPhotos.getAttribute('aria-pressed'), 'false');
      const withPhoto = comments.locator('li.comment', { hasText: earlier[0].text });
      const without = comments.locator('li.comment', { hasText: earlier[1].text });
      await without.waitFor();
      const [filtered] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/v1/comment/get') && JSON.parse(r.request().postData()).with_photos === true),
        withPhotos.click(),
      ]);
      assert.equal(filtered.status(), 200);
      await without.waitFor({ state: 'detached' });
      assert.equal(await withPhotos.getAttribute('aria-pressed'), 'true');
      assert.equal(await comments.locator('li.comment').count(), 1, 'only the review with a photo stays');
      await withPhoto.locator('.gallery-item').first().waitFor();
      await withPhotos.click();
      await without.waitFor();
      assert.equal(await withPhotos.getAttribute('aria-pressed'), 'false');
    });
  });
}

test('a bad order or score for comment/get is a clear 400', async () => {
  const bad = await w.api('POST', '/v1/comment/get', { user_technical_id: prof.id, sort: 'random' }, { lang: 'en' });
  assert.equal(bad.status, 400);
  assert.match(String(bad.message), /order of the comments/);
  const notBool = await w.api('POST', '/v1/comment/get', { user_technical_id: prof.id, with_photos: 'yes' }, { lang: 'fa' });
  assert.equal(notBool.status, 400);
  assert.match(String(notBool.message), /فیلتر نظرهای عکس‌دار/);
});
