import { Link } from 'react-router-dom';
import { useTranslation } from '../../../i18n';
import { Icon } from '../../../components/Icon';
import { adminBlogs, adminComments, adminProfiles, getCritics, getSiteStats } from '../../../api/desk';
import { Loaded } from '../../../components/StateViews';
import { lastDays, StatsTotals } from '../ProfileStats';
import { formatNumber } from '../../../lib/format';
import { useLoad } from '../../../lib/useLoad';

interface Count {
  key: string;
  icon: string;
  to: string;
  tone?: string;
  load: () => Promise<number>;
}

/** A few counts, each read from a list's `count` (there is no separate statistics call). */
const COUNTS: Count[] = [
  { key: 'profilesPending', icon: 'clock', to: '/dashboard/admin/profiles', tone: 'pending', load: () => adminProfiles('Pending', 0, 1).then((r) => r.count) },
  { key: 'profilesAccepted', icon: 'check', to: '/dashboard/admin/profiles?status=Accepted', tone: 'good', load: () => adminProfiles('Accepted', 0, 1).then((r) => r.count) },
  { key: 'profilesRejected', icon: 'alert', to: '/dashboard/admin/profiles?status=Rejected', load: () => adminProfiles('Rejected', 0, 1).then((r) => r.count) },
  { key: 'profilesBlocked', icon: 'lock', to: '/dashboard/admin/profiles?status=Blocked', load: () => adminProfiles('Blocked', 0, 1).then((r) => r.count) },
  { key: 'profilesDeleted', icon: 'trash', to: '/dashboard/admin/profiles?status=Deleted', load: () => adminProfiles('Deleted', 0, 1).then((r) => r.count) },
  { key: 'blogsPending', icon: 'book', to: '/dashboard/admin/blogs', tone: 'pending', load: () => adminBlogs('Pending', 0, 1).then((r) => r.count) },
  { key: 'commentsHidden', icon: 'comment', to: '/dashboard/admin/comments?status=Hidden', load: () => adminComments('Hidden', 0, 1).then((r) => r.count) },
  { key: 'criticsUnread', icon: 'inbox', to: '/dashboard/admin/inbox?status=unread', tone: 'pending', load: () => getCritics(0, 1, false).then((r) => r.count) },
  { key: 'critics', icon: 'mail', to: '/dashboard/admin/inbox', load: () => getCritics(0, 1).then((r) => r.count) },
];

/** One count, loading by itself: a slow list does not hold the others back. */
function CountCard({ c }: { c: Count }) {
  const { t, i18n } = useTranslation();
  const n = useLoad(() => c.load(), [c.key], { progress: false });
  return (
    <Link to={c.to} class={`count-card card${c.tone ? ` tone-${c.tone}` : ''}`}>
      <span class="count-icon" aria-hidden="true">
        <Icon name={c.icon} size={20} />
      </span>
      <span class="count-value">
        {n.status === 'error' ? '—' : n.data === undefined ? <span class="spinner" role="img" aria-label={t('common.loading')} /> : formatNumber(n.data, i18n.language)}
      </span>
      <span class="count-label">{t(`deskAdmin.counts.${c.key}`)}</span>
      {/* Said only where a number is missing, not as a standing footnote (REVIEW #35). */}
      {n.status === 'error' && <span class="count-note small muted">{t('deskAdmin.countsNote')}</span>}
    </Link>
  );
}

/** The site's figures over the last 30 days: views, appearances and taps of every profile. */
function SiteStats() {
  const { t } = useTranslation();
  const { from, to } = lastDays(30);
  const stats = useLoad((signal) => getSiteStats(from, to, signal), [from, to], { progress: false });
  return (
    <section class="site-stats" aria-labelledby="site-stats-title">
      <h2 id="site-stats-title">{t('deskStats.site')}</h2>
      <Loaded load={stats}>{(s) => <StatsTotals s={s} />}</Loaded>
    </section>
  );
}

export default function Overview() {
  const { t } = useTranslation();
  return (
    <div>
      <h2 class="visually-hidden">{t('deskAdmin.tabs.overview')}</h2>
      <ul class="counts" role="list">
        {COUNTS.map((c) => (
          <li key={c.key}>
            <CountCard c={c} />
          </li>
        ))}
      </ul>
      <SiteStats />
    </div>
  );
}
