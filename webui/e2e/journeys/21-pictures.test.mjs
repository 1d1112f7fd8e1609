// Journey 21: pictures. A business without photos shows a placeholder drawn for its trade (never
// the Kardan logo) on its card and page, and its owner is nudged in the Desk to add one; a card
// shows the first photo of a business that has some; the portfolio opens full-screen and is
// browsed by swipe and arrow keys, zoomed by pinch, closed by Escape and by Back; a review carries
// a photo, which the admins see in the comment queue and which goes when they hide the review.
// Each step runs in Persian and in English (the viewer follows the reading direction).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, PHONE, axeCheck, digits, photo, plumber, signIn, t, toast } from './harness.mjs';

let w;
let bare;
let shown;
let photos;
const owner = { phone: '09121110211', name: 'امید رضایی', password: 'password-omid' };
const owner2 = { phone: '09121110212', name: 'کیان احمدی', password: 'password-kian' };
const reviewers = {
  fa: { phone: '09121110213', name: 'رضا کریمی', password: 'password-reza' },
  en: { phone: '09121110214', name: 'Reza Karimi', password: 'password-reza-en' },
};

/** Uploads a JPEG drawn by the browser through /v1/upload-file, as the app does. */
async function upload(page, token, key, name) {
  const file = await photo(page, { name });
  const form = new FormData();
  form.append('uploadKey', key);
  form.append('file', new Blob([file.buffer], { type: 'image/jpeg' }), name);
  const res = await fetch(`${w.base}/v1/upload-file`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.payload.address;
}

before(async () => {
  w = await World.start({ name: '21-pictures' });
  const o = await w.user(owner.phone, owner.name, owner.password);
  bare = await w.profile(o.token, plumber());
  const o2 = await w.user(owner2.phone, owner2.name, owner2.password);
  // Photos drawn in a throwaway page: the portfolio's, for the second business.
  const ctx = await w.context();
  const page = await ctx.newPage();
  await page.goto('/offline');
  photos = [await upload(page, o2.token, 'userTechnical', 'a.jpg'), await upload(page, o2.token, 'userTechnical', 'b.jpg')];
  await ctx.close();
  shown = await w.profile(o2.token, plumber({ profile_name: 'برق‌کاری کیان', range_worker: 1, category_list: [102], portfolio_images: photos }));
  for (const r of Object.values(reviewers)) await w.cli('user', 'create', '--phone', r.phone, '--name', r.name, '--password', r.password);
  await w.searchable({ city_id: 1, skip: 0, take: 20 }, (r) => (r?.profiles ?? []).length >= 2, 'both businesses');
});

after(async () => {
  await w?.stop();
});

for (const lang of ['fa', 'en']) {
  test(`placeholders for the trade, the first photo on cards, the owner nudged (${lang})`, { timeout: JOURNEY_TIMEOUT }, async () => {
    await w.journey(`21-placeholders-${lang}`, { lang, viewport: PHONE, bypassCSP: true }, async (page) => {
      await page.goto('/search/tehran');
      const bareCard = page.locator('article.pcard', { hasText: bare.profile_name });
      const shownCard = page.locator('article.pcard', { hasText: shown.profile_name });
      await bareCard.waitFor();
      // The business without photos: its trade's icon on its trade's colour, not the logo.
      const ph = bareCard.locator('.pcard-img.trade-ph');
      await ph.waitFor();
      assert.equal(await ph.getAttribute('data-trade-icon'), 'wrench');
      assert.match(await ph.getAttribute('style'), /--ph-hue:\s*200/);
      // The one with photos shows its first.
      assert.equal(new URL(await shownCard.locator('img.pcard-img').getAttribute('src'), w.base).pathname, photos[0]);
      assert.equal(await page.locator('img[src*="logo.png"]').count(), 0, 'no card shows the Kardan logo as a business picture');

      await page.goto(`/profile/${encodeURIComponent(bare.slug)}`);
      const avatar = page.getByRole('img', { name: t(lang, 'profile.picture', { name: bare.profile_name }) });
      await avatar.waitFor();
      assert.match(await avatar.getAttribute('class'), /trade-ph/);
      assert.equal(await page.locator('.p-logo').count(), 0, 'no logo badge without a logo');
      assert.equal(await page.locator('img[src*="logo.png"]').count(), 0);
      await axeCheck(page, `21-placeholder-profile-${lang}`);
    });
    await w.journey(`21-nudge-${lang}`, { lang, viewport: PHONE }, async (page) => {
      await signIn(page, lang, owner.phone, owner.password, { next: '/dashboard' });
      const nudge = page.getByText(t(lang, 'desk.photoNudge'), { exact: true });
      await nudge.waitFor();
      await page.locator('.mp-photo-nudge').getByRole('link', { name: t(lang, 'desk.photoNudgeAction') }).click();
      await page.waitForURL((u) => u.pathname === `/dashboard/profiles/${bare.id}`);
    });
  });
}

for (const lang of ['fa', 'en']) {
  test(`the portfolio full-screen: swipe, arrows, pinch, Escape and Back (${lang})`, { timeout: JOURNEY_TIMEOUT }, async () => {
    await w.journey(`21-viewer-${lang}`, { lang, viewport: PHONE, bypassCSP: true }, async (page) => {
      const path = `/profile/${encodeURIComponent(shown.slug)}`;
      await page.goto(path);
      const first = page.getByRole('button', { name: t(lang, 'profile.photoOf', { name: shown.profile_name, n: digits(1, lang), total: digits(2, lang) }) });
      await first.click();
      const viewer = page.locator('dialog.viewer[open]');
      await viewer.waitFor();
      const count = viewer.locator('.viewer-count');
      const at = async (n) => assert.equal((await count.textContent()).replace(/\s/g, ''), `${digits(n, lang)}/${digits(2, lang)}`);
      await at(1);
      // Full-screen: the viewer covers the whole window.
      const box = await viewer.boundingBox();
      assert.ok(box.width >= PHONE.width - 1 && box.height >= PHONE.height - 1, `viewer ${JSON.stringify(box)}`);
      // Focus stays inside the modal viewer.
      assert.equal(await page.evaluate(() => !!document.activeElement?.closest('dialog.viewer')), true);
      await axeCheck(page, `21-viewer-${lang}`);

      // The next photo comes from the reading direction's end: in Persian the left arrow key or the
      // photo dragged right, in English the right arrow key or the photo dragged left.
      const [next, prev] = lang === 'fa' ? ['ArrowLeft', 'ArrowRight'] : ['ArrowRight', 'ArrowLeft'];
      await page.keyboard.press(next);
      await at(2);
      await page.keyboard.press(prev);
      await at(1);
      const img = viewer.locator('.viewer-img');
      const ib = await img.boundingBox();
      const y = ib.y + ib.height / 2;
      const [from, to] = lang === 'fa' ? [ib.x + 60, ib.x + 260] : [ib.x + ib.width - 60, ib.x + ib.width - 260];
      await page.mouse.move(from, y);
      await page.mouse.down();
      await page.mouse.move(to, y, { steps: 6 });
      await page.mouse.up();
      await at(2);
      assert.equal(new URL(await viewer.locator('.viewer-img').getAttribute('src'), w.base).pathname, photos[1]);

      // Two fingers spread apart zoom in.
      const cdp = await page.context().newCDPSession(page);
      const cx = PHONE.width / 2;
      const cy = PHONE.height / 2;
      const touch = (type, d) =>
        cdp.send('Input.dispatchTouchEvent', {
          type,
          touchPoints: type === 'touchEnd' ? [] : [{ x: cx - d, y: cy, id: 1 }, { x: cx + d, y: cy, id: 2 }],
        });
      await touch('touchStart', 30);
      for (const d of [50, 80, 110, 140]) await touch('touchMove', d);
      await touch('touchEnd', 0);
      const scale = await viewer.locator('.viewer-img').evaluate((el) => Number(/scale\(([\d.]+)\)/.exec(el.style.transform)?.[1] ?? 1));
      assert.ok(scale > 1.5, `pinch zoomed to ${scale}`);

      // Escape closes it and focus goes back to the page.
      await page.keyboard.press('Escape');
      await viewer.waitFor({ state: 'detached' }).catch(() => undefined);
      assert.equal(await page.locator('dialog.viewer[open]').count(), 0);
      assert.equal(decodeURIComponent(new URL(page.url()).pathname), `/profile/${shown.slug}`);

      // Back closes it too, and leaves the visitor on the profile.
      await first.click();
      await viewer.waitFor();
      await page.goBack();
      await page.locator('dialog.viewer[open]').waitFor({ state: 'detached' });
      assert.equal(decodeURIComponent(new URL(page.url()).pathname), `/profile/${shown.slug}`);
      await first.waitFor();
    });
  });
}

for (const lang of ['fa', 'en']) {
  test(`a review with a photo, seen in the comment queue and hidden with the review (${lang})`, { timeout: JOURNEY_TIMEOUT * 2 }, async () => {
    // Each language reviews its own business with its own reviewer: one review per person and business.
    const target = lang === 'fa' ? bare : shown;
    const reviewer = reviewers[lang];
    const path = `/profile/${encodeURIComponent(target.slug)}`;
    const text = lang === 'fa' ? 'لوله را سریع باز کرد؛ عکس کار تمام‌شده را گذاشتم.' : 'Fixed the wiring fast; here is a photo of the finished job.';
    await w.journey(`21-review-photo-${lang}`, { lang }, async (page) => {
      await signIn(page, lang, reviewer.phone, reviewer.password, { next: path });
      const comments = page.locator('#comments');
      await comments.locator('#new-comment-text').fill(text);
      await comments.getByRole('radio', { name: t(lang, 'comments.scoreN', { n: digits(5, lang) }) }).check({ force: true });
      const uploaded = page.waitForResponse((r) => r.url().endsWith('/v1/upload-file') && r.request().method() === 'POST');
      await comments.locator('#new-comment-photos').setInputFiles(await photo(page, { name: 'done.jpg' }));
      assert.equal((await uploaded).status(), 200);
      await comments.getByRole('img', { name: t(lang, 'reviewPhotos.photoN', { n: digits(1, lang) }) }).waitFor();
      await comments.getByRole('button', { name: t(lang, 'comments.submit'), exact: true }).click();
      await toast(page, t(lang, 'comments.thanks'));
      const item = comments.locator('li.comment', { hasText: text });
      await item.waitFor();
      const thumb = item.getByRole('button', { name: t(lang, 'profile.photoOf', { name: reviewer.name, n: digits(1, lang), total: digits(1, lang) }) });
      await thumb.click();
      await page.locator('dialog.viewer[open] .viewer-img').waitFor();
      await page.keyboard.press('Escape');
    });
    await w.journey(`21-review-photo-admin-${lang}`, { lang }, async (page) => {
      await signIn(page, lang, w.admin.phone, w.admin.password, { next: '/dashboard/admin/comments' });
      const row = page.locator('li', { hasText: text }).last();
      await row.waitFor();
      await row.locator('.gallery-item img').waitFor();
      await row.getByRole('button', { name: t(lang, 'deskAdmin.do.Hide') }).click();
      await page.locator('dialog[open]').getByRole('button', { name: t(lang, 'deskAdmin.do.Hide'), exact: true }).click();
      await toast(page, t(lang, 'deskAdmin.done'));
      // The public no longer sees the review or its photo.
      const got = await w.ok('POST', '/v1/comment/get', { user_technical_id: target.id, skip: 0, take: 20 });
      assert.equal((got.comments ?? []).filter((c) => c.description === text).length, 0, JSON.stringify(got));
    });
    await w.journey(`21-review-photo-visitor-${lang}`, { lang }, async (page) => {
      await page.goto(path);
      await page.locator('#comments').getByText(t(lang, 'comments.none'), { exact: true }).waitFor();
      assert.equal(await page.locator('li.comment', { hasText: text }).count(), 0);
      assert.equal(await page.locator('#comments .gallery-item').count(), 0);
    });
  });
}
