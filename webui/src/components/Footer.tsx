import { Link } from 'react-router-dom';
import { useTranslation } from '../i18n';
import { Logo } from './Logo';
import { jalaliOf } from '../lib/jalali';
import { localDigits } from '../lib/digits';

/** This year, Jalali with Persian digits in fa; without the Persian calendar's Intl data, which costs a slow phone a long task on every first paint. */
function copyrightYear(lang: string): string {
  const now = new Date();
  return lang === 'fa' ? localDigits(jalaliOf(now).jy, 'fa') : String(now.getFullYear());
}

export function Footer() {
  const { t, i18n } = useTranslation();
  return (
    <footer class="site-footer">
      <div class="container footer-grid">
        <div class="footer-brand">
          <Logo />
          <p class="muted small">{t('footer.about')}</p>
        </div>
        <nav aria-label={t('footer.services')}>
          <h2 class="footer-title">{t('footer.services')}</h2>
          <ul>
            <li>
              <Link to="/search/iran">{t('footer.findPro')}</Link>
            </li>
            <li>
              <Link to="/map">{t('nav.map')}</Link>
            </li>
            <li>
              <Link to="/register">{t('footer.registerBusiness')}</Link>
            </li>
            <li>
              <Link to="/blog">{t('nav.blog')}</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label={t('footer.regulation')}>
          <h2 class="footer-title">{t('footer.regulation')}</h2>
          <ul>
            <li>
              <Link to="/terms">{t('footer.terms')}</Link>
            </li>
            <li>
              <Link to="/terms/privacy">{t('footer.privacy')}</Link>
            </li>
            <li>
              <Link to="/terms/secure-service">{t('footer.secure')}</Link>
            </li>
            <li>
              <Link to="/terms/prohibited">{t('footer.prohibited')}</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label={t('footer.kardan')}>
          <h2 class="footer-title">{t('footer.kardan')}</h2>
          <ul>
            <li>
              <Link to="/about">{t('nav.about')}</Link>
            </li>
            <li>
              <Link to="/contact">{t('nav.contact')}</Link>
            </li>
          </ul>
        </nav>
      </div>
      <div class="container footer-bottom small muted">
        {t('footer.copyright', { year: copyrightYear(i18n.language) })}
      </div>
    </footer>
  );
}
