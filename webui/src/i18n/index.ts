import i18next, { type BackendModule, type PostProcessorModule, type TFunction } from 'i18next';
import { type ComponentChildren, createContext, createElement } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import { cookieString, parseCookies } from '../api/auth';
import fa from './fa.json';
import { useLoad } from '../lib/useLoad';
import { pagePath, underEnglish } from '../lib/langPath';

// The one place pages import translation from: i18next with its React binding, and the app's
// language helpers beside them.
export type { TFunction, TOptions } from 'i18next';

export const LANGS = ['fa', 'en'] as const;
export type Lang = (typeof LANGS)[number];
export const STORAGE_LANG = 'lang';
/** The cookie the server reads to write its pages in the visitor's language (api/middleware.go). */
export const COOKIE_LANG = 'lang';
const COOKIE_LANG_SECONDS = 365 * 24 * 3600;

/**
 * The language the app starts in: the visitor's stored choice, else the one the server wrote on
 * <html> (from the language cookie or the browser's Accept-Language), else Persian. The inline
 * script of index.html picks the same, so the page and the app never disagree.
 */
export function startLang(stored: string | null, served: string | null | undefined): Lang {
  if (stored === 'en' || stored === 'fa') return stored;
  return served === 'en' ? 'en' : 'fa';
}

function storedChoice(): string | null {
  try {
    return typeof localStorage !== 'undefined' ? localStorage.getItem(STORAGE_LANG) : null;
  } catch {
    return null; // storage blocked: the served language stands
  }
}

function storedLang(): Lang {
  // An English address is English, whatever was chosen before.
  if (typeof location !== 'undefined' && underEnglish(location.pathname)) return 'en';
  return startLang(storedChoice(), typeof document !== 'undefined' ? document.documentElement.getAttribute('lang') : null);
}

/** Writes the language cookie (a year, every path) when it does not already say lang. */
function keepLangCookie(lang: Lang) {
  if (typeof document === 'undefined') return;
  if (parseCookies(document.cookie)[COOKIE_LANG] === lang) return;
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Firefox and older Safari; cookieString builds the line, as for the session cookies
  document.cookie = cookieString(COOKIE_LANG, lang, COOKIE_LANG_SECONDS, location.protocol === 'https:');
}

/**
 * A choice stored before the cookie existed reaches the server too. Without a choice nothing is
 * written: the server keeps following the browser's Accept-Language.
 */
export function syncLangCookie() {
  const stored = storedChoice();
  if (stored === 'en' || stored === 'fa') keepLangCookie(stored);
}

/*
 * Cache of texts asked for without options (most of a page's labels): i18next resolves a key anew
 * on each call (its path, fallbacks and post-processing), about a quarter of the script time of a
 * page's first draw, and every component has its own t, so the cache is shared by scope.
 * Key: the scope (language and namespace), then the key. Invalidated: all of it whenever the
 * language changes or texts are added or removed (textsVersion below). Test: memo.test.ts, every
 * key of both catalogues against plain t, before and after a language change and an added and a
 * removed bundle.
 */
let textsVersion = 0;
let textsSeen = 0;
const plainTexts = new Map<string, Map<string, Map<string, string>>>(); // language → namespace → key → text
const memoised = new WeakMap<TFunction, TFunction>();

/**
 * A label as the catalogue stores it, when i18next would answer it unchanged: a plain string of
 * this language, with nothing to fill in ({{…}}) or nest ($t(…)), under a key without a
 * namespace prefix. Otherwise undefined, and i18next answers (fallback language, placeholders,
 * the English capital). Spares i18next's resolution of each label the first time a page asks for
 * it (most of a first draw's labels); memo.test.ts holds it to plain t over both catalogues.
 */
function storedText(lang: string, ns: string, key: string): string | undefined {
  if (key.includes(':')) return undefined;
  const v = i18n.getResource(lang, ns || 'translation', key);
  return typeof v === 'string' && v !== '' && !v.includes('{{') && !v.includes('$t(') ? v : undefined;
}

/**
 * t with its option-less answers cached under its language (asked at each call: a component's t
 * follows the current language) and namespace (see above): the same function for the same t, so
 * effects that depend on t do not run again.
 */
