import { Link } from 'react-router-dom';
import { myClaims } from '../../api/owners';
import { useTranslation } from '../../i18n';
import { formatDate } from '../../lib/format';
import { useLoad } from '../../lib/useLoad';
import { StatusBadge } from './StatusBadge';

/** The businesses this account claimed and what became of each claim; nothing when there are none. */
export function MyClaims() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const claims = useLoad(() => myClaims(), [], { progress: false });
  const list = claims.data?.claims ?? [];
  if (!list.length) return null;
  return (
    <section class="card card-pad my-claims" aria-labelledby="my-claims-title">
      <h2 id="my-claims-title">{t('deskClaims.mine')}</h2>
      <ul role="list">
        {list.map((c) => (
          <li key={c.id} class="item-meta">
            <Link to={`/profile/${encodeURIComponent(c.slug)}`} dir="auto">
              {c.profile_name}
            </Link>
            <StatusBadge status={c.status} />
            <span>{formatDate(c.create_at, lang)}</span>
            {c.status !== 'Pending' && c.register_admin?.description && (
              <span class="small muted" dir="auto">
                {t('desk.adminNote')}: {c.register_admin.description}
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
