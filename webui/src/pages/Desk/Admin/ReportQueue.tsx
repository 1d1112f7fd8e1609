import { useTranslation } from '../../../i18n';
import { Icon } from '../../../components/Icon';
import { adminReports, resolveReports, type ReportGroup } from '../../../api/desk';
import { formatDate } from '../../../lib/format';
import { localDigits } from '../../../lib/digits';
import { toast } from '../../../state/toast';
import { StatusBadge } from '../StatusBadge';
import { ModerationQueue, type QueueControl } from './ModerationQueue';

const STATUSES = ['Open', 'Dismissed', 'Actioned'];

/**
 * Visitors' reports of profiles and comments, one card per reported item with its count and
 * reasons, the most reported first (the server's order). Dismissing closes the reports; acting
 * blocks the profile or hides the comment and closes them.
 */
export default function ReportQueue() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;

  const ask = (q: QueueControl<ReportGroup>, g: ReportGroup, to: 'Dismissed' | 'Actioned') =>
    q.ask({
      title: t(to === 'Dismissed' ? 'deskAdmin.reports.dismissTitle' : g.entity === 'profile' ? 'deskAdmin.reports.blockTitle' : 'deskAdmin.reports.hideTitle'),
      subject: g.title,
      confirm: t(to === 'Dismissed' ? 'deskAdmin.reports.dismiss' : g.entity === 'profile' ? 'deskAdmin.reports.block' : 'deskAdmin.reports.hide'),
      danger: to === 'Actioned',
      noteHint: t('deskAdmin.reports.noteHint'),
      run: async (note) => {
        await resolveReports(g.entity, g.id, to, note);
        toast(t('deskAdmin.done'), 'success');
        q.patch((items) => items.filter((x) => !(x.entity === g.entity && x.id === g.id)));
      },
    });

  return (
    <ModerationQueue<ReportGroup>
      load={(s, skip, take) => adminReports(s, skip, take).then((r) => ({ items: r.reports, count: r.count }))}
      filters={STATUSES.map((s) => ({ value: s, label: t(`deskAdmin.reports.status.${s}`) }))}
      defaultStatus="Open"
      keyOf={(g) => `${g.entity}-${g.id}`}
      empty={{ icon: 'alert', title: t('deskAdmin.emptyQueue') }}
      renderItem={(g, q) => (
        <div class="item-body report-card">
          <div class="item-meta">
            <span class="badge">{t(`deskAdmin.reports.entity.${g.entity}`)}</span>
            <strong class="report-count">{t('deskAdmin.reports.count', { n: localDigits(g.count, lang) })}</strong>
            {g.item_status && <StatusBadge status={g.item_status} />}
            <span>{t('deskAdmin.reports.last', { d: formatDate(g.last_at, lang) })}</span>
          </div>
          <p class="item-text" dir="auto">
            {g.missing ? (
              t('deskAdmin.reports.missing')
            ) : g.slug ? (
              <a href={`/profile/${encodeURIComponent(g.slug)}`} dir="auto">
                {g.title}
              </a>
            ) : (
              g.title
            )}
          </p>
          <ul class="report-reasons" role="list" aria-label={t('deskAdmin.reports.reasons')}>
            {Object.entries(g.reasons).map(([r, n]) => (
              <li key={r} class="filter-chip">
                {t(`report.reasons.${r}`)} · {localDigits(n, lang)}
              </li>
            ))}
          </ul>
          {g.reports.some((r) => r.description) && (
            <ul class="report-notes small" role="list">
              {g.reports
                .filter((r) => r.description)
                .map((r) => (
                  <li key={r.id} dir="auto">
                    {r.description}
                  </li>
                ))}
            </ul>
          )}
          {g.register_admin?.description && q.status !== 'Open' && (
            <p class="small muted" dir="auto">
              {t('deskAdmin.reports.note')}: {g.register_admin.description}
            </p>
          )}
          {q.status === 'Open' && (
            <div class="item-actions">
              <button type="button" class="btn btn-sm btn-outline" onClick={() => ask(q, g, 'Dismissed')}>
                <Icon name="check" size={16} />
                {t('deskAdmin.reports.dismiss')}
              </button>
              <button type="button" class="btn btn-sm btn-outline danger-text" onClick={() => ask(q, g, 'Actioned')}>
                <Icon name={g.entity === 'profile' ? 'lock' : 'close'} size={16} />
                {t(g.entity === 'profile' ? 'deskAdmin.reports.block' : 'deskAdmin.reports.hide')}
              </button>
            </div>
          )}
        </div>
      )}
    />
  );
}
