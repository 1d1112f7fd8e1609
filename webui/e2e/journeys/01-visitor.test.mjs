// Journey 1: a visitor opens home, searches by city and category, opens a profile, reads its
// hours (open now), services and routing links, and shares it. In Persian and in English.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, digits, exact, number, plumber, t, toast } from './harness.mjs';

let w;
let omid;

// Saturday 21 November 2026, 10:30 in Tehran: Omid is open (09:00–13:00 and 16:00–20:00). The
// browser's clock and the server's (open statuses are the server's) both start there.
const SATURDAY_MORNING = new Date('2026-11-21T10:30:00+03:30');

before(async () => {
  w = await World.start({ name: '01-visitor', clock: SATURDAY_MORNING });
  const owner = await w.user('09121110001', 'امید رضایی', 'password-omid');
  omid = await w.profile(owner.token, plumber());
  // The same owner's electrician in Tehran (another category) and a plumber in Isfahan (another city):
  // neither belongs in "plumbers in Tehran".
  const provinces = await w.ok('GET', '/v1/locations/province/list');
  const isfahanProvince = provinces.find((p) => p.english_name === 'Isfahan');
  const isfahan = (await w.ok('GET', `/v1/locations/cities/list/${isfahanProvince.id}`)).find((c) => c.slag === 'isfahan');
  await w.profile(owner.token, plumber({ profile_name: 'برق ساختمان امید', range_worker: 1, category_list: [102] }));
  const other = await w.user('09121110002', 'سعید', 'password-saeed');
  await w.profile(
    other.token,
    plumber({ profile_name: 'لوله‌کشی سپاهان', city_id: isfahan.id, province_id: isfahanProvince.id, location: { lat: isfahan.lat, long: isfahan.long } }),
  );
  await w.searchable({ city_slag: 'iran' }, (r) => r.count === 3, 'the three profiles');
});

after(async () => {
  await w?.stop();
});


