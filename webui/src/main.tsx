import { render } from 'preact';
import './styles/fonts.css';
import './styles/global.css';
import './styles/frame.css';
import './styles/cards.css';
import { applyLangToDocument, currentLang } from './i18n';
import { initTheme } from './state/theme';
import { App } from './App';

applyLangToDocument(currentLang());
initTheme();
render(<App />, document.getElementById('app')!);

// A lazy chunk from an older deployment may be gone: load the current version instead.
window.addEventListener('vite:preloadError', (e) => {
  e.preventDefault();
  if (!sessionStorage.getItem('kardan.reloaded')) {
    sessionStorage.setItem('kardan.reloaded', '1');
    location.reload();
  }
});

if ('serviceWorker' in navigator && import.meta.env.PROD) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  });
}
