import { Link, Navigate, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { usePageMeta } from '../../components/PageMeta';
import { Icon } from '../../components/Icon';
import { getMe, type Profile } from '../../api';
import { storedProfiles } from '../../api/auth';
import { useAuth } from '../../state/auth';
import { useAsync } from '../../lib/useAsync';
import { localName } from '../../i18n';
import './desk.css';

function ownProfiles(): Profile[] {
  return storedProfiles().filter((x): x is Profile => !!x && typeof x === 'object' && 'profile_name' in (x as object));
}

export default function Desk() {
  const { t, i18n } = useTranslation();
  const auth = useAuth();
  const loc = useLocation();
  usePageMeta(t('desk.title'));
  const me = useAsync(() => (auth.loggedIn ? getMe() : Promise.resolve(null)), [auth.loggedIn]);
  if (!auth.loggedIn) return <Navigate to={`/login?next=${encodeURIComponent(loc.pathname + loc.search)}`} replace />;
  const profiles = ownProfiles();
  return (
    <div class="container desk">
      <header class="page-head desk-head">
        <h1>{me.data?.name ? t('desk.hello', { name: me.data.name }) : t('desk.title')}</h1>
        <p class="muted">{t('desk.intro')}</p>
      </header>
      <section class="card card-pad">
        <div class="section-head">
          <h2>{t('desk.myProfiles')}</h2>
          <span class="badge badge-soon">
            {t('nav.projects')}: {t('common.comingSoon')}
          </span>
        </div>
        {profiles.length === 0 ? (
          <p class="muted">{t('desk.noProfiles')}</p>
        ) : (
          <ul class="desk-list" role="list">
            {profiles.map((p) => (
              <li key={p.id} class="desk-item">
                <Icon name="briefcase" size={20} />
                <div>
                  <strong dir="auto">{p.profile_name}</strong>
                  <div class="small muted">
                    {localName(p.range_worker, i18n.language)}
                    {p.account_status && ` · ${t(`desk.status.${p.account_status}`, { defaultValue: p.account_status })}`}
                  </div>
                </div>
                {p.slug && (
                  <Link to={`/profile/${encodeURIComponent(p.slug)}`} class="btn btn-outline btn-sm">
                    {t('desk.view')}
                  </Link>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