for (const lang of ['fa', 'en']) {
  test(`visitor finds a plumber in Tehran and shares the page (${lang})`, { timeout: JOURNEY_TIMEOUT }, async () => {
    await w.journey(`01-visitor-${lang}`, { lang, clock: SATURDAY_MORNING }, async (page) => {
      await page.goto('/');
      await page.locator(`html[lang="${lang}"][dir="${lang === 'fa' ? 'rtl' : 'ltr'}"]`).waitFor({ state: 'attached' });
      await page.getByRole('heading', { level: 1, name: t(lang, 'home.slogan') }).waitFor();
      // Top professionals already lists accepted profiles.
      await page.locator('.top-grid .pcard').first().waitFor();

      // City: Tehran, through the province → city picker.
      await page.getByRole('button', { name: new RegExp(`^${t(lang, 'city.choose')}`) }).click();
      const picker = page.getByRole('dialog', { name: t(lang, 'city.pickProvince') });
      await picker.waitFor();
      await picker.locator('#picker-filter').fill(lang === 'fa' ? 'تهران' : 'Tehran');
      await picker.getByRole('button', { name: exact(lang === 'fa' ? 'تهران' : 'Tehran') }).click();
      const cityPicker = page.getByRole('dialog', { name: t(lang, 'city.pickCity', { province: lang === 'fa' ? 'تهران' : 'Tehran' }) });
      await cityPicker.getByRole('button', { name: exact(lang === 'fa' ? 'تهران' : 'Tehran') }).click();
      await cityPicker.waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: exact(t(lang, 'home.searchButton')) }).click();

      await page.waitForURL((u) => u.pathname === '/search/tehran');
      const place = lang === 'fa' ? 'تهران' : 'Tehran';
      await page.getByRole('heading', { level: 1, name: t(lang, 'search.titleAll', { place }) }).waitFor();
      const cards = page.locator('.results-grid .pcard');
      await page.getByText(t(lang, 'search.count', { count: 2, n: number(2, lang) })).waitFor();
      assert.equal(await cards.count(), 2, 'Tehran has two profiles');

      // Category: plumber.
      await page.locator('#f-category').selectOption('plumber');
      await page.waitForURL((u) => u.pathname === '/search/tehran/plumber');
      await page.getByRole('heading', { level: 1, name: t(lang, 'search.titleCategory', { category: lang === 'fa' ? 'لوله‌کش' : 'Plumber', place }) }).waitFor();
      await page.getByText(t(lang, 'search.count', { count: 1, n: number(1, lang) })).waitFor();
      assert.equal(await cards.count(), 1);
      const card = cards.first();
      await card.getByRole('heading', { name: 'لوله‌کشی امید' }).waitFor();
      await card.getByText(t(lang, 'hours.status.Open'), { exact: true }).waitFor();

      // The profile.
      await card.getByRole('link').click();
      await page.waitForURL((u) => decodeURIComponent(u.pathname) === `/profile/${omid.slug}`);
      await page.getByRole('heading', { level: 1, name: 'لوله‌کشی امید' }).waitFor();

      // Hours: open now, Saturday (today) highlighted with its two slots, Friday closed.
      const hours = page.locator('section[aria-labelledby="hours-title"]');
      await hours.getByRole('heading', { name: t(lang, 'profile.hours') }).waitFor();
      await hours.getByText(t(lang, 'hours.status.Open'), { exact: true }).waitFor();
      const today = hours.locator('tr[aria-current="date"]');
      assert.equal((await today.locator('th').textContent()).trim(), t(lang, 'week.saturday'));
      const sep = lang === 'fa' ? '، ' : ', ';
      assert.equal((await today.locator('td').textContent()).trim(), digits(`09:00–13:00${sep}16:00–20:00`, lang));
      const friday = hours.locator('tr', { has: page.getByRole('rowheader', { name: t(lang, 'week.friday') }) });
      assert.equal((await friday.locator('td').textContent()).trim(), t(lang, 'hours.closedDay'));
      const rows = await hours.locator('th[scope="row"]').allTextContents();
      assert.deepEqual(
        rows.map((r) => r.trim()),
        ['saturday', 'sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => t(lang, `week.${d}`)),
        'the week starts on Saturday',
      );
      await page.getByText(t(lang, 'profile.today', { hours: digits(`09:00–13:00${sep}16:00–20:00`, lang) })).waitFor();

      // Services with Toman prices, and the free one.
      const services = page.locator('section[aria-labelledby="services-title"] li.service');
      assert.equal(await services.count(), 2);
      const paid = services.filter({ hasText: 'باز کردن گرفتگی لوله' });
      assert.equal((await paid.locator('.price').textContent()).trim(), `${number(350000, lang)} ${t(lang, 'price.toman')}`);
      const free = services.filter({ hasText: 'مشاوره تلفنی' });
      assert.equal((await free.locator('.price').textContent()).trim(), t(lang, 'price.free'));

      // Contact: call and Telegram links.
      assert.equal(await page.getByRole('link', { name: t(lang, 'profile.call'), exact: true }).getAttribute('href'), 'tel:09121234567');
      assert.equal(await page.locator('.contacts a[href="https://t.me/omid_plumbing"]').count(), 1);

      // Routing links with the profile's point.
      const routes = page.locator('.route-links a');
      assert.equal(await routes.count(), 4);
      const expected = {
        google: 'https://www.google.com/maps/dir/?api=1&destination=35.700000,51.400000',
        waze: 'https://waze.com/ul?ll=35.700000,51.400000&navigate=yes',
        neshan: 'https://neshan.org/maps/@35.700000,51.400000,16z,0p',
        balad: 'https://balad.ir/location?latitude=35.700000&longitude=51.400000',
      };
      for (const [name, href] of Object.entries(expected)) {
        const link = page.getByRole('link', { name: t(lang, `routes.${name}`), exact: true });
        assert.equal(await link.getAttribute('href'), href, name);
        assert.equal(await link.getAttribute('target'), '_blank');
      }
      // The small map loads once it comes near the window, then draws its tiles from the local
      // tile server.
      await page.locator('.p-map').scrollIntoViewIfNeeded();
      await page.locator('.p-map .leaflet-tile-loaded').first().waitFor();

      // Share (no share sheet in this browser): the page's short link (/p/{id}, issue 20: not a
      // 140-character encoded Persian slug), copied to the clipboard and given to the four
      // messengers encoded.
      await page.getByRole('button', { name: t(lang, 'profile.share') }).click();
      const share = page.getByRole('dialog', { name: t(lang, 'share.title') });
      await share.waitFor();
      const url = `${w.base}/p/${omid.id}`;
      assert.equal(await share.locator('#share-url').inputValue(), url);
      for (const target of ['telegram', 'whatsapp', 'eitaa', 'bale']) {
        const href = await share.getByRole('link', { name: t(lang, `share.${target}`), exact: true }).getAttribute('href');
        assert.ok(href.includes(encodeURIComponent(url)), `${target} link carries the page: ${href}`);
      }
      await share.getByRole('button', { name: t(lang, 'share.copy') }).click();
      await toast(page, t(lang, 'share.copied'));
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), url);
      await w.shot(page, `01-visitor-${lang}-share`);
      await share.getByRole('button', { name: t(lang, 'common.close') }).click();
      await share.waitFor({ state: 'hidden' });
    });
  });
}
