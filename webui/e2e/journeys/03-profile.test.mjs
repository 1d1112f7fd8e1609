// Journey 3: a new professional builds a business page through every stage of the Desk's form on
// a phone (field and categories, province and city, a pin on the map, two services one free, hours
// with two periods copied to other days, a mobile number and two social links, a picture cropped
// with zoom and rotation); it waits in review; an admin (made with `kardan user promote`) accepts
// it in the admin screen; a visitor finds it by a text query typed with Arabic ي/ك and on the map
// within a radius.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { World, DESKTOP, JOURNEY_TIMEOUT, PHONE, digits, exact, number, photo, signIn, t, toast } from './harness.mjs';

let w;
const owner = { phone: '09121110031', name: 'کیان مرادی', password: 'password-kian' };
const admin = { phone: '09121110032', name: 'بهناز', password: 'password-behnaz' };
const NAME = 'تعمیرگاه کیان';
const lang = 'fa';

before(async () => {
  w = await World.start({ name: '03-profile' });
  await w.cli('user', 'create', '--phone', owner.phone, '--name', owner.name, '--password', owner.password);
  await w.cli('user', 'create', '--phone', admin.phone, '--name', admin.name, '--password', admin.password);
  await w.cli('user', 'promote', admin.phone);
});

after(async () => {
  await w?.stop();
});

