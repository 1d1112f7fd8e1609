// Journey 16: a visitor types Finglish in the search box, picks the suggested category with the
// keyboard and lands on its results; a Persian prefix offers the business itself; a query no
// profile has all the words of says it fell back, and a misspelt word offers "did you mean"; a
// search made is offered again in the empty box as a recent search, and choosing it runs it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, plumber, t } from './harness.mjs';

let w;

before(async () => {
  w = await World.start({ name: '16-suggest' });
  const owner = await w.user('09121610001', 'امید رضایی', 'password-omid');
  await w.profile(owner.token, plumber());
  await w.searchable({ search_txt: 'لوله کش' }, (r) => r.count === 1, 'the plumber');
});

after(async () => {
  await w?.stop();
});

for (const lang of ['fa', 'en']) {
  test(`lolekesh → the plumbers' suggestion → results (${lang})`, { timeout: JOURNEY_TIMEOUT }, async () => {
    await w.journey(`16-suggest-${lang}`, { lang }, async (page) => {
      await page.goto('/search/tehran');
      const box = page.locator('#f-q');
      await box.click();
      await box.pressSequentially('lolekesh', { delay: 30 });
      const list = page.getByRole('listbox', { name: t(lang, 'suggest.label') });
      const plumbers = list.getByRole('option', { name: new RegExp(lang === 'fa' ? 'لوله‌کش' : 'Plumber') }).first();
      await plumbers.waitFor();
      // Keyboard: down to the first option (the category), Enter picks it.
      await box.press('ArrowDown');
      assert.equal(await plumbers.getAttribute('aria-selected'), 'true', 'the first option is active');
      assert.ok(await box.getAttribute('aria-activedescendant'), 'the box names its active option');
      await box.press('Enter');
      await page.waitForURL((u) => u.pathname === '/search/tehran/plumber');
      await page.locator('.results-grid .pcard').first().waitFor();
      assert.equal(await page.locator('.results-grid .pcard').count(), 1);

      // A Persian prefix offers the business; picking it opens its page.
      await box.fill('');
      await box.pressSequentially('لوله‌کشی ا', { delay: 30 });
      const business = list.getByRole('option', { name: /لوله‌کشی امید/ });
      await business.waitFor();
      await business.click();
      await page.waitForURL((u) => u.pathname.startsWith('/profile/'));
    });
  });
}

test('a search typed is offered again as a recent search, and choosing it runs it (fa)', { timeout: JOURNEY_TIMEOUT }, async () => {
  const lang = 'fa';
  const q = 'لوله کش';
  await w.journey('16-recent-fa', { lang }, async (page) => {
    await page.goto('/search/tehran');
    const box = page.locator('#f-q');
    await box.fill(q);
    await box.press('Enter');
    await page.waitForURL((u) => new URL(u).searchParams.get('q') === q);
    await page.locator('.results-grid .pcard').first().waitFor();

    // Later, elsewhere, then back to the search with an empty box: focusing it offers the search.
    await page.goto('/');
    await page.goto('/search/tehran');
    await page.locator('.results-grid .pcard').first().waitFor();
    assert.equal(await box.inputValue(), '', 'the box starts empty');
    await box.click();
    const list = page.getByRole('listbox', { name: t(lang, 'suggest.label') });
    const recent = list.getByRole('option', { name: `${q} ${t(lang, 'suggest.kind.recent')}` });
    await recent.waitFor();
    assert.equal(await list.getByRole('option').count(), 1, 'only the one search made is offered');
    await recent.click();
    await page.waitForURL((u) => new URL(u).searchParams.get('q') === q);
    assert.equal(await box.inputValue(), q, 'the box shows the search chosen');
    await page.locator('.results-grid .pcard').first().waitFor();
    assert.equal(await page.locator('.results-grid .pcard').count(), 1);
  });
});

test('no exact match says so; a misspelt word offers did you mean', { timeout: JOURNEY_TIMEOUT }, async () => {
  await w.journey('16-fallback-en', { lang: 'en' }, async (page) => {
    await page.goto(`/search/tehran?q=${encodeURIComponent('لوله کش شبانه روزی')}`);
    await page.getByText('No exact match: showing Plumber in Tehran').waitFor();
    await page.locator('.results-grid .pcard').first().waitFor();
    await page.goto(`/search/iran?q=${encodeURIComponent('گرفتگیی')}`);
    const suggestion = page.getByRole('link', { name: t('en', 'search.didYouMean', { q: 'گرفتگی' }) });
    await suggestion.waitFor();
    await suggestion.click();
    await page.waitForURL((u) => new URL(u).searchParams.get('q') === 'گرفتگی');
    await page.locator('.results-grid .pcard').first().waitFor();
  });
});

test('the home page search box suggests too', { timeout: JOURNEY_TIMEOUT }, async () => {
  await w.journey('16-suggest-home-fa', { lang: 'fa' }, async (page) => {
    await page.goto('/');
    const box = page.locator('#hero-q');
    await box.click();
    await box.pressSequentially('dandanp', { delay: 30 });
    const dentists = page.getByRole('listbox').getByRole('option', { name: /دندانپزشک/ }).first();
    await dentists.waitFor();
    await dentists.click();
    await page.waitForURL((u) => u.pathname.endsWith('/dentist'));
  });
});

test('an empty answer offers the categories meant and all of Iran', { timeout: JOURNEY_TIMEOUT }, async () => {
  await w.journey('16-empty-en', { lang: 'en' }, async (page) => {
    await page.goto(`/search/shiraz?q=${encodeURIComponent('لوله کش')}`);
    await page.locator('.empty-chips').getByRole('link', { name: 'Plumber', exact: true }).waitFor();
    await page.getByRole('link', { name: t('en', 'search.allIran') }).click();
    await page.waitForURL((u) => u.pathname === '/search/iran');
    await page.locator('.results-grid .pcard').first().waitFor();
  });
});
