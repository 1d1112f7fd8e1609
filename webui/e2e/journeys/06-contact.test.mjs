// Journey 6: a visitor who is not signed in writes through the contact form (critics and
// suggestions); an admin reads it in the Desk's inbox and marks it read.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, PHONE, DESKTOP, digits, signIn, t, toast } from './harness.mjs';

let w;
const lang = 'fa';
const SUBJECT = 'پیشنهاد: فیلتر ساعت کاری';
const MESSAGE = 'سلام، کاش می‌شد فقط کسب‌وکارهایی را دید که الان باز هستند.';

before(async () => {
  w = await World.start({ name: '06-contact' });
});

after(async () => {
  await w?.stop();
});

test('a signed-out visitor writes to Kardan and the admin reads it in the inbox (fa)', { timeout: JOURNEY_TIMEOUT }, async () => {
  await w.journey('06-contact-fa-visitor', { lang, viewport: PHONE }, async (page) => {
    await page.goto('/');
    await page.locator('footer').getByRole('link', { name: t(lang, 'nav.contact'), exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/contact');
    await page.getByRole('heading', { level: 1, name: t(lang, 'contact.title') }).waitFor();

    // Empty, the form says what is missing; a way to answer is needed.
    const send = page.getByRole('button', { name: t(lang, 'common.send'), exact: true });
    await send.click();
    await page.locator('#c-name-err').getByText(t(lang, 'errors.enter', { des: t(lang, 'contact.fields.name') })).waitFor();
    await page.locator('#c-email-err').getByText(t(lang, 'contact.oneWay')).waitFor();

    await page.locator('#c-name').fill('نرگس');
    await page.locator('#c-subject').fill(SUBJECT);
    await page.locator('#c-number_phone').fill(digits('09121110061', 'fa'));
    await page.locator('#c-message').fill(MESSAGE);
    const [sent] = await Promise.all([page.waitForResponse((r) => r.url().includes('/v1/critics-and-suggestions/')), send.click()]);
    assert.ok(sent.url().endsWith('/v1/critics-and-suggestions/add'), `signed out, the form uses /add: ${sent.url()}`);
    assert.equal(sent.status(), 200, await sent.text());
    await toast(page, t(lang, 'contact.sent'));
    await page.getByRole('heading', { name: t(lang, 'contact.thanksTitle') }).waitFor();
  });

  await w.journey('06-contact-fa-admin', { lang, viewport: DESKTOP }, async (page) => {
    await signIn(page, lang, w.admin.phone, w.admin.password, { next: '/dashboard/admin/inbox' });
    await page.waitForURL((u) => u.pathname === '/dashboard/admin/inbox');
    const item = page.locator('li.critic', { has: page.getByRole('heading', { name: SUBJECT }) });
    await item.waitFor();
    assert.match(await item.getAttribute('class'), /\bunread\b/);
    await item.getByText(MESSAGE, { exact: true }).waitFor();
    await item.getByText('نرگس', { exact: true }).waitFor();
    assert.equal(await item.getByRole('link', { name: '09121110061' }).getAttribute('href'), 'tel:09121110061');
    await item.getByRole('button', { name: t(lang, 'deskAdmin.markRead'), exact: true }).click();
    await item.getByRole('button', { name: t(lang, 'deskAdmin.markUnread'), exact: true }).waitFor();
    assert.doesNotMatch(await item.getAttribute('class'), /\bunread\b/);

    // The read flag is kept by the server.
    await page.reload();
    await item.getByRole('button', { name: t(lang, 'deskAdmin.markUnread'), exact: true }).waitFor();
    assert.doesNotMatch(await item.getAttribute('class'), /\bunread\b/);
    // Only unread messages: none left.
    await page.getByRole('button', { name: t(lang, 'deskAdmin.inboxFilter.unread'), exact: true }).click();
    await page.getByText(t(lang, 'deskAdmin.inboxEmpty'), { exact: true }).waitFor();
  });
});
