import { afterEach, describe, expect, it } from 'vitest';
import { i18n, loadNamespace, localName, startLang } from './index';

// The app's translation is i18next behind src/i18n: these are the behaviours the pages rely on.
describe('i18n', () => {
  afterEach(() => i18n.changeLanguage('fa'));

  it('finds nested keys and fills placeholders', async () => {
    await i18n.changeLanguage('en');
    expect(i18n.t('common.loading')).toBe('Loading…');
    i18n.addResourceBundle('en', 'translation', { x: { hello: 'Hi {{name}}, {{ n }} new' } }, true, true);
    expect(i18n.t('x.hello', { name: 'Ali <b>', n: 3 })).toBe('Hi Ali <b>, 3 new');
  });

  it('falls back to Persian, then to the default value', async () => {
    i18n.addResourceBundle('fa', 'translation', { onlyFa: 'فقط فارسی' }, true, true);
    await i18n.changeLanguage('en');
    expect(i18n.t('onlyFa')).toBe('فقط فارسی');
    expect(i18n.t('no.such.key', { defaultValue: 'dflt' })).toBe('dflt');
  });

  it('loads the legal texts as their own namespace, in both languages', async () => {
    await loadNamespace('legal');
    expect(i18n.hasResourceBundle('fa', 'legal')).toBe(true);
    expect(i18n.hasResourceBundle('en', 'legal')).toBe(true);
  });

  it('starts in the stored choice, else in the language the server wrote on <html>', () => {
    expect(startLang('en', 'fa')).toBe('en');
    expect(startLang('fa', 'en')).toBe('fa');
    expect(startLang(null, 'en')).toBe('en');
    expect(startLang(null, 'fa')).toBe('fa');
    expect(startLang('xx', null)).toBe('fa');
    expect(startLang(null, undefined)).toBe('fa');
  });

  it('capitalises an English sentence that a label begins', async () => {
    await loadNamespace('desk');
    await i18n.changeLanguage('en');
    const des = i18n.t('deskForm.labels.range_worker');
    expect(des).toBe('field of work'); // a label, for the middle of a sentence
    expect(i18n.t('errors.enter', { des })).toBe('Enter field of work');
    expect(i18n.t('deskForm.errors.tooLong', { des, max: 5 })).toBe('Field of work can be at most 5 characters');
    await i18n.changeLanguage('fa');
    expect(i18n.t('deskForm.errors.tooLong', { des: 'x', max: 5 })).toBe('x حداکثر 5 نویسه می‌تواند باشد');
  });

  it('names a place in the current language', async () => {
    const tehran = { farsi_name: 'تهران', english_name: 'Tehran' };
    expect(localName(tehran)).toBe('تهران');
    await i18n.changeLanguage('en');
    expect(localName(tehran, 'en')).toBe('Tehran');
  });
});
