import { useEffect, useMemo, useState } from 'preact/hooks';
import fa from './fa.json';
import en from './en.json';

/*
 * A small translation runtime in place of i18next + react-i18next: the app uses nested keys,
 * {{name}} placeholders, a default value, whole objects for the legal texts and namespaces loaded
 * later, nothing more. The two libraries were about a third of the first screen's script (about
 * 20 KB gzip), which a slow phone downloads, parses and runs before it shows anything.
 */

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

type Tree = { [key: string]: unknown };
export type TOptions = { defaultValue?: string; returnObjects?: boolean; [name: string]: unknown };
export interface TFunction {
  (key: string, options?: TOptions & { returnObjects?: false }): string;
  (key: string, options: TOptions & { returnObjects: true }): unknown;
}

const FALLBACK: Lang = 'fa';
const resources: Record<string, Record<string, Tree>> = { fa: { translation: fa }, en: { translation: en } };
const listeners = new Set<() => void>();

function lookup(lang: string, ns: string, key: string): unknown {
  let o: unknown = resources[lang]?.[ns];
  for (const part of key.split('.')) {
    if (!o || typeof o !== 'object') return undefined;
    o = (o as Tree)[part];
  }
  return o;
}

function translate(lang: string, ns: string, key: string, options?: TOptions): unknown {
  let v = lookup(lang, ns, key);
  if (v === undefined && lang !== FALLBACK) v = lookup(FALLBACK, ns, key);
  if (v === undefined) return options?.defaultValue ?? key;
  if (typeof v !== 'string') return options?.returnObjects ? v : key;
  if (!options || v.indexOf('{{') < 0) return v;
  // A placeholder without a value stays as written, as i18next leaves it.
  return v.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (m, name: string) => (options[name] === undefined ? m : String(options[name])));
}

function fixedT(lang: string, ns: string): TFunction {
  return ((key: string, options?: TOptions) => translate(lang, ns, key, options)) as TFunction;
}

function merge(into: Tree, from: Tree, overwrite: boolean) {
  for (const [k, v] of Object.entries(from)) {
    const cur = into[k];
    if (v && typeof v === 'object' && !Array.isArray(v) && cur && typeof cur === 'object' && !Array.isArray(cur)) merge(cur as Tree, v as Tree, overwrite);
    else if (overwrite || cur === undefined) into[k] = v;
  }
}

export const i18n = {
  language: storedLang() as string,
  t: ((key: string, options?: TOptions) => translate(i18n.language, 'translation', key, options)) as TFunction,
  async changeLanguage(lang: string) {
    if (lang === i18n.language) return;
    i18n.language = lang;
    listeners.forEach((f) => f());
  },
  /** Adds texts to a namespace: merged into what is there (deep), replacing existing keys when `overwrite`. */
  addResourceBundle(lang: string, ns: string, data: Tree, deep = true, overwrite = false) {
    const langRes = (resources[lang] ??= {});
    if (!langRes[ns] || !deep) langRes[ns] = deep ? {} : { ...data };
    if (deep) merge(langRes[ns], data, overwrite);
  },
  hasResourceBundle(lang: string, ns: string): boolean {
    return !!resources[lang]?.[ns];
  },
  getFixedT: fixedT,
};

/** The texts of a namespace in the current language; the component draws again when the language changes. */
export function useTranslation(ns = 'translation') {
  const [lang, setLang] = useState(i18n.language);
  useEffect(() => {
    const update = () => setLang(i18n.language);
    listeners.add(update);
    update();
    return () => {
      listeners.delete(update);
    };
  }, []);
  const t = useMemo(() => fixedT(lang, ns), [lang, ns]);
  return { t, i18n };
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
