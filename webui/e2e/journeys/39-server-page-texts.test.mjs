// Journey 39: what the server writes is what the app shows. The profile page the server writes
// for readers without the app (api/page_content.go) and the page the app draws after it starts
// carry the same name, trade and city, rating, services with their prices, the week's hours and
// the address, letter for letter, in Persian and under /en in English. So do a category-in-city
// search page (heading, count, and each result's name, link, field and city, and rating) and an
// article (title, writer, summary and body).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { JOURNEY_TIMEOUT, World, plumber } from './harness.mjs';

let w;
let omid;
let blog;

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
  // A second plumber in the city, not yet rated ("new"), so the results hold both kinds of stars.
  const other = await w.user('09123910004', 'رضا کاظمی', 'password-reza');
  await w.profile(other.token, plumber({ profile_name: 'تأسیسات کاظمی', social_network: [{ type: 'mobile', link: '09123910004' }] }));
  await w.searchable({ city_slag: 'tehran', category_slag: 'plumber' }, (r) => r.count === 2, 'both plumbers');
  blog = await w.ok(
    'POST',
    '/v1/blog/add',
    {
      title: 'پیش از تماس با لوله‌کش',
      summary: 'چند پرسش که هزینه را روشن می‌کند',
      content: '<p>پیش از آمدن استادکار <strong>قیمت</strong> را بپرسید.</p><ul><li>اجرت</li><li>قطعه</li></ul>',
      category_list: [101],
      isDraft: false,
    },
    { token: owner.token },
  );
  await w.ok('PUT', `/v1/admin/blog/${blog.id}/status`, { status: 'Accepted', description: '' }, { token: await w.adminToken() });
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

/** A search page's texts: heading, count, and each card's name, link, field and city, and stars' label. */
function searchTexts() {
  const text = (el) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
  return {
    heading: text(document.querySelector('h1')),
    count: text(document.querySelector('.result-count')),
    cards: [...document.querySelectorAll('.results .pcard')].map((c) => [
      text(c.querySelector('.pcard-name')),
      decodeURIComponent(new URL(c.querySelector('a.pcard-link').href).pathname),
      text(c.querySelector('.pcard-field')),
      c.querySelector('.stars')?.getAttribute('aria-label'),
    ]),
  };
}

/** An article's texts: title, writer, summary and body. */
function postTexts() {
  const text = (el) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
  return {
    title: text(document.querySelector('.post h1')),
    writer: text(document.querySelector('.post-meta > span')),
    summary: text(document.querySelector('.post-summary')),
    body: text(document.querySelector('.post-body')),
  };
}

/** The page as the server writes it (no script), then as the app draws it once `ready` holds. */
async function bothTexts(page, path, read, ready) {
  await page.route('**/assets/*.js', (r) => r.abort());
  await page.goto(path);
  assert.equal(await page.locator('main.ssr').count(), 1, 'the server page is shown');
  const server = await page.evaluate(read);
  await page.unroute('**/assets/*.js');
  await page.goto(path);
  await page.waitForFunction(() => !document.querySelector('main.ssr'));
  await page.waitForFunction(ready, server);
  return { server, app: await page.evaluate(read) };
}

for (const lang of ['fa', 'en']) {
  test(`the server's search page and article say what the app says (${lang})`, { timeout: JOURNEY_TIMEOUT }, async () => {
    await w.journey(`39-server-search-texts-${lang}`, { lang }, async (page) => {
      const prefix = lang === 'en' ? '/en' : '';
      const search = await bothTexts(page, `${prefix}/search/tehran/plumber`, searchTexts, (s) => document.querySelectorAll('.results .pcard').length === s.cards.length && !!document.querySelector('.result-count')?.textContent.trim());
      console.log(`journey 39 ${lang} search: ${JSON.stringify(search.app)}`);
      assert.equal(search.server.cards.length, 2);
      assert.deepEqual(search.server, search.app);

      const post = await bothTexts(page, `${prefix}/blog/${encodeURIComponent(blog.slug)}`, postTexts, () => !!document.querySelector('.post-body'));
      console.log(`journey 39 ${lang} article: ${JSON.stringify(post.app)}`);
      assert.ok(post.server.title && post.server.writer && post.server.summary && post.server.body);
      assert.deepEqual(post.server, post.app);
    });
  });
}
