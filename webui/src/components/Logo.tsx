import { useTranslation } from '../i18n';

/** The Kardan mark: a map pin holding a check, beside the word mark. */
export function LogoMark({ size = 34 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 48 48" aria-hidden="true" focusable="false" class="logo-mark">
      <rect width="48" height="48" rx="14" class="logo-bg" />
      <path d="M24 9c-6.6 0-12 5.2-12 11.7C12 29.3 24 39 24 39s12-9.7 12-18.3C36 14.2 30.6 9 24 9z" class="logo-pin" />
      <path d="m18.5 20.5 4 4 7.5-7.5" class="logo-check" />
    </svg>
  );
}

export function Logo() {
  const { t } = useTranslation();
  return (
    <span class="logo">
      <LogoMark />
      <span class="logo-text">{t('app.name')}</span>
    </span>
  );
}
