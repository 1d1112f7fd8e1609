import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import fa from './fa.json';
import en from './en.json';
import { boundT, i18n, memoT } from './index';

function keys(o: unknown, prefix = ''): string[] {
  if (Array.isArray(o)) return [];
  if (o && typeof o === 'object') return Object.entries(o).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
  return [prefix];
}

// memoT answers a key asked without options from memory: it must answer what plain t answers,
// for every key, and follow a language change and texts added later.
describe('memoT', () => {
  const same = (t: TFunction, list: string[], lang: string) => {
    const m = memoT(t, () => lang);
    for (let round = 0; round < 2; round++) {
      for (const k of list) expect(m(k), k).toBe(t(k));
    }
  };

  it('answers every key of both catalogues as plain t does, from memory the second time', async () => {
    same(i18n.getFixedT('fa'), keys(fa), 'fa');
    await i18n.loadLanguages('en');
    same(i18n.getFixedT('en'), keys(en), 'en');
    // Options and plurals go to plain t each time.
    const m = memoT(i18n.getFixedT('en'), () => 'en');
    expect(m('offline.results', { n: 1, count: 1 })).toBe(i18n.getFixedT('en')('offline.results', { n: 1, count: 1 }));
    expect(m('offline.results', { n: 5, count: 5 })).toBe(i18n.getFixedT('en')('offline.results', { n: 5, count: 5 }));
  });

  it('is one function per t, so effects that depend on t do not run again', () => {
    const t = i18n.getFixedT('fa');
    expect(memoT(t, () => 'fa')).toBe(memoT(t, () => 'fa'));
  });

  it('forgets its answers when the language changes or texts are added', async () => {
    const t = i18n.getFixedT(null as unknown as string); // follows the current language
    // Filed under one language whatever the current one: the language change alone must clear it.
    const m = memoT(t, () => 'fa');
    await i18n.changeLanguage('fa');
    const faText = m('errors.generic');
    expect(faText).toBe(fa.errors.generic);
    await i18n.changeLanguage('en');
    expect(m('errors.generic')).toBe(en.errors.generic);
    await i18n.changeLanguage('fa');
    expect(m('errors.generic')).toBe(faText);

    // A key missing until a bundle adds it (the Desk's texts arrive this way), and gone again
    // with its bundle. (Adding deep-merges into the store's object, the imported catalogue: it is
    // put back from a copy.)
    const original = structuredClone(fa);
    expect(m('memoTest.added')).toBe('memoTest.added');
    i18n.addResourceBundle('fa', 'translation', { memoTest: { added: 'افزوده' } }, true, true);
    expect(m('memoTest.added')).toBe('افزوده');
    i18n.removeResourceBundle('fa', 'translation');
    expect(m('errors.generic')).toBe(t('errors.generic'));
    i18n.addResourceBundle('fa', 'translation', original, true, true);
    expect(m('memoTest.added')).toBe('memoTest.added');
    expect(m('errors.generic')).toBe(faText);
  });
});

// boundT is the t every component gets: one function per language and namespace, answering in
// the current language at each call.
describe('boundT', () => {
  it('is the same function for the same language and namespace, another for another language', () => {
    expect(boundT('fa')).toBe(boundT('fa'));
    expect(boundT('fa', 'legal')).toBe(boundT('fa', 'legal'));
    expect(boundT('en')).not.toBe(boundT('fa'));
    expect(boundT('fa', 'legal')).not.toBe(boundT('fa'));
  });

  it('answers in the current language what plain t answers', async () => {
    await i18n.loadLanguages('en');
    for (const lang of ['fa', 'en', 'fa']) {
      await i18n.changeLanguage(lang);
      const t = boundT(lang);
      for (const k of ['errors.generic', 'common.loading', 'home.topPros']) expect(t(k), `${lang} ${k}`).toBe(i18n.t(k));
      expect(t('offline.results', { n: 2, count: 2 })).toBe(i18n.t('offline.results', { n: 2, count: 2 }));
    }
  });
});
