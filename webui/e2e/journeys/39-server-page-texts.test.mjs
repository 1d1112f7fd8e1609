// Journey 39: what the server writes is what the app shows. The profile page the server writes
// for readers without the app (api/page_content.go) and the page the app draws after it starts
// carry the same name, trade and city, rating, services with their prices, the week's hours and
// the address, letter for letter, in Persian and under /en in English.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { JOURNEY_TIMEOUT, World, plumber } from './harness.mjs';

let w;
let omid;

before(async () => {
  w = await World.start({ name: '39-server-page-texts' });
  const owner = await w.user('09123910001', 'امید رضایی', 'password-omid');
  omid = await w.profile(
    owner.token,
    plumber({
      services: [
        { title: 'باز کردن گرفتگی لوله', price: 1350000, description: 'با فنر برقی' },
        { title: 'نشت‌یابی', price: 800000, description: '' },
        { title: 'مشاوره تلفنی', price: 0, description: '' },
      ],
    }),
  );
  for (const [phone, score] of [
    ['09123910002', 5],
    ['09123910003', 4],
  ]) {
    const critic = await w.user(phone, 'منتقد', `password-${phone}`);
    await w.ok('POST', '/v1/comment/add', { category_list: [101], description: 'کار تمیز و به‌موقع', score, user_technical_id: omid.id }, { token: critic.token });
  }
});

after(async () => {
  await w?.stop();
});

/** The profile's main texts as the page shows them; the rating is the stars' spoken label in the app. */
function texts() {
  const text = (el) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const stars = document.querySelector('.p-badges .stars');
  return {
    name: text(document.querySelector('.p-title h1')),
    where: text(document.querySelector('.p-title > p.muted')),
    rating: stars?.getAttribute('aria-label') || text(stars),
    services: [...document.querySelectorAll('.services .service')].map((li) => [text(li.querySelector('strong')), text(li.querySelector('.price'))]),
    hours: [...document.querySelectorAll('.hours-table tr')].map((tr) => [text(tr.querySelector('th')), text(tr.querySelector('td'))]),
    address: text(document.querySelector('.p-address')),
  };
}

for (const lang of ['fa', 'en']) {
  test(`the server's profile says what the app says (${lang})`, { timeout: JOURNEY_TIMEOUT }, async () => {
    await w.journey(`39-server-page-texts-${lang}`, { lang }, async (page) => {
      const path = `${lang === 'en' ? '/en' : ''}/profile/${encodeURIComponent(omid.slug)}`;
      await page.route('**/assets/*.js', (r) => r.abort());
      await page.goto(path);
      assert.equal(await page.locator('main.ssr').count(), 1, 'the server page is shown');
      const server = await page.evaluate(texts);
      await page.unroute('**/assets/*.js');

      await page.goto(path);
      await page.locator('.hours-table').waitFor();
      await page.waitForFunction(() => !document.querySelector('main.ssr'));
      const app = await page.evaluate(texts);
      console.log(`journey 39 ${lang}: ${JSON.stringify(app)}`);
      assert.equal(server.services.length, 3);
      assert.equal(server.hours.length, 7);
      assert.deepEqual(server, app);
    });
  });
}
