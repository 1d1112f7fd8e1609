import type { ComponentChildren } from 'preact';
import { useTranslation } from '../i18n';
import { Icon } from './Icon';
import type { Load } from '../lib/useLoad';

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

interface LoadedProps<T> {
  load: Load<T>;
  /** Whether the answer has nothing to show; then `empty` is shown instead of the children. */
  isEmpty?: (data: T) => boolean;
  empty?: ComponentChildren;
  /** The whole page waits (see Loading). */
  page?: boolean;
  /** What shows while there is nothing yet (skeleton cards); the spinner when left out, nothing when null. */
  loading?: ComponentChildren;
  children: (data: T) => ComponentChildren;
}

/**
 * The one way a loaded part of a page shows its states: the error with a retry button, the spinner
 * while there is nothing yet, the empty state, then the data. An answer held from before stays on
 * screen while the next one loads, so a page does not blink on every filter change.
 */
export function Loaded<T>({ load, isEmpty, empty, page, loading, children }: LoadedProps<T>) {
  if (load.status === 'error') return <ErrorState message={load.error?.message} onRetry={load.reload} />;
  if (load.data === undefined) {
    if (load.status === 'idle') return null;
    return loading === undefined ? <Loading page={page} /> : loading;
  }
  if (isEmpty?.(load.data)) return <>{empty ?? <EmptyState />}</>;
  return <>{children(load.data)}</>;
}
