import { afterEach, describe, expect, it } from 'vitest';
import { i18n, loadNamespace, localName } from './index';

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

  it('names a place in the current language', async () => {
    const tehran = { farsi_name: 'تهران', english_name: 'Tehran' };
    expect(localName(tehran)).toBe('تهران');
    await i18n.changeLanguage('en');
    expect(localName(tehran, 'en')).toBe('Tehran');
  });
});
