import i18next, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import fa from './fa.json';
import { useLoad } from '../lib/useLoad';

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

/**
 * Persian, the default, comes with the app; the English texts are fetched when English is chosen
 * (i18next asks this backend for a language it does not hold), so a Persian visit does not carry
 * them. The on-demand namespaces (legal, desk) are added by loadNamespace, not read here.
 */
const lazyCatalogues: BackendModule = {
  type: 'backend',
  init() {},
  read(lng, ns, done) {
    if (lng !== 'en' || ns !== 'translation') {
      done(null, {});
      return;
    }
    import('./en.json').then(
      (m) => done(null, m.default),
      (e: Error) => done(e, null),
    );
  },
};

i18n.use(initReactI18next).use(lazyCatalogues).init({
  resources: { fa: { translation: fa } },
  partialBundledLanguages: true,
  lng: storedLang(),
  fallbackLng: 'fa',
  supportedLngs: LANGS as unknown as string[],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
  showSupportNotice: false,
  react: { useSuspense: false },
});

/** Resolves when the texts of the language the app starts in are there (English is fetched). */
export function langReady(): Promise<void> {
  const lang = storedLang();
  return lang === 'fa' ? Promise.resolve() : i18n.loadLanguages(lang).then(() => undefined);
}

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

/** Whether a catalogue loaded on demand is there yet; the first use loads it. */
export function useNamespace(ns: keyof typeof BUNDLES): boolean {
  const texts = useLoad(() => loadNamespace(ns).then(() => true), [ns], { initial: () => (loaded.has(ns) ? true : undefined), progress: false });
  return texts.data === true;
}
