import { Navigate, useLocation, useParams } from 'react-router-dom';
import { getOwnProfile } from '../../api/desk';
import { ApiError } from '../../api';
import { ErrorState, Loading } from '../../components/StateViews';
import { useTranslation } from '../../i18n';
import { useLoad } from '../../lib/useLoad';
import { useAuth } from '../../state/auth';
import NotFound from '../NotFound';
import { ProfileView } from './index';

/**
 * /preview/{id}: the owner or an admin sees a profile that is not public yet as the public will
 * see it, under a banner. The server answers anyone else 404 (as for a missing id), and so
 * does this page.
 */
export default function ProfilePreview() {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  const auth = useAuth();
  const loc = useLocation();
  const n = Number(id);
  const res = useLoad(() => getOwnProfile(n), [n, auth.loggedIn], { enabled: auth.loggedIn && n > 0 });
  if (!auth.loggedIn) return <Navigate to={`/login?next=${encodeURIComponent(loc.pathname)}`} replace />;
  if (!(n > 0)) return <NotFound />;
  if (res.status === 'error') {
    if (res.error instanceof ApiError && res.error.status === 404) return <NotFound />;
    return (
      <div class="container">
        <ErrorState message={res.error?.message} onRetry={res.reload} />
      </div>
    );
  }
  if (!res.data) return <Loading page label={t('common.loading')} />;
  const p = res.data;
  const isPublic = p.account_status === 'Accepted' && p.active !== false && p.display !== false && !p.delete_at;
  if (isPublic) return <Navigate to={`/profile/${encodeURIComponent(p.slug)}`} replace />;
  return <ProfileView p={p} offline={false} preview />;
}
