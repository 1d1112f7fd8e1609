// Journey 12: reporting abuse. A visitor reports a comment (and, from another browser, the same
// comment again plus the business page); the admin finds the comment at the top of the Desk's
// reports queue with its count and reasons, hides it, and the profile page no longer shows it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, JOURNEY_TIMEOUT, PHONE, digits, plumber, signIn, t, toast } from './harness.mjs';

let w;
let omid;
let spamId;
const owner = { phone: '09121110121', name: 'امید رضایی', password: 'password-omid' };
const spammer = { phone: '09121110122', name: 'فروشنده', password: 'password-spam' };
const spam = 'خرید ارزان قرص لاغری در کانال تلگرام ما';

before(async () => {
  w = await World.start({ name: '12-report' });
  const o = await w.user(owner.phone, owner.name, owner.password);
  omid = await w.profile(o.token, plumber());
  const s = await w.user(spammer.phone, spammer.name, spammer.password);
  spamId = (await w.ok('POST', '/v1/comment/add', { user_technical_id: omid.id, description: spam, score: 1 }, { token: s.token })).id;
});

after(async () => {
  await w?.stop();
});

/** Reports the comment with this text through its Report button. */
async function reportComment(page, lang, reason, details) {
  const item = page.locator('#comments li.comment').filter({ hasText: spam });
  await item.getByRole('button', { name: t(lang, 'report.action'), exact: true }).click();
  const dialog = page.getByRole('dialog', { name: t(lang, 'report.titleComment') });
  await dialog.waitFor();
  // Sending without a reason is refused in the form.
  await dialog.getByRole('button', { name: t(lang, 'report.send'), exact: true }).click();
  await dialog.getByText(t(lang, 'report.chooseReason'), { exact: true }).waitFor();
  await dialog.getByRole('radio', { name: t(lang, `report.reasons.${reason}`), exact: true }).check();
  if (details) await dialog.getByRole('textbox').fill(details);
  await dialog.getByRole('button', { name: t(lang, 'report.send'), exact: true }).click();
  await toast(page, t(lang, 'report.thanks'));
}

test('visitors report a comment and a page; the admin hides the comment from the reports queue (fa, phone)', { timeout: JOURNEY_TIMEOUT * 2 }, async () => {
  const lang = 'fa';
  const path = `/profile/${encodeURIComponent(omid.slug)}`;
  await w.journey('12-report-visitor-fa', { lang, viewport: PHONE }, async (page) => {
    await page.goto(path);
    await page.locator('#comments').getByText(spam).waitFor();
    // The report form's code loads when it is first opened (components/lazyDialog.tsx). With the
    // connection gone, the visitor is told to check it, no dialog is left half open and the page
    // stays; back online, the next tap opens the form.
    await page.context().setOffline(true);
    await page.getByRole('button', { name: t(lang, 'report.action'), exact: true }).first().click();
    await toast(page, t(lang, 'errors.checkInternet'));
    assert.equal(await page.getByRole('dialog').count(), 0);
    await page.locator('#comments').getByText(spam).waitFor();
    await page.context().setOffline(false);
    await reportComment(page, lang, 'spam', 'تبلیغ قرص است');

    // The business page itself.
    await page.getByRole('button', { name: t(lang, 'report.action'), exact: true }).first().click();
    const dialog = page.getByRole('dialog', { name: t(lang, 'report.titleProfile') });
    await dialog.getByRole('radio', { name: t(lang, 'report.reasons.other'), exact: true }).check();
    // "Something else" needs a few words.
    await dialog.getByRole('button', { name: t(lang, 'report.send'), exact: true }).click();
    await dialog.getByText(t(lang, 'errors.enter', { des: t(lang, 'report.details') }), { exact: true }).waitFor();
    await dialog.getByRole('textbox').fill('ساعت کاری درست نیست');
    await dialog.getByRole('button', { name: t(lang, 'report.send'), exact: true }).click();
    await toast(page, t(lang, 'report.thanks'));
  });
  // A second visitor, signed in, reports the comment too.
  await w.cli('user', 'create', '--phone', '09121110123', '--name', 'سارا', '--password', 'password-sara');
  await w.journey('12-report-second-fa', { lang, viewport: PHONE }, async (page) => {
    await signIn(page, lang, '09121110123', 'password-sara', { next: path });
    await page.locator('#comments').getByText(spam).waitFor();
    await reportComment(page, lang, 'scam');
  });

  // The admin's queue: the comment, reported twice, above the page reported once.
  await w.journey('12-report-admin-fa', { lang }, async (page) => {
    await signIn(page, lang, w.admin.phone, w.admin.password, { next: '/dashboard/admin/reports' });
    await page.waitForURL((u) => u.pathname === '/dashboard/admin/reports');
    const cards = page.locator('.item-card');
    await cards.first().waitFor();
    assert.equal(await cards.count(), 2);
    const top = cards.first();
    await top.getByText(spam).waitFor();
    await top.getByText(t(lang, 'deskAdmin.reports.count', { n: digits(2, 'fa') }), { exact: true }).waitFor();
    await top.getByText(t(lang, 'report.reasons.spam'), { exact: false }).waitFor();
    await top.getByText('تبلیغ قرص است').waitFor();
    await cards.nth(1).getByText(omid.profile_name).waitFor();

    await top.getByRole('button', { name: t(lang, 'deskAdmin.reports.hide'), exact: true }).click();
    const confirm = page.getByRole('dialog', { name: t(lang, 'deskAdmin.reports.hideTitle') });
    await confirm.getByRole('button', { name: t(lang, 'deskAdmin.reports.hide'), exact: true }).click();
    await toast(page, t(lang, 'deskAdmin.done'));
    await page.waitForFunction(() => document.querySelectorAll('.item-card').length === 1);

    // Taken down: under "Taken down", and gone from the profile page.
    await page.getByRole('button', { name: t(lang, 'deskAdmin.reports.status.Actioned'), exact: true }).click();
    await page.locator('.item-card').getByText(spam).waitFor();
  });
  const comments = await w.ok('POST', '/v1/comment/get', { user_technical_id: omid.id, skip: 0, take: 20 });
  assert.ok(!JSON.stringify(comments).includes(spam), 'the hidden comment is not public');
  const c = await w.api('GET', `/v1/admin/comment?status=Hidden`, undefined, { token: await w.adminToken() });
  assert.ok(JSON.stringify(c.payload).includes(String(spamId)));
});
