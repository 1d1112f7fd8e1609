// Journey 15: the spec's own client works unchanged against the real binary (its exact bodies:
// radius 5000 without a point, id=0, category "", slag, a wrong method), and a page arrives in
// the visitor's language and direction from its first byte: from Accept-Language for a visitor
// who never chose, from the language cookie once they choose, with no flip when the app starts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, DESKTOP, JOURNEY_TIMEOUT, PHONE, plumber, t } from './harness.mjs';

let w;

before(async () => {
  w = await World.start({ name: '15-spec-client' });
});

after(async () => {
  await w?.stop();
});

test("the spec's client's exact bodies are answered", { timeout: JOURNEY_TIMEOUT }, async () => {
  const owner = await w.user('09121500001', 'امید', 'password-15-a');
  const critic = await w.user('09121500002', 'سارا', 'password-15-b');
  // Hours on whole minutes that are not quarter hours (08:10 to 13:55) are stored as sent.
  const p = await w.profile(owner.token, plumber({ hours_of_work: { saturday: { boarding: false, closed: false, time: [{ open: 29400, close: 50100 }] } } }));
  assert.deepEqual(p.hours_of_work.saturday.time, [{ open: 29400, close: 50100 }]);

  // searchUser as the spec's client sends every query search: radius 5000, no point.
  const body = { take: 20, skip: 0, category_slag: '', city_slag: 'iran', lat: null, long: null, radius: 5000, minLevel_score: 0, min_score: 0, search_txt: 'لوله' };
  const found = await w.searchable(body, (r) => r.profiles.some((x) => x.id === p.id), 'the plumber by text with radius 5000 and no point');
  assert.ok(found.count >= 1);
  await w.searchable({ ...body, lat: 0, long: 0 }, (r) => r.profiles.some((x) => x.id === p.id), 'lat/long 0 as no point');
  const { lat: _lat, long: _long, ...noPoint } = body;
  await w.searchable(noPoint, (r) => r.profiles.some((x) => x.id === p.id), 'lat/long absent');
  for (const [half, want] of [[{ lat: 35.7, long: null }, 'Enter longitude'], [{ lat: 0, long: 51.4 }, 'Enter latitude']]) {
    const a = await w.api('POST', '/v1/user-technical/searchUser', { ...body, ...half }, { lang: 'en' });
    assert.equal(a.status, 400, `half a point ${JSON.stringify(half)}: ${a.text}`);
    assert.deepEqual(a.message, [want]);
  }

  // The public read form keeps every key: numberPhone is there, empty.
  const pub = found.profiles.find((x) => x.id === p.id);
  assert.equal(pub.user_id.numberPhone, '');
  assert.ok('register_admin' in pub);

  // The whole category tree for id=0 and id=null, as for no id.
  const tree = await w.ok('GET', '/v1/work_category/getTreeById');
  for (const id of ['0', 'null']) assert.deepEqual(await w.ok('GET', `/v1/work_category/getTreeById?id=${id}`), tree, `id=${id}`);

  // A comment, then the profile's comments with category "" (no category).
  await w.ok('POST', '/v1/comment/add', { category_list: [101], description: 'کار تمیز و به‌موقع', score: 5, user_technical_id: p.id }, { token: critic.token });
  const comments = await w.ok('POST', '/v1/comment/get', { category: '', user_technical_id: p.id, skip: 0, take: 20 });
  assert.equal(comments.count, 1);
  // Commenting on one's own profile is a business rule: 400, never the 403 that signs out.
  const own = await w.api('POST', '/v1/comment/add', { category_list: [101], description: 'خودم عالی‌ام', score: 5, user_technical_id: p.id }, { token: owner.token, lang: 'en' });
  assert.equal(own.status, 400, own.text);
  assert.deepEqual(own.message, ['You cannot comment on your own profile']);

  // searchUserSlag with the spec's spelling.
  const bySlag = await w.ok('POST', '/v1/user-technical/searchUserSlag', { slag: p.slug });
  assert.equal(bySlag.id, p.id);

  // A wrong method on a real path is 405 with the catalogue's message; an unknown path stays 404.
  const wrong = await w.api('GET', '/v1/user-technical/searchUser', undefined, { lang: 'en' });
  assert.equal(wrong.status, 405, wrong.text);
  assert.equal(wrong.message, 'This method is not supported for this address');
  assert.equal((await w.api('GET', '/v1/user-technical/noSuchCall')).status, 404);

  // An English message that a label begins starts with a capital.
  const big = await w.api('POST', '/v1/user-technical/searchUser', { take: 1000 }, { lang: 'en' });
  assert.deepEqual(big.message, ['Page size must be between 1 and 100']);
});

test('an English browser gets an English left-to-right page from the first byte', { timeout: JOURNEY_TIMEOUT }, async () => {
  const lang = 'en';
  await w.journey('15-lang-en-browser', { lang, viewport: PHONE, store: false }, async (page) => {
    const res = await page.goto('/');
    const served = await res.text();
    assert.match(served, /<html lang="en" dir="ltr">/, 'the served page is English, left to right');
    await page.getByRole('heading', { level: 1, name: t(lang, 'home.slogan') }).waitFor();
    const root = await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]);
    assert.deepEqual(root, ['en', 'ltr'], 'the app starts in the served language');
  });
});

test('a chosen language comes back from the server on the next page', { timeout: JOURNEY_TIMEOUT }, async () => {
  // A Persian browser whose visitor switches to English, then back.
  await w.journey('15-lang-choice', { lang: 'fa', viewport: DESKTOP }, async (page, ctx) => {
    let res = await page.goto('/');
    assert.match(await res.text(), /<html lang="fa" dir="rtl">/);
    await page.getByRole('heading', { level: 1, name: t('fa', 'home.slogan') }).waitFor();
    await page.getByRole('button', { name: t('fa', 'header.switchLang'), exact: true }).click();
    await page.waitForFunction(() => document.documentElement.dir === 'ltr');
    const cookie = (await ctx.cookies()).find((c) => c.name === 'lang');
    assert.equal(cookie?.value, 'en', 'the choice is kept in the language cookie');

    res = await page.reload();
    assert.match(await res.text(), /<html lang="en" dir="ltr">/, 'the server writes the chosen language, over Accept-Language fa');
    await page.getByRole('heading', { level: 1, name: t('en', 'home.slogan') }).waitFor();

    await page.getByRole('button', { name: t('en', 'header.switchLang'), exact: true }).click();
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    res = await page.reload();
    assert.match(await res.text(), /<html lang="fa" dir="rtl">/);
  });
});
