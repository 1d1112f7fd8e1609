import type { ComponentChildren } from 'preact';
import { useTranslation } from '../i18n';
import { Icon } from './Icon';

/** `page`: the whole page is waiting, so the state fills the window and the footer stays below it instead of jumping down when the content arrives. */
export function Loading({ label, page }: { label?: string; page?: boolean }) {
  const { t } = useTranslation();
  return (
    <div class={page ? 'state state-page' : 'state'} role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" />
      <span>{label ?? t('common.loading')}</span>
    </div>
  );
}

export function ErrorState({ message, onRetry, title }: { message?: string; onRetry?: () => void; title?: string }) {
  const { t } = useTranslation();
  return (
    <div class="state" role="alert">
      <Icon name="alert" size={44} />
      <h2>{title ?? t('errors.problem')}</h2>
      {message && <p>{message}</p>}
      {onRetry && (
        <button type="button" class="btn btn-primary" onClick={onRetry}>
          <Icon name="refresh" size={18} />
          {t('common.tryAgain')}
        </button>
      )}
    </div>
  );
}

export function EmptyState({ title, text, icon = 'search', children }: { title?: string; text?: string; icon?: string; children?: ComponentChildren }) {
  const { t } = useTranslation();
  return (
    <div class="state">
      <Icon name={icon} size={44} />
      <h2>{title ?? t('errors.noItems')}</h2>
      {text && <p>{text}</p>}
      {children}
    </div>
  );
}

export function OfflineNote() {
  const { t } = useTranslation();
  return (
    <p class="offline-note" role="status">
      <Icon name="offline" size={18} />
      {t('offline.savedCopy')}
    </p>
  );
}
