import { Link } from 'react-router-dom';
import { usePageMeta } from '../../components/PageMeta';
import { ProfileCard } from '../../components/ProfileCard';
import { EmptyState } from '../../components/StateViews';
import { Icon } from '../../components/Icon';
import type { Profile } from '../../api/types';
import { useTranslation } from '../../i18n';
import { useAuth } from '../../state/auth';
import { useSaved } from '../../state/saved';

/**
 * The businesses saved with the heart. Drawn from the device's copy, so it works offline and
 * signed out; signed in, the copy follows the account (state/saved.ts).
 */
export default function SavedPage() {
  const { t } = useTranslation();
  const auth = useAuth();
  const saved = useSaved();
  usePageMeta(t('saved.title'), t('saved.description'));
  const cards = saved.ids.map((id) => saved.items[id]).filter(Boolean) as Profile[];
  return (
    <section class="container saved-page">
      <h1>{t('saved.title')}</h1>
      {!auth.loggedIn && cards.length > 0 && (
        <p class="muted small saved-note">
          <Icon name="info" size={16} class="inline-icon" />
          {t('saved.deviceOnly')} <Link to="/login?next=%2Fsaved">{t('saved.signInToKeep')}</Link>
        </p>
      )}
      {cards.length === 0 ? (
        <EmptyState icon="heart" title={t('saved.emptyTitle')} text={t('saved.emptyText')}>
          <Link to="/search/iran" class="btn btn-primary">
            <Icon name="search" size={18} />
            {t('saved.find')}
          </Link>
        </EmptyState>
      ) : (
        <div class="saved-list">
          {cards.map((p) => (
            <ProfileCard key={p.id} p={p} level={2} />
          ))}
        </div>
      )}
    </section>
  );
}
