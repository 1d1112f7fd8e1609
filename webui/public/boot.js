(function () {
  var root = document.documentElement;
  var lang = 'fa';
  var theme = 'system';
  try {
    lang = localStorage.getItem('lang') === 'en' ? 'en' : 'fa';
    theme = localStorage.getItem('theme') || 'system';
  } catch (e) {}
  var dark = theme === 'dark' || (theme !== 'light' && window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches);
  root.setAttribute('lang', lang);
  root.setAttribute('dir', lang === 'en' ? 'ltr' : 'rtl');
  root.setAttribute('data-theme', dark ? 'dark' : 'light');
})();