test('a profile built through every Desk stage is accepted by an admin and found by visitors (fa)', { timeout: JOURNEY_TIMEOUT * 2 }, async () => {
  let pin;

  await w.journey('03-profile-fa-owner', { lang, viewport: PHONE }, async (page) => {
    await signIn(page, lang, owner.phone, owner.password);
    await page.waitForURL((u) => u.pathname === '/dashboard');
    await page.getByRole('heading', { level: 1, name: t(lang, 'desk.myProfiles') }).waitFor();
    await page.getByText(t(lang, 'desk.noProfiles'), { exact: true }).waitFor();
    await page.getByRole('link', { name: t(lang, 'desk.addProfile') }).first().click();
    await page.waitForURL((u) => u.pathname === '/dashboard/profiles/new');
    await page.getByRole('heading', { level: 1, name: t(lang, 'deskForm.newTitle') }).waitFor();

    const next = page.getByRole('button', { name: t(lang, 'deskForm.next') });
    const stage = async (tab) => {
      await page.getByRole('tab', { name: new RegExp(t(lang, `deskForm.tabs.${tab}`)), selected: true }).waitFor();
      await page.locator('#pf-panel').getByRole('heading', { level: 2, name: t(lang, `deskForm.tabs.${tab}`) }).waitFor();
    };

    // 1. Basics. "Next" first checks the stage.
    await stage('basics');
    await next.click();
    await page.locator('#pf-profile_name-err').getByText(t(lang, 'errors.enter', { des: t(lang, 'deskForm.labels.profile_name') })).waitFor();
    await page.locator('#pf-profile_name').fill(NAME);
    await page.locator('#pf-range_worker').click();
    const tree = page.getByRole('dialog', { name: t(lang, 'deskForm.labels.fieldAndCategories') });
    await tree.locator('#pf-range_worker-filter').fill('مکانیک');
    await tree.getByRole('checkbox', { name: 'مکانیک خودرو' }).check();
    await tree.locator('#pf-range_worker-filter').fill('برق خودرو');
    await tree.getByRole('checkbox', { name: 'برق خودرو' }).check();
    await tree.getByRole('button', { name: t(lang, 'picker.done', { n: 2 }) }).click();
    await tree.waitFor({ state: 'hidden' });
    await page.locator('#pf-range_worker').getByText('خودرو', { exact: true }).waitFor();
    await page.locator('#pf-work_history_years').fill('۸');
    await page.locator('#pf-descriotion').fill('تعمیر موتور، برق خودرو و سرویس دوره‌ای خودروهای سواری در غرب تهران.');
    await next.click();

    // 2. Place: province and city from their lists, a pin dropped on the map, address and areas.
    await stage('place');
    await page.locator('#pf-province_id').click();
    const provinces = page.getByRole('dialog', { name: t(lang, 'deskForm.labels.province_id') });
    await provinces.locator('#pf-province_id-filter').fill('تهران');
    await provinces.getByRole('button', { name: exact('تهران') }).click();
    await provinces.waitFor({ state: 'hidden' });
    await page.locator('#pf-city_id').click();
    const cities = page.getByRole('dialog', { name: t(lang, 'deskForm.labels.city_id') });
    await cities.locator('#pf-city_id-filter').fill('تهران');
    await cities.getByRole('button', { name: exact('تهران') }).click();
    await cities.waitFor({ state: 'hidden' });
    // With Tehran chosen, the map shows Tehran at street level (zoom 13), ready for the pin.
    const map = page.locator('#pf-map .leaflet-container');
    await map.locator('.leaflet-tile-loaded[src*="/13/"]').first().waitFor();
    await map.scrollIntoViewIfNeeded();
    const box = await map.boundingBox();
    await page.mouse.click(box.x + box.width / 2 + 20, box.y + box.height / 2 - 10);
    const pinText = await page.locator('#pf-location-hint').textContent();
    // #26: Persian digits with the Persian decimal sign «٫», never a Latin point among them.
    assert.doesNotMatch(pinText, /[0-9.]/, pinText);
    const latin = pinText.replace(/[۰-۹]/g, (d) => '۰۱۲۳۴۵۶۷۸۹'.indexOf(d)).replace(/٫/g, '.');
    const m = latin.match(/(\d+\.\d+)[^\d]+(\d+\.\d+)/);
    assert.ok(m, `the pin's position is shown: ${pinText}`);
    pin = { lat: Number(m[1]), long: Number(m[2]) };
    assert.ok(Math.abs(pin.lat - 35.69) < 0.1 && Math.abs(pin.long - 51.39) < 0.1, `the pin is in Tehran: ${JSON.stringify(pin)}`);
    await page.locator('#pf-address').fill('تهران، بزرگراه ستاری، خیابان پیامبر، پلاک ۴۰');
    await page.locator('#pf-area_working').fill('ستاری');
    await page.locator('#pf-area_working').press('Enter');
    await page.locator('#pf-area_working').fill('شهرک غرب');
    await page.locator('#pf-area_working').press('Enter');
    await page.getByRole('button', { name: t(lang, 'picker.remove', { name: 'شهرک غرب' }) }).waitFor();
    await next.click();

    // 3. Services: a priced one (separators appear as it is typed) and a free one.
    await stage('services');
    await page.locator('#pf-svc-0-title').fill('تعویض روغن و فیلتر');
    await page.locator('#pf-svc-0-price').pressSequentially('450000');
    assert.equal(await page.locator('#pf-svc-0-price').inputValue(), number(450000, lang));
    await page.locator('#pf-svc-0-desc').fill('با روغن انتخابی مشتری');
    await page.getByRole('button', { name: t(lang, 'deskForm.services.add') }).click();
    await page.locator('#pf-svc-1-title').fill('عیب‌یابی با دستگاه');
    await page.locator('li.row-card').nth(1).getByRole('switch').click();
    await page.locator('li.row-card').nth(1).locator('.price-free').getByText(t(lang, 'price.free')).waitFor();
    await next.click();

    // 4. Hours: Saturday 09:00–13:00 and 16:00–20:00, copied to Sunday–Wednesday; Friday closed.
    await stage('hours');
    await page.locator('#pf-saturday-0-close').selectOption(String(13 * 3600));
    await page.locator('li.day-card').first().getByRole('button', { name: t(lang, 'hoursEdit.addSlot') }).click();
    await page.locator('#pf-saturday-1-open').selectOption(String(16 * 3600));
    await page.locator('#pf-saturday-1-close').selectOption(String(20 * 3600));
    await page.locator('li.day-card').first().getByRole('button', { name: t(lang, 'hoursEdit.copy') }).click();
    const copy = page.getByRole('dialog', { name: t(lang, 'hoursEdit.copyTitle', { day: t(lang, 'week.saturday') }) });
    for (const d of ['sunday', 'monday', 'tuesday', 'wednesday']) await copy.getByRole('checkbox', { name: t(lang, `week.${d}`) }).check();
    await copy.getByRole('button', { name: t(lang, 'hoursEdit.copyApply') }).click();
    await copy.waitFor({ state: 'hidden' });
    assert.equal(await page.locator('#pf-wednesday-1-close').inputValue(), String(20 * 3600));
    assert.equal(await page.locator('input[name="pf-mode-friday"][value="closed"]').isChecked(), true);
    await next.click();

    // 5. Contact: a mobile number and two social links.
    await stage('contact');
    await page.locator('#pf-link-0-type').selectOption('mobile');
    await page.locator('#pf-link-0').fill('09121112233');
    await page.getByRole('button', { name: t(lang, 'deskForm.contact.add') }).click();
    await page.locator('#pf-link-1-type').selectOption('Instagram');
    await page.locator('#pf-link-1').fill('kian_garage');
    await page.getByRole('button', { name: t(lang, 'deskForm.contact.add') }).click();
    await page.locator('#pf-link-2-type').selectOption('Telegram');
    await page.locator('#pf-link-2').fill('@kian_garage');
    await page.locator('#pf-link-2').blur();
    assert.equal(await page.locator('.contact-row .field-error').count(), 0, 'the links are accepted as typed');
    await next.click();

    // 6. Pictures: the profile picture through the crop dialog, zoomed and rotated.
    await stage('pictures');
    await page.locator('#pf-profile_image').setInputFiles(await photo(page, { name: 'kian.jpg' }));
    const crop = page.getByRole('dialog', { name: t(lang, 'crop.titlePicture') });
    await crop.locator('.reactEasyCrop_Image, img').first().waitFor();
    await crop.getByRole('button', { name: t(lang, 'crop.zoomIn') }).click();
    await crop.getByRole('button', { name: t(lang, 'crop.zoomIn') }).click();
    await crop.getByRole('button', { name: t(lang, 'crop.rotateRight') }).click();
    assert.equal(await crop.locator('#crop-zoom').inputValue(), '1.4');
    assert.equal(await crop.locator('#crop-rotate').inputValue(), '90');
    await crop.locator('label[for="crop-zoom"]').getByText(`${digits(140, lang)}٪`).waitFor();
    await crop.locator('label[for="crop-rotate"]').getByText(`${digits(90, lang)}°`).waitFor();
    await w.shot(page, '03-profile-fa-crop');
    const [upload] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/v1/upload-file') && r.request().method() === 'POST'),
      crop.getByRole('button', { name: t(lang, 'crop.use') }).click(),
    ]);
    assert.equal(upload.status(), 200, await upload.text());
    await crop.waitFor({ state: 'hidden' });
    await page.getByRole('img', { name: t(lang, 'upload.current', { name: t(lang, 'deskForm.labels.profile_image') }) }).waitFor();

    // Save: the page waits in review.
    const [created] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/v1/user-technical/createProfile')),
      page.getByRole('button', { name: t(lang, 'deskForm.create') }).click(),
    ]);
    assert.equal(created.status(), 200, await created.text());
    await toast(page, t(lang, 'deskForm.created'));
    await page.waitForURL((u) => u.pathname === '/dashboard');
    const card = page.locator('li.mp-card', { hasText: NAME });
    await card.getByText(t(lang, 'desk.status.Pending'), { exact: true }).waitFor();
    await card.getByText(t(lang, 'desk.pendingNote'), { exact: true }).waitFor();

    // What was saved is what was entered.
    const p = (await created.json()).payload;
    assert.equal(p.account_status, 'Pending');
    assert.deepEqual(p.category_list.map((c) => c.id).sort(), [401, 402]);
    assert.equal(p.range_worker.id, 4);
    assert.equal(p.city.slag, 'tehran');
    assert.equal(p.work_history_years, 8);
    assert.deepEqual(p.services, [
      { title: 'تعویض روغن و فیلتر', price: 450000, description: 'با روغن انتخابی مشتری' },
      { title: 'عیب‌یابی با دستگاه', price: 0, description: '' },
    ]);
    const twoSlots = [
      { open: 9 * 3600, close: 13 * 3600 },
      { open: 16 * 3600, close: 20 * 3600 },
    ];
    for (const d of ['saturday', 'sunday', 'monday', 'tuesday', 'wednesday']) assert.deepEqual(p.hours_of_work[d].time, twoSlots, d);
    assert.equal(p.hours_of_work.friday.closed, true);
    assert.deepEqual(
      p.social_network.map((s) => [s.type, s.link]),
      [
        ['mobile', '09121112233'],
        ['Instagram', 'kian_garage'],
        ['Telegram', '@kian_garage'],
      ],
    );
    assert.deepEqual(p.area_working, ['ستاری', 'شهرک غرب']);
    assert.match(p.profile_image, /^\/uploads\//);
    // The hint shows five decimals of the stored point.
    assert.ok(Math.abs(p.location[1] - pin.lat) < 1e-5 && Math.abs(p.location[0] - pin.long) < 1e-5, `location ${p.location} is the pin ${JSON.stringify(pin)}`);
    pin = { lat: p.location[1], long: p.location[0] };
    const pic = await fetch(w.base + p.profile_image);
    assert.equal(pic.status, 200);
    await w.shot(page, '03-profile-fa-pending');
  });

  // The admin accepts it in the moderation queue.
  await w.journey('03-profile-fa-admin', { lang, viewport: DESKTOP }, async (page) => {
    await signIn(page, lang, admin.phone, admin.password, { next: '/dashboard/admin/profiles' });
    await page.waitForURL((u) => u.pathname === '/dashboard/admin/profiles');
    await page.getByRole('heading', { level: 1, name: t(lang, 'deskAdmin.title') }).waitFor();
    const item = page.locator('li.item-card', { has: page.getByRole('heading', { name: NAME }) });
    await item.getByText(t(lang, 'desk.status.Pending'), { exact: true }).waitFor();
    await item.getByRole('button', { name: t(lang, 'deskAdmin.do.Accepted') }).click();
    const dialog = page.getByRole('dialog', { name: t(lang, 'deskAdmin.profileMove.Accepted') });
    await dialog.locator('#mod-note').fill('اطلاعات کامل است.');
    await dialog.getByRole('button', { name: t(lang, 'deskAdmin.do.Accepted') }).click();
    await toast(page, t(lang, 'deskAdmin.done'));
    await item.waitFor({ state: 'detached' });
  });

  // A visitor finds it by text written with Arabic letters, and on the map.
  const near = { latitude: pin.lat + 0.006, longitude: pin.long + 0.003 }; // about 720 m away
  await w.journey('03-profile-fa-visitor', { lang, viewport: PHONE, geolocation: near }, async (page) => {
    await w.searchable({ search_txt: NAME }, (r) => r.count === 1, NAME);
    await page.goto('/');
    await page.locator('#hero-q').fill('تعميرگاه كيان');
    await page.getByRole('button', { name: exact(t(lang, 'home.searchButton')) }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/search/'));
    const card = page.locator('.results-grid .pcard', { has: page.getByRole('heading', { name: NAME }) });
    await card.waitFor();
    await card.getByRole('link').click();
    await page.waitForURL((u) => u.pathname.startsWith('/profile/'));
    await page.getByRole('heading', { level: 1, name: NAME }).waitFor();
    await page.locator('.p-avatar[src^="/uploads/"]').waitFor();
    const services = page.locator('section[aria-labelledby="services-title"] li.service');
    assert.equal(await services.count(), 2);
    await page.getByRole('link', { name: 'kian_garage', exact: true }).first().waitFor();

    // On the map: "use my position", default radius 1 km.
    await page.goto('/map');
    await page.getByRole('button', { name: t(lang, 'city.useMyPosition') }).click();
    await page.waitForURL((u) => Math.abs(Number(u.searchParams.get('lat')) - near.latitude) < 1e-4);
    assert.equal(await page.locator('#m-radius').inputValue(), '1000');
    const found = page.locator('.map-list .pcard', { has: page.getByRole('heading', { name: NAME }) });
    await found.waitFor();
    await page.getByText(t(lang, 'map.found', { count: 1, n: digits(1, lang) }), { exact: true }).waitFor();
    await page.locator(`.leaflet-marker-icon[title="${NAME}"]`).waitFor();
    // A smaller radius leaves it out, and the empty list offers a wider one instead of a dead end.
    await page.locator('#m-radius').selectOption('500');
    await page.locator('button.map-widen').waitFor();
    assert.equal(await found.count(), 0);
    await page.locator('#m-radius').selectOption('1000');
    await found.waitFor();
  });
});
