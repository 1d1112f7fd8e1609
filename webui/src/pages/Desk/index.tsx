import { lazy, Suspense } from 'preact/compat';
import { useEffect, useState } from 'preact/hooks';
import { localDigits } from '../../lib/digits';
import { Link, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { usePageMeta } from '../../components/PageMeta';
import { Icon } from '../../components/Icon';
import { Loading } from '../../components/StateViews';
import { PageBoundary } from '../../components/PageBoundary';
import type { VNode } from 'preact';
import { getMe, type User } from '../../api';
import { useAuth } from '../../state/auth';
import { useNamespace, useTranslation } from '../../i18n';
import { useLoad } from '../../lib/useLoad';
import { getOwnerLeads } from '../../api/leads';
import { DeskContext } from './context';
import MyProfiles from './MyProfiles';
import MyBlogs from './MyBlogs';
import Account from './Account';
import NotFound from '../NotFound';
import './desk.css';

const ProfileForm = lazy(() => import('./ProfileForm'));
const BlogEditor = lazy(() => import('./BlogEditor'));
const Admin = lazy(() => import('./Admin'));
const Leads = lazy(() => import('./Leads'));
const ProfileStats = lazy(() => import('./ProfileStats'));

/** A lazy part of the Desk in its own boundary, keyed by its name (see PageBoundary for why). */
const page = (name: string, element: VNode) => (
  <PageBoundary key={name} fallback={<Loading />}>
    {element}
  </PageBoundary>
);


function DeskNav({ admin, unreadLeads }: { admin: boolean; unreadLeads: number }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const items = [
    { to: '/dashboard', match: /^\/dashboard(\/profiles.*)?\/?$/, icon: 'briefcase', label: t('desk.nav.profiles') },
    {
      to: '/dashboard/leads',
      match: /^\/dashboard\/leads/,
      icon: 'tag',
      label: t('desk.nav.leads'),
      count: unreadLeads,
    },
    { to: '/dashboard/blogs', match: /^\/dashboard\/blogs/, icon: 'book', label: t('desk.nav.blogs') },
    { to: '/dashboard/account', match: /^\/dashboard\/account/, icon: 'user', label: t('desk.nav.account') },
    ...(admin ? [{ to: '/dashboard/admin', match: /^\/dashboard\/admin/, icon: 'shield', label: t('desk.nav.admin') }] : []),
  ];
  return (
    <nav class="desk-nav" aria-label={t('desk.nav.label')}>
      <ul role="list">
        {items.map((it) => {
          const on = it.match.test(pathname);
          return (
            <li key={it.to}>
              <Link to={it.to} class={`desk-nav-link${on ? ' active' : ''}`} aria-current={on ? 'page' : undefined}>
                <Icon name={it.icon} size={20} />
                <span>{it.label}</span>
                {'count' in it && (it.count ?? 0) > 0 && (
                  <span class="badge nav-count">
                    <span aria-hidden="true">{it.count}</span>
                    <span class="visually-hidden">{t('desk.nav.unread', { count: it.count })}</span>
                  </span>
                )}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The longest the Desk waits for the account's first answer, in ms (see meLoading). */
const ME_WAIT = 5000;

export default function Desk() {
  const { t, i18n } = useTranslation();
  const auth = useAuth();
  const loc = useLocation();
  // The Desk's texts load with it, so the public pages do not carry them.
  const ready = useNamespace('desk');
  // The account: the Desk works without it (the token says who is signed in), so a failure shows nothing.
  const account = useLoad<User | null>(() => getMe(), [auth.loggedIn], { enabled: auth.loggedIn, progress: false });
  const me = account.data ?? null;
  const setMe = account.set;
  // Only the first load: a later reload keeps the account it had (and so its data).
  const firstLoad = account.status === 'loading' && account.data === undefined;
  // Waited for ME_WAIT at most: an answer that never comes (a stalled network) would otherwise hold
  // a new profile's form on its loading state for good; it then starts without the mobile prefill.
  const [meLate, setMeLate] = useState(false);
  useEffect(() => {
    if (!firstLoad) {
      setMeLate(false);
      return;
    }
    const id = setTimeout(() => setMeLate(true), ME_WAIT);
    return () => clearTimeout(id);
  }, [firstLoad]);
  const meLoading = firstLoad && !meLate;
  usePageMeta(ready ? t('desk.title') : undefined);
  // The inbox's unread count beside its link; the inbox reloads it after each change.
  const leads = useLoad((signal) => getOwnerLeads(0, 1, signal), [auth.loggedIn], { enabled: auth.loggedIn, progress: false });

  if (!auth.loggedIn) return <Navigate to={`/login?next=${encodeURIComponent(loc.pathname + loc.search)}`} replace />;
  if (!ready) return <Loading />;

  const admin = auth.isAdmin || !!me?.isAdmin;
  return (
    <DeskContext.Provider value={{ me, meLoading, setMe, admin, userId: auth.userId }}>
      <div class="container desk">
        <aside class="desk-side">
          <div class="desk-user">
            <span class="desk-avatar" aria-hidden="true">
              {me?.profileImage ? <img src={me.profileImage} alt="" /> : <Icon name="user" size={22} />}
            </span>
            <div>
              <strong dir="auto">{me?.name || t('desk.title')}</strong>
              {me?.numberPhone && (
                <span class="small muted ltr" dir="ltr">
                  {localDigits(me.numberPhone, i18n.language)}
                </span>
              )}
            </div>
          </div>
          <DeskNav admin={admin} unreadLeads={leads.data?.unread ?? 0} />
        </aside>
        <div class="desk-main">
          <Suspense fallback={<Loading />}>
            <Routes>
              <Route index element={<MyProfiles />} />
              <Route path="profiles/new" element={page('profile-new', <ProfileForm />)} />
              <Route path="profiles/:id" element={page('profile-edit', <ProfileForm />)} />
              <Route path="profiles/:id/stats" element={page('profile-stats', <ProfileStats />)} />
              <Route path="blogs" element={<MyBlogs />} />
              <Route path="blogs/new" element={page('blog-new', <BlogEditor />)} />
              <Route path="blogs/:id" element={page('blog-edit', <BlogEditor />)} />
              <Route path="leads" element={page('leads', <Leads onChange={leads.reload} />)} />
              <Route path="account" element={<Account />} />
              <Route path="admin/*" element={page('admin', <Admin />)} />
              <Route path="*" element={<NotFound />} />
            </Routes>
          </Suspense>
        </div>
      </div>
    </DeskContext.Provider>
  );
}