export function memoT(t: TFunction, lang: () => string, ns = ''): TFunction {
  let m = memoised.get(t);
  if (m) return m;
  const plain = t as unknown as (...args: unknown[]) => unknown;
  // The language t answers in: its own when fixed to one (i18next's getFixedT marks it), else the current one.
  const fixed = (t as { lng?: unknown }).lng;
  m = ((key: unknown, ...rest: unknown[]) => {
    if (rest.length > 0 || typeof key !== 'string') return plain(key, ...rest);
    if (textsSeen !== textsVersion) {
      plainTexts.clear();
      textsSeen = textsVersion;
    }
    const l = lang();
    let byNs = plainTexts.get(l);
    if (!byNs) {
      byNs = new Map();
      plainTexts.set(l, byNs);
    }
    let texts = byNs.get(ns);
    if (!texts) {
      texts = new Map();
      byNs.set(ns, texts);
    }
    let text = texts.get(key);
    if (text === undefined) {
      text = storedText(typeof fixed === 'string' ? fixed : i18n.language, ns, key) ?? (plain(key) as string);
      texts.set(key, text);
    }
    return text;
  }) as unknown as TFunction;
  memoised.set(t, m);
  return m;
}

/*
 * The translation hook. react-i18next's did per component and per draw what the app needs once:
 * an options object, a readiness check of its namespaces, a new bound t, and its own listener on
 * i18next added and removed for every component shown (a ninth of a result card's first draw).
 * Here one provider at the root listens, and the components that translate draw again through
 * its context when the language changes (as react-i18next's did: same trigger, and a new t).
 */
const LangContext = createContext('');

/** Draws again every component that translates when the language changes; at the app's root. */
export function TextsProvider({ children }: { children?: ComponentChildren }) {
  const [lang, setLang] = useState(i18n.language);
  useEffect(() => {
    const changed = (l: string) => setLang(l);
    i18n.on('languageChanged', changed);
    setLang(i18n.language); // changed between the first draw and now
    return () => i18n.off('languageChanged', changed);
  }, []);
  return createElement(LangContext.Provider, { value: lang }, children);
}

const bound = new Map<string, TFunction>();

/**
 * The t components get for a language and namespace, made once (cache key: language, namespace;
 * never stale: it answers in i18next's current language at each call, through memoT). The same
 * function for the same language, so effects that depend on t run again only when it changes.
 */
export function boundT(lang: string, ns?: string): TFunction {
  const key = `${lang}\u0000${ns ?? ''}`;
  let t = bound.get(key);
  if (!t) {
    t = memoT(i18n.getFixedT(null, ns ?? null), () => i18n.language, ns);
    bound.set(key, t);
  }
  return t;
}

/** t for the current language (and a namespace, the default one otherwise), with i18next itself. */
export function useTranslation(ns?: string) {
  return { t: boundT(useContext(LangContext), ns), i18n };
}

/**
 * English sentences start with a capital even when a label begins them ("{{des}} can be at
 * most …"): labels are written for the middle of a sentence ("Enter field of work").
 */
const capitalStart: PostProcessorModule = {
  type: 'postProcessor',
  name: 'capitalStart',
  process(value, key, options) {
    const lng = (options?.lng as string | undefined) ?? i18n.language;
    if (lng !== 'en' || !value) return value;
    const k = Array.isArray(key) ? key[0] : key;
    const template = i18n.getResource('en', 'translation', k);
    if (typeof template !== 'string' || !template.startsWith('{{')) return value;
    return value.charAt(0).toLocaleUpperCase('en') + value.slice(1);
  },
};

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
    import('./texts.en').then(
      (m) => done(null, m.default),
      (e: Error) => done(e, null),
    );
  },
};

declare global {
  interface Window {
    /** Texts loaded before the app, by language (src/i18n/texts.en.ts). */
    kardanTexts?: Partial<Record<Lang, typeof fa>>;
  }
}

const early = typeof window === 'undefined' ? undefined : window.kardanTexts?.en;

i18n.use(lazyCatalogues).use(capitalStart).init({
  resources: early ? { fa: { translation: fa }, en: { translation: early } } : { fa: { translation: fa } },
  partialBundledLanguages: true,
  lng: storedLang(),
  fallbackLng: 'fa',
  supportedLngs: LANGS as unknown as string[],
  interpolation: { escapeValue: false },
  postProcess: ['capitalStart'],
  returnNull: false,
  initAsync: false,
  showSupportNotice: false,
});

const textsChanged = () => {
  textsVersion++;
};
i18n.on('languageChanged', textsChanged);
i18n.store.on('added', textsChanged);
i18n.store.on('removed', textsChanged);

/** Whether the texts of the language the app starts in are already there (Persian always is). */
export function langLoaded(): boolean {
  return i18n.hasResourceBundle(storedLang(), 'translation');
}

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
    /* the choice then lasts for this visit only (and in the cookie) */
  }
  keepLangCookie(lang); // the server's next page comes in this language and direction
  await i18n.changeLanguage(lang);
  applyLangToDocument(lang);
  // Persian chosen on an English address: go to the page's Persian address.
  if (lang === 'fa' && typeof location !== 'undefined' && underEnglish(location.pathname)) {
    location.assign(pagePath(location.pathname) + location.search + location.hash);
  }
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
