import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import fa from './fa.json';
import en from './en.json';

// The one place pages import translation from: i18next with its React binding, and the app's
// language helpers beside them.
export { useTranslation } from 'react-i18next';
export type { TFunction, TOptions } from 'i18next';

export const LANGS = ['fa', 'en'] as const;
export type Lang = (typeof LANGS)[number];
export const STORAGE_LANG = 'lang';

function storedLang(): Lang {
  try {
    return typeof localStorage !== 'undefined' && localStorage.getItem(STORAGE_LANG) === 'en' ? 'en' : 'fa';
  } catch {
    return 'fa';
  }
}

export const i18n = i18next.createInstance();

i18n.use(initReactI18next).init({
  resources: { fa: { translation: fa }, en: { translation: en } },
  lng: storedLang(),
  fallbackLng: 'fa',
  supportedLngs: LANGS as unknown as string[],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
  showSupportNotice: false,
  react: { useSuspense: false },
});

export function currentLang(): Lang {
  return i18n.language === 'en' ? 'en' : 'fa';
}

export function applyLangToDocument(lang: Lang) {
  if (typeof document === 'undefined') return;
  const root = document.documentElement;
  root.lang = lang;
  root.dir = lang === 'en' ? 'ltr' : 'rtl';
}

export async function setLang(lang: Lang) {
  try {
    localStorage.setItem(STORAGE_LANG, lang);
  } catch {
    /* the choice then lasts for this visit only */
  }
  await i18n.changeLanguage(lang);
  applyLangToDocument(lang);
}

/** A name in the current language from a {farsi_name, english_name} record. */
export function localName(x: { farsi_name?: string; english_name?: string } | null | undefined, lang: string = currentLang()): string {
  if (!x) return '';
  return (lang === 'en' ? x.english_name || x.farsi_name : x.farsi_name || x.english_name) ?? '';
}

const loaded = new Set<string>();

const BUNDLES = {
  legal: () => Promise.all([import('./legal.fa.json'), import('./legal.en.json')]),
  desk: () => Promise.all([import('./desk.fa.json'), import('./desk.en.json')]),
};

/**
 * Loads texts on demand: the long legal texts as the `legal` namespace, and the Desk's texts
 * merged into the default namespace (so the Desk writes t('deskForm.…') like any page).
 */
export async function loadNamespace(ns: keyof typeof BUNDLES): Promise<void> {
  if (loaded.has(ns)) return;
  const [faNs, enNs] = await BUNDLES[ns]();
  const target = ns === 'legal' ? 'legal' : 'translation';
  i18n.addResourceBundle('fa', target, faNs.default, true, ns === 'legal');
  i18n.addResourceBundle('en', target, enNs.default, true, ns === 'legal');
  loaded.add(ns);
}

export function isNamespaceLoaded(ns: keyof typeof BUNDLES): boolean {
  return loaded.has(ns);
}
