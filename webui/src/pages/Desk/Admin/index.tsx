import { Link, Route, Routes, useLocation } from 'react-router-dom';
import { useTranslation } from '../../../i18n';
import { Icon } from '../../../components/Icon';
import { useDesk } from '../context';
import Overview from './Overview';
import ProfileQueue from './ProfileQueue';
import BlogQueue from './BlogQueue';
import CommentQueue from './CommentQueue';
import AllProfiles from './AllProfiles';
import Inbox from './Inbox';
import ReportQueue from './ReportQueue';
import VerifyQueue from './VerifyQueue';
import ClaimQueue from './ClaimQueue';
import './admin.css';

const SECTIONS = [
  { path: '', icon: 'chart', key: 'overview' },
  { path: 'profiles', icon: 'briefcase', key: 'profiles' },
  { path: 'blogs', icon: 'book', key: 'blogs' },
  { path: 'comments', icon: 'comment', key: 'comments' },
  { path: 'reports', icon: 'alert', key: 'reports' },
  { path: 'verification', icon: 'shield', key: 'verification' },
  { path: 'claims', icon: 'key', key: 'claims' },
  { path: 'all', icon: 'grid', key: 'all' },
  { path: 'inbox', icon: 'inbox', key: 'inbox' },
];

/** The moderation screens. Shown to users whom login marked as admins; the server checks every call. */
export default function Admin() {
  const { t } = useTranslation();
  const desk = useDesk();
  const { pathname } = useLocation();
  if (!desk.admin)
    return (
      <div class="state" role="alert">
        <Icon name="lock" size={44} />
        <h2>{t('deskAdmin.notAdmin')}</h2>
        <p>{t('deskAdmin.notAdminText')}</p>
      </div>
    );
  const here = pathname.replace(/^\/dashboard\/admin\/?/, '').split('/')[0];
  return (
    <section aria-labelledby="ad-title">
      <header class="desk-head">
        <div>
          <h1 id="ad-title">{t('deskAdmin.title')}</h1>
          <p class="muted">{t('deskAdmin.intro')}</p>
        </div>
      </header>
      <nav class="filters admin-tabs" aria-label={t('deskAdmin.sections')}>
        {SECTIONS.map((s) => (
          <Link key={s.key} to={`/dashboard/admin${s.path ? `/${s.path}` : ''}`} class="filter-chip" aria-current={here === s.path ? 'page' : undefined}>
            <Icon name={s.icon} size={16} />
            {t(`deskAdmin.tabs.${s.key}`)}
          </Link>
        ))}
      </nav>
      <Routes>
        <Route index element={<Overview />} />
        <Route path="profiles" element={<ProfileQueue />} />
        <Route path="blogs" element={<BlogQueue />} />
        <Route path="comments" element={<CommentQueue />} />
        <Route path="reports" element={<ReportQueue />} />
        <Route path="verification" element={<VerifyQueue />} />
        <Route path="claims" element={<ClaimQueue />} />
        <Route path="all" element={<AllProfiles />} />
        <Route path="inbox" element={<Inbox />} />
      </Routes>
    </section>
  );
}
