// Journey 38: the app takes over the server's page without a jump. The server writes a profile
// in the app's own shape and classes (api/page_content.go) with the route's styles linked, so the
// boxes a visitor sees before the script runs are where the app draws them: the name, the hero
// and the services stay put when the app replaces the root, on a phone and on a desktop, and the
// page's cumulative layout shift (Chromium's layout-shift entries) stays under 0.1, Google's
// "good" threshold. The figures are printed for the closing note.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, JOURNEY_TIMEOUT, PHONE, World, plumber } from './harness.mjs';

let w;
let omid;

before(async () => {
  w = await World.start({ name: '38-server-page-layout' });
  const owner = await w.user('09123810001', 'امید رضایی', 'password-omid');
  omid = await w.profile(owner.token, plumber());
  const critic = await w.user('09123810002', 'سارا', 'password-sara');
  await w.ok('POST', '/v1/comment/add', { category_list: [101], description: 'کار تمیز و به‌موقع', score: 5, user_technical_id: omid.id }, { token: critic.token });
});

after(async () => {
  await w?.stop();
});

/** The boxes that must not move, in page coordinates. */
function boxes() {
  const box = (sel) => {
    const el = document.querySelector(sel);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return { top: Math.round(r.top + scrollY), left: Math.round(r.left), width: Math.round(r.width), height: Math.round(r.height) };
  };
  // The name's own letters, not its element: a block's width follows its siblings.
  const text = (sel) => {
    const el = document.querySelector(sel);
    if (!el) return null;
    const range = document.createRange();
    range.selectNodeContents(el);
    const r = range.getBoundingClientRect();
    return { top: Math.round(r.top + scrollY), left: Math.round(r.left), width: Math.round(r.width), height: Math.round(r.height) };
  };
  return {
    name: text('.p-title h1'),
    hero: box('.p-hero'),
    actions: box('.p-actions'),
    services: box('.services'),
  };
}

for (const [label, viewport] of [['phone', PHONE], ['desktop', DESKTOP]]) {
  test(`the app takes the profile over in place (${label})`, { timeout: JOURNEY_TIMEOUT }, async () => {
    await w.journey(`38-server-page-layout-${label}`, { lang: 'fa', viewport }, async (page) => {
      const path = `/profile/${encodeURIComponent(omid.slug)}`;

      // The server's page alone: the app's script never arrives.
      await page.route('**/assets/*.js', (r) => r.abort());
      await page.goto(path);
      await page.evaluate(() => document.fonts.ready);
      assert.equal(await page.locator('main.ssr').count(), 1, 'the server page is shown');
      const server = await page.evaluate(boxes);
      await page.unroute('**/assets/*.js');

      // The same page with its app, layout shifts counted from the first paint.
      await page.addInitScript(() => {
        window.__cls = 0;
        window.__shifts = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) {
            if (e.hadRecentInput) continue;
            window.__cls += e.value;
            window.__shifts.push({ value: e.value, sources: (e.sources || []).map((s) => s.node?.className || s.node?.nodeName || '?') });
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await page.goto(path);
      await page.locator('.hours-table').waitFor();
      await page.waitForFunction(() => !document.querySelector('main.ssr'));
      await page.evaluate(() => document.fonts.ready);
      await page.waitForTimeout(500);
      const app = await page.evaluate(boxes);
      const cls = await page.evaluate(() => window.__cls);
      const shifts = await page.evaluate(() => window.__shifts);
      console.log(`journey 38 ${label}: server ${JSON.stringify(server)}`);
      console.log(`journey 38 ${label}: app    ${JSON.stringify(app)}`);
      console.log(`journey 38 ${label}: CLS ${cls.toFixed(4)} from ${shifts.length} shifts ${JSON.stringify(shifts)}`);

      for (const key of ['name', 'hero', 'actions', 'services']) {
        assert.ok(server[key] && app[key], `${key} is on both pages`);
        assert.ok(Math.abs(server[key].top - app[key].top) <= 4, `${key} moved from ${server[key].top} to ${app[key].top}`);
        assert.ok(Math.abs(server[key].left - app[key].left) <= 4, `${key} moved sideways from ${server[key].left} to ${app[key].left}`);
        assert.ok(Math.abs(server[key].width - app[key].width) <= 4, `${key} width ${server[key].width} → ${app[key].width}`);
      }
      for (const key of ['hero', 'actions']) {
        assert.ok(Math.abs(server[key].height - app[key].height) <= 8, `${key} height ${server[key].height} → ${app[key].height}`);
      }
      assert.ok(cls < 0.1, `cumulative layout shift ${cls}`);
    });
  });
}
