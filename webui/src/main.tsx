import { render } from 'preact';
import './styles/fonts.css';
import './styles/global.css';
import './styles/frame.css';
import './styles/cards.css';
import { applyLangToDocument, currentLang, langLoaded, langReady, syncLangCookie } from './i18n';
import { initTheme } from './state/theme';
import { App } from './App';
import { startProfileLoad, startSearchLoad } from './api';
import { firstRequestOf } from './lib/firstRequest';
import { pagePath } from './lib/langPath';

startEarlyLoads();

applyLangToDocument(currentLang());
syncLangCookie();
initTheme();
// The app draws at once, in its language: Persian comes with it, and an English page loads the
// English texts just before it (src/i18n/texts.en.ts). Otherwise (English chosen on a page
// served in Persian, or its texts' script failed) they are fetched first; it draws anyway if that
// fails, with the Persian texts.
// The server writes the page's main content into the root for readers without the app
// (api/page_content.go); the app takes the root over empty, so it never patches those nodes.
const draw = () => {
  const root = document.getElementById('app')!;
  root.replaceChildren();
  render(<App />, root);
};
if (langLoaded()) draw();
else langReady().catch(() => undefined).then(draw);

/** Asks for the data of the page the app starts on before that page's code has loaded. */
function startEarlyLoads() {
  const first = firstRequestOf(pagePath(location.pathname), location.search);
  if (first?.page === 'profile') startProfileLoad(first.body.slug);
  else if (first?.page === 'search') startSearchLoad(first.body, first.url);
}

// A lazy chunk from an older deployment may be gone: load the current version instead. Offline a
// reload fetches nothing newer: the code that asked for the chunk tells the visitor (a lazy dialog
// says to check the connection; a page shows its error).
window.addEventListener('vite:preloadError', (e) => {
  if (!navigator.onLine) return;
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
