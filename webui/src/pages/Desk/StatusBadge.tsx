import { useTranslation } from '../../i18n';

const TONE: Record<string, string> = {
  Pending: 'pending',
  Rejected: 'bad',
  Accepted: 'good',
  Published: 'good',
  Blocked: 'bad',
  Deleted: 'muted',
  Draft: 'muted',
  Hidden: 'bad',
  Visible: 'good',
};

/** A moderation status as a coloured badge: profiles, blogs and comments share the words. */
export function StatusBadge({ status }: { status: string | undefined }) {
  const { t } = useTranslation();
  if (!status) return null;
  return <span class={`badge status status-${TONE[status] ?? 'muted'}`}>{t(`desk.status.${status}`, { defaultValue: status })}</span>;
}
