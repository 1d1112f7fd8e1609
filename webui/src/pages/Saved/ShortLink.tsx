import { useEffect } from 'preact/hooks';
import { useNavigate, useParams } from 'react-router-dom';
import { ApiError, getProfile } from '../../api';
import { ErrorState, Loading } from '../../components/StateViews';
import { useLoad } from '../../lib/useLoad';
import { useTranslation } from '../../i18n';
import NotFound from '../NotFound';

/**
 * /p/{id} inside the app (a link followed without a page load, or served by the service worker):
 * the server answers it with a redirect, so here it is looked up and replaced by the profile's page.
 */
export default function ShortLink() {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const valid = /^[1-9][0-9]{0,17}$/.test(id);
  const res = useLoad(() => getProfile(Number(id)), [id], { enabled: valid });
  const slug = res.data?.slug;
  useEffect(() => {
    if (slug) navigate(`/profile/${encodeURIComponent(slug)}`, { replace: true });
  }, [slug, navigate]);
  if (!valid || (res.status === 'error' && res.error instanceof ApiError && res.error.status === 404)) return <NotFound />;
  if (res.status === 'error') {
    return (
      <div class="container">
        <ErrorState message={res.error?.message} onRetry={res.reload} />
      </div>
    );
  }
  return <Loading page label={t('common.loading')} />;
}
