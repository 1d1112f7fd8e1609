// Journey 24: SMS notices. A professional gets an SMS (Kavenegar's template mode; the file sender
// writes "number template:new_lead …") for a new request for a price, turns that SMS off in the
// account page, and the next request reaches only the bell.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { World, JOURNEY_TIMEOUT, plumber, signIn, t, toast } from './harness.mjs';

let w;
let profile;
const owner = { phone: '09121110241', name: 'سعید', password: 'password-saeed' };

before(async () => {
  w = await World.start({ name: '24-sms-notices' });
  const o = await w.user(owner.phone, owner.name, owner.password);
  profile = await w.profile(o.token, plumber({ profile_name: 'لوله‌کشی سعید' }));
});

after(async () => {
  await w?.stop();
});

/** The templated SMS written for a number so far. */
function notices(phone) {
  if (!existsSync(w.smsFile)) return [];
  return readFileSync(w.smsFile, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith(`${phone} template:new_lead`));
}

async function ask(phone) {
  const v = await w.user(phone, 'مهمان', 'password-guest1');
  await w.ok('POST', '/v1/lead/add', { user_technical_id: profile.id, city_id: profile.city.id, what: 'تعویض شیر', when: '' }, { token: v.token });
}

test('an owner turns the SMS of new requests off in the account page (en)', { timeout: JOURNEY_TIMEOUT }, async () => {
  await ask('09121110248');
  assert.equal(notices(owner.phone).length, 1, 'the first request came by SMS');
  const lang = 'en';
  await w.journey('24-sms-notices-account-en', { lang }, async (page) => {
    await signIn(page, lang, owner.phone, owner.password, { next: '/dashboard/account' });
    await page.waitForURL((u) => u.pathname === '/dashboard/account');
    const sw = page.getByRole('switch', { name: t(lang, 'deskAccount.sms.new_lead') });
    await sw.waitFor();
    assert.equal(await sw.getAttribute('aria-checked'), 'true');
    await sw.click();
    await toast(page, t(lang, 'deskAccount.smsSaved'));
    assert.equal(await sw.getAttribute('aria-checked'), 'false');
    // The moderation SMS stays on.
    assert.equal(await page.getByRole('switch', { name: t(lang, 'deskAccount.sms.moderation') }).getAttribute('aria-checked'), 'true');
  });
  await ask('09121110249');
  assert.equal(notices(owner.phone).length, 1, 'no SMS after turning it off');
  const token = (await w.login(owner.phone, owner.password)).token;
  const bell = await w.ok('GET', '/v1/notification/list', undefined, { token });
  assert.equal(bell.notifications.filter((n) => n.kind === 'new_lead').length, 2, 'the bell has both requests');
});
