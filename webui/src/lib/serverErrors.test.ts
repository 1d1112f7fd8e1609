import { describe, expect, it } from 'vitest';
import { ApiError, errorOf } from '../api/client';
import { mapServerErrors } from './serverErrors';
import { PROFILE_FIELDS, firstErrorTab, tabOf, toPayload, emptyProfileForm, validateProfile, fromProfile } from './profileForm';

describe('server errors land on the right field', () => {
  it('reads payload.fields from a 400 answer', () => {
    const e = errorOf(400, {
      payload: { fields: { city_id: 'شهر را وارد کنید', hours_of_work: 'بازه‌های کاری دوشنبه با هم هم‌پوشانی دارند', x: 1 } },
      message: ['شهر را وارد کنید', 'بازه‌های کاری دوشنبه با هم هم‌پوشانی دارند'],
    });
    expect(e.status).toBe(400);
    expect(e.fields).toEqual({ city_id: 'شهر را وارد کنید', hours_of_work: 'بازه‌های کاری دوشنبه با هم هم‌پوشانی دارند' });
    expect(e.message).toBe('شهر را وارد کنید');
    const m = mapServerErrors(e, PROFILE_FIELDS);
    expect(m.fields).toEqual(e.fields);
    expect(m.form).toBeNull();
    expect(firstErrorTab(m.fields)).toBe('place');
  });
  it('keeps the language the server answered in', () => {
    const e = errorOf(400, { payload: { fields: { profile_name: 'Enter business name' } }, message: ['Enter business name'] });
    expect(mapServerErrors(e, PROFILE_FIELDS).fields.profile_name).toBe('Enter business name');
  });
  it('renames fields the form calls otherwise and keeps unknown ones for the form', () => {
    const e = new ApiError(400, 'x', ['a', 'b'], { profileImage: 'Enter correct picture', otpCode: 'Enter code' });
    const m = mapServerErrors(e, ['picture', 'name'], { aliases: { profileImage: 'picture' } });
    expect(m.fields).toEqual({ picture: 'Enter correct picture' });
    expect(m.form).toBe('Enter code');
  });
  it('puts a conflict on its field and anything else on the form', () => {
    const c = new ApiError(409, 'You can have only one profile per category', ['You can have only one profile per category']);
    expect(mapServerErrors(c, PROFILE_FIELDS, { conflictField: 'category_list' })).toEqual({ fields: { category_list: c.message }, form: null });
    expect(mapServerErrors(c, PROFILE_FIELDS)).toEqual({ fields: {}, form: c.message });
    expect(mapServerErrors(new ApiError(0, 'Please check your internet'), PROFILE_FIELDS).form).toBe('Please check your internet');
    expect(mapServerErrors(new Error('boom'), PROFILE_FIELDS).form).toBe('boom');
    const f = new ApiError(403, 'You may write only in the fields of your accepted profiles', []);
    expect(mapServerErrors(f, ['category_list', 'title'], { statusFields: { 403: 'category_list' } }).fields).toEqual({ category_list: f.message });
  });
  it('knows the tab of every field, rows included', () => {
    expect(tabOf('services.2.title')).toBe('services');
    expect(tabOf('social_network')).toBe('contact');
    expect(tabOf('portfolio_images')).toBe('pictures');
    expect(tabOf('nope')).toBeNull();
    expect(firstErrorTab({ logo: 'x', descriotion: 'y' })).toBe('basics');
    expect(firstErrorTab({})).toBeNull();
  });
});

describe('profile form', () => {
  it('checks required fields per tab before saving', () => {
    const f = emptyProfileForm();
    expect(Object.keys(validateProfile(f, 'basics')).sort()).toEqual(['category_list', 'profile_name', 'range_worker']);
    expect(Object.keys(validateProfile(f, 'place')).sort()).toEqual(['city_id', 'province_id']);
    // one blank service row and one blank contact row are fine
    expect(validateProfile(f, 'services')).toEqual({});
    expect(validateProfile(f, 'contact')).toEqual({});
    f.services[0].title = 'Repair';
    expect(Object.keys(validateProfile(f, 'services'))).toEqual(['services.0.price']);
    f.services[0].free = true;
    expect(validateProfile(f, 'services')).toEqual({});
    f.social_network[0].link = '021';
    expect(Object.keys(validateProfile(f, 'contact'))).toEqual(['social_network.0.link']);
  });
  it('sends the profile as the spec names it', () => {
    const f = emptyProfileForm();
    f.profile_name = ' Omid Plumbing ';
    f.range_worker = 1;
    f.category_list = [11];
    f.work_history_years = '۱۲';
    f.province = { id: 1, farsi_name: 'تهران', english_name: 'Tehran' };
    f.city = { id: 1, farsi_name: 'تهران', english_name: 'Tehran', slag: 'tehran' };
    f.location = { lat: 35.7, long: 51.4 };
    f.services = [
      { key: 'a', title: 'Visit', price: 500, free: true, description: '' },
      { key: 'b', title: 'Fix', price: 350000, free: false, description: 'with guarantee' },
    ];
    f.social_network = [{ key: 'c', type: 'Whatsap', link: ' 09121234567 ' }, { key: 'd', type: 'Telegram', link: '' }];
    const p = toPayload(f, { byId: (id) => (id === 1 ? { id: 1, farsi_name: 'تاسیسات', english_name: 'Building' } : id === 11 ? { id: 11, farsi_name: 'لوله‌کش', english_name: 'Plumber' } : null) });
    expect(p.profile_name).toBe('Omid Plumbing');
    expect(p.work_history_years).toBe(12);
    expect(p.city_id).toBe(1);
    expect(p.province_id).toBe(1);
    expect(p.range_worker).toBe(1);
    expect(p.category_list).toEqual([11]);
    expect(p.location).toEqual({ lat: 35.7, long: 51.4 });
    expect(p.services).toEqual([
      { title: 'Visit', price: 0, description: '' },
      { title: 'Fix', price: 350000, description: 'with guarantee' },
    ]);
    expect(p.social_network).toEqual([{ type: 'Whatsap', link: '09121234567' }]);
    expect(Object.keys(p.hours_of_work)).toHaveLength(7);
    expect(p.key_word).toBe('Omid Plumbing تهران Tehran تهران Tehran تاسیسات Building لوله‌کش Plumber');
    expect(p).toHaveProperty('descriotion');
  });
  it('reads a profile back into the form', () => {
    const f = fromProfile({
      id: 3,
      slug: 's',
      profile_name: 'X',
      location: [51.4, 35.7],
      services: [{ title: 'A', price: 0 }],
      social_network: [{ type: 'whatsap', link: '0912' }],
      range_worker: { id: 2, farsi_name: '', english_name: '' },
      category_list: [{ id: 21, farsi_name: '', english_name: '' }],
    });
    expect(f.location).toEqual({ lat: 35.7, long: 51.4 });
    expect(f.services[0].free).toBe(true);
    expect(f.social_network[0].type).toBe('Whatsap');
    expect(f.range_worker).toBe(2);
    expect(f.category_list).toEqual([21]);
  });
});
