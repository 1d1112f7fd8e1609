import { Link } from 'react-router-dom';
import { useTranslation } from '../../i18n';
import { usePageMeta } from '../../components/PageMeta';

export default function NotFound() {
  const { t } = useTranslation();
  usePageMeta(t('notFound.title'), t('notFound.text'));
  return (
    <section class="container not-found">
      <svg class="nf-art" viewBox="0 0 200 120" aria-hidden="true" focusable="false">
        <text x="100" y="92" text-anchor="middle">404</text>
        <path d="M100 18c-12 0-22 9.6-22 21.5C78 55 100 72 100 72s22-17 22-32.5C122 27.6 112 18 100 18z" />
        <circle cx="100" cy="39" r="8" />
      </svg>
      <h1>{t('notFound.title')}</h1>
      <p class="muted">{t('notFound.text')}</p>
      <Link to="/" class="btn btn-primary">
        {t('notFound.home')}
      </Link>
    </section>
  );
}
