import { render } from 'preact';
import '@fontsource/vazirmatn/400.css';
import '@fontsource/vazirmatn/600.css';
import '@fontsource/vazirmatn/800.css';
import './styles/global.css';
import './styles/frame.css';
import './styles/cards.css';
import { applyLangToDocument, currentLang } from './i18n';
import { initTheme } from './state/theme';
import { App } from './App';

applyLangToDocument(currentLang());
initTheme();
render(<App />, document.getElementById('app')!);
