import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from './index';

describe('translation runtime', () => {
  afterEach(() => i18n.changeLanguage('fa'));

  it('finds nested keys and fills placeholders', async () => {
    await i18n.changeLanguage('en');
    expect(i18n.t('common.loading')).toBe('Loading…');
    i18n.addResourceBundle('en', 'translation', { x: { hello: 'Hi {{name}}, {{ n }} new; {{missing}}' } }, true, true);
    expect(i18n.t('x.hello', { name: 'Ali', n: 3 })).toBe('Hi Ali, 3 new; {{missing}}');
  });

  it('falls back to Persian, then to the default value, then to the key', async () => {
    i18n.addResourceBundle('fa', 'translation', { onlyFa: 'فقط فارسی' }, true, true);
    await i18n.changeLanguage('en');
    expect(i18n.t('onlyFa')).toBe('فقط فارسی');
    expect(i18n.t('no.such.key', { defaultValue: 'dflt' })).toBe('dflt');
    expect(i18n.t('no.such.key')).toBe('no.such.key');
  });

  it('answers objects only when asked, and merges bundles deeply', () => {
    i18n.addResourceBundle('fa', 'extra', { a: { b: 'x', list: [1, 2] } }, true, false);
    i18n.addResourceBundle('fa', 'extra', { a: { b: 'kept', c: 'added' } }, true, false);
    expect(i18n.hasResourceBundle('fa', 'extra')).toBe(true);
    expect(i18n.hasResourceBundle('en', 'extra')).toBe(false);
    const t = i18n.getFixedT('fa', 'extra');
    expect(t('a', { returnObjects: true })).toEqual({ b: 'x', c: 'added', list: [1, 2] });
    expect(t('a')).toBe('a');
    expect(t('a.b')).toBe('x');
  });
});
