import { Link } from 'react-router-dom';
import { useTranslation } from '../../../i18n';
import { adminClaims, decideClaim, type Claim } from '../../../api/owners';
import { formatDate } from '../../../lib/format';
import { toast } from '../../../state/toast';
import { StatusBadge } from '../StatusBadge';
import { ModerationQueue, MoveButton, type QueueControl } from './ModerationQueue';

const STATUSES = ['Pending', 'Accepted', 'Rejected'];

/**
 * Claims of listings an admin made for businesses. Each claimant proved the listed number with
 * a code; accepting moves the listing to them (and closes the listing's other claims).
 */
export default function ClaimQueue() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;

  const ask = (q: QueueControl<Claim>, c: Claim, to: 'Accepted' | 'Rejected') =>
    q.ask({
      title: t(`deskClaims.move.${to}`),
      subject: `${c.profile_name} ← ${c.user_name}`,
      confirm: t(`deskAdmin.do.${to}`),
      danger: to === 'Rejected',
      noteHint: t('deskClaims.noteHint'),
      run: async (note) => {
        await decideClaim(c.id, to, note);
        toast(t('deskAdmin.done'), 'success');
        q.reload();
      },
    });

  return (
    <ModerationQueue<Claim>
      load={(s) => adminClaims(s).then((r) => ({ items: r.claims, count: r.count }))}
      filters={STATUSES.map((s) => ({ value: s, label: t(`deskClaims.status.${s}`) }))}
      defaultStatus="Pending"
      keyOf={(c) => c.id}
      empty={{ icon: 'key', title: t('deskAdmin.emptyQueue') }}
      renderItem={(c, q) => (
        <div class="item-body claim-card">
          <h3 dir="auto">
            <Link to={`/profile/${encodeURIComponent(c.slug)}`}>{c.profile_name}</Link>
          </h3>
          <div class="item-meta">
            <StatusBadge status={c.status} />
            <span dir="auto">{t('deskClaims.by', { name: c.user_name })}</span>
            <span dir="ltr">{c.numberPhone}</span>
            <span>{formatDate(c.create_at, lang)}</span>
          </div>
          <p class="small">
            {t('deskClaims.proved')} <span dir="ltr">{c.phone}</span>
          </p>
          {c.description && (
            <p class="item-text" dir="auto">
              {c.description}
            </p>
          )}
          {c.register_admin?.description && c.status !== 'Pending' && (
            <p class="small muted" dir="auto">
              {t('deskAdmin.reports.note')}: {c.register_admin.description}
            </p>
          )}
          {c.status === 'Pending' && (
            <div class="item-actions">
              <MoveButton to="Accepted" onClick={() => ask(q, c, 'Accepted')} />
              <MoveButton to="Rejected" onClick={() => ask(q, c, 'Rejected')} />
            </div>
          )}
        </div>
      )}
    />
  );
}
