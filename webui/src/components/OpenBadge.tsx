import { useTranslation } from '../i18n';
import type { OpenStatus } from '../lib/hours';

export function OpenBadge({ status }: { status: OpenStatus }) {
  const { t } = useTranslation();
  const cls = status === 'Open' ? 'badge-open' : status === 'Boarding' ? 'badge-boarding' : 'badge-closed';
  return <span class={`badge ${cls}`}>{t(`hours.status.${status}`)}</span>;
}
