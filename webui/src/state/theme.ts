import { createStore, useStore } from './store';

export type ThemeChoice = 'light' | 'dark' | 'system';
export const STORAGE_THEME = 'theme';
export const THEMES: ThemeChoice[] = ['light', 'dark', 'system'];

function stored(): ThemeChoice {
  try {
    const v = localStorage.getItem(STORAGE_THEME);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

export const themeStore = createStore<ThemeChoice>(typeof localStorage === 'undefined' ? 'system' : stored());

function media(): MediaQueryList | null {
  return typeof window !== 'undefined' && window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
}

export function effectiveTheme(choice: ThemeChoice): 'light' | 'dark' {
  if (choice === 'system') return media()?.matches ? 'dark' : 'light';
  return choice;
}

function apply() {
  const t = effectiveTheme(themeStore.get());
  document.documentElement.setAttribute('data-theme', t);
  const meta = document.querySelector('meta[name="theme-color"]');
  meta?.setAttribute('content', t === 'dark' ? '#11181c' : '#0b6e69');
}

export function setTheme(choice: ThemeChoice) {
  try {
    localStorage.setItem(STORAGE_THEME, choice);
  } catch {
    /* the choice then lasts for this visit only */
  }
  themeStore.set(choice);
  apply();
}

export function initTheme() {
  apply();
  media()?.addEventListener?.('change', () => {
    if (themeStore.get() === 'system') apply();
  });
}

export function useTheme(): ThemeChoice {
  return useStore(themeStore);
}
