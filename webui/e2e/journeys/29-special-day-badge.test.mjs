// Journey 29: the open badge believes the server, which knows the special days and holidays:
// a plumber open round the clock every day of the week but closed today (a special day its
// owner set) shows "closed" on its card and its page, where the week alone would say open.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, plumber, t } from './harness.mjs';

let w;

/** Today's date in Tehran, as the server reads special days (YYYY-MM-DD). */
function tehranToday(at = new Date()) {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tehran', year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

before(async () => {
  w = await World.start({ name: '29-special-day-badge' });
  const u = await w.user('09122910001', 'کیان', 'password-aaaa');
  const day = { boarding: false, closed: false, time: [{ open: 0, close: 86400 }] };
  const week = { saturday: day, sunday: day, monday: day, tuesday: day, wednesday: day, thursday: day, friday: day };
  await w.profile(
    u.token,
    plumber({
      profile_name: 'لوله‌کشی تعطیل امروز',
      hours_of_work: week,
      open_on_holidays: true,
      special_days: [{ date: tehranToday(), closed: true, boarding: false, time: [], note: 'تعطیل' }],
    }),
  );
  const r = await w.searchable({ city_slag: 'tehran' }, (r) => r.count === 1, 'the plumber');
  // A run that crosses midnight in Tehran would see another day: say so instead of failing oddly.
  assert.equal(r.profiles[0].open_status, 'Closed', `the server says ${r.profiles[0].open_status} (date ${tehranToday()})`);
});

after(async () => {
  await w?.stop();
});

for (const lang of ['fa', 'en']) {
  test(`a special day closes the card's badge (${lang})`, { timeout: JOURNEY_TIMEOUT }, async () => {
    await w.journey(`29-special-day-badge-${lang}`, { lang }, async (page) => {
      await page.goto('/search/tehran');
      const card = page.locator('.results-grid .pcard').first();
      await card.waitFor();
      await card.locator('.badge').getByText(t(lang, 'hours.status.Closed'), { exact: true }).waitFor();
      assert.equal(await card.locator('.badge').count(), 1);
      await card.locator('a.pcard-link').click();
      await page.getByRole('heading', { level: 1, name: 'لوله‌کشی تعطیل امروز' }).waitFor();
      await page.locator('.badge').getByText(t(lang, 'hours.status.Closed'), { exact: true }).first().waitFor();
      assert.equal(await page.locator('.badge', { hasText: t(lang, 'hours.status.Open') }).count(), 0);
    });
  });
}
