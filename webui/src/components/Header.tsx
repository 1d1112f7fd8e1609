import { useEffect, useRef, useState } from 'preact/hooks';
import { Link, NavLink, useLocation, useNavigate } from 'react-router-dom';
import { Icon } from './Icon';
import { Logo } from './Logo';
import { ConfirmDialog } from './Dialog';
import { NotificationBell } from './NotificationBell';
import { useAuth } from '../state/auth';
import { setLang, currentLang, useTranslation } from '../i18n';
import { setTheme, useTheme, type ThemeChoice } from '../state/theme';
import { toast } from '../state/toast';
import { lastCity } from '../lib/cityMemory';

const NAV = [
  { to: '/', key: 'nav.home', end: true },
  { to: '/search/iran', key: 'nav.search', match: '/search' },
  { to: '/map', key: 'nav.map' },
  { to: '/blog', key: 'nav.blog' },
  { to: '/about', key: 'nav.about' },
  { to: '/contact', key: 'nav.contact' },
];

const NEXT_THEME: Record<ThemeChoice, ThemeChoice> = { light: 'dark', dark: 'system', system: 'light' };
const THEME_ICON: Record<ThemeChoice, string> = { light: 'sun', dark: 'moon', system: 'system' };

function LangToggle({ block }: { block?: boolean }) {
  const { t } = useTranslation();
  const other = currentLang() === 'fa' ? 'en' : 'fa';
  return (
    <button
      type="button"
      class={block ? 'btn btn-outline btn-block' : 'btn btn-ghost btn-sm lang-btn'}
      onClick={() => setLang(other)}
      lang={other}
      aria-label={t('header.switchLang')}
    >
      <Icon name="globe" size={18} />
      {other === 'en' ? 'English' : 'فارسی'}
    </button>
  );
}

function ThemeToggle({ block }: { block?: boolean }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const label = t('header.theme', { theme: t(`theme.${theme}`) });
  return (
    <button
      type="button"
      class={block ? 'btn btn-outline btn-block' : 'icon-btn'}
      onClick={() => setTheme(NEXT_THEME[theme])}
      aria-label={label}
      title={label}
    >
      <Icon name={THEME_ICON[theme]} />
      {block && <span>{label}</span>}
    </button>
  );
}

function AccountMenu({ onSignOut }: { onSignOut: () => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const loc = useLocation();
  useEffect(() => setOpen(false), [loc.pathname]);
  useEffect(() => {
    if (!open) return;
    const onDoc = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onDoc);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDoc);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  return (
    <div class="account" ref={ref}>
      <button type="button" class="btn btn-outline btn-sm" aria-haspopup="true" aria-expanded={open} onClick={() => setOpen(!open)}>
        <Icon name="user" size={18} />
        {t('header.account')}
        <Icon name="chevronDown" size={16} />
      </button>
      {open && (
        <div class="account-menu card">
          <Link to="/dashboard" class="account-item">
            <Icon name="desk" size={18} />
            {t('header.desk')}
          </Link>
          <button
            type="button"
            class="account-item"
            onClick={() => {
              setOpen(false);
              onSignOut();
            }}
          >
            <Icon name="logout" size={18} />
            {t('header.signOut')}
          </button>
        </div>
      )}
    </div>
  );
}

export function Header() {
  const { t } = useTranslation();
  const auth = useAuth();
  const navigate = useNavigate();
  const loc = useLocation();
  const drawer = useRef<HTMLDialogElement>(null);
  // The menu's contents are built when it opens, not with every page: a dozen links and toggles
  // less in a slow phone's first task.
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);

  const closeDrawer = () => drawer.current?.open && drawer.current.close();
  // A new page closes the menu.
  useEffect(() => {
    if (drawer.current?.open) drawer.current.close();
  }, [loc.pathname]);
  useEffect(() => {
    const d = drawer.current;
    if (drawerOpen && d && !d.open) d.showModal();
  }, [drawerOpen]);

  const doSignOut = async () => {
    setBusy(true);
    await auth.signOut();
    setBusy(false);
    setConfirm(false);
    toast(t('header.signedOut'), 'success');
    navigate('/');
  };

  const next = encodeURIComponent(loc.pathname + loc.search);
  const onSearch = loc.pathname.startsWith('/search/');
  const authLinks = auth.loggedIn ? null : (
    <>
      <Link to={`/login?next=${next}`} class="btn btn-ghost btn-sm">
        {t('nav.login')}
      </Link>
      <Link to="/register" class="btn btn-primary btn-sm">
        {t('nav.register')}
      </Link>
    </>
  );

  return (
    <header class="site-header">
      <div class="container header-row">
        <button
          type="button"
          class="icon-btn menu-btn"
          aria-label={t('header.openMenu')}
          aria-controls="drawer"
          onClick={() => setDrawerOpen(true)}
        >
          <Icon name="menu" />
        </button>
        <Link to="/" class="brand" aria-label={t('header.home')}>
          <Logo />
        </Link>
        <nav class="main-nav" aria-label={t('header.mainMenu')}>
          {NAV.map((n) => (
            <NavLink
              key={n.to}
              to={n.to}
              end={n.end}
              className={({ isActive }: { isActive: boolean }) =>
                isActive || (n.match && loc.pathname.startsWith(n.match)) ? 'nav-link active' : 'nav-link'
              }
            >
              {t(n.key)}
            </NavLink>
          ))}
        </nav>
        <div class="header-tools">
          <Link
            to={onSearch ? loc.pathname + loc.search : `/search/${lastCity()?.slag ?? 'iran'}`}
            class="icon-btn search-btn"
            aria-label={t('nav.search')}
            onClick={(e) => {
              // On the results the search bar is already there, filled in: the icon takes the
              // visitor to it instead of starting over in all of Iran (REVIEW #14).
              const box = onSearch ? document.getElementById('f-q') : null;
              if (!box) return;
              e.preventDefault();
              window.scrollTo({ top: 0 });
              box.focus();
            }}
          >
            <Icon name="search" />
          </Link>
          <Link to="/saved" class="icon-btn saved-link" aria-label={t('nav.saved')}>
            <Icon name="heart" />
          </Link>
          <span class="desktop-only">
            <LangToggle />
          </span>
          <span class="desktop-only">
            <ThemeToggle />
          </span>
          {auth.loggedIn ? (
            <>
              <NotificationBell />
              <Link to="/dashboard" class="icon-btn mobile-only" aria-label={t('header.desk')}>
                <Icon name="user" />
              </Link>
              <span class="desktop-only">
                <AccountMenu onSignOut={() => setConfirm(true)} />
              </span>
            </>
          ) : (
            <span class="auth-links">{authLinks}</span>
          )}
        </div>
      </div>

      {/* biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop closes the drawer; the keyboard closes it with Escape */}
      <dialog
        id="drawer"
        ref={drawer}
        class="drawer"
        aria-label={t('header.mainMenu')}
        onClick={(e) => {
          if (e.target === drawer.current) closeDrawer();
        }}
        onClose={() => setDrawerOpen(false)}
      >
        {drawerOpen && (
          <div class="drawer-inner">
            <div class="drawer-head">
              <Logo />
              <button type="button" class="icon-btn" aria-label={t('common.close')} onClick={closeDrawer}>
                <Icon name="close" />
              </button>
            </div>
            <nav class="drawer-nav" aria-label={t('header.mainMenu')}>
              {NAV.map((n) => (
                <NavLink key={n.to} to={n.to} end={n.end} className="drawer-link">
                  {t(n.key)}
                </NavLink>
              ))}
              <span class="drawer-link disabled" aria-disabled="true">
                {t('nav.projects')}
                <span class="badge badge-soon">{t('common.comingSoon')}</span>
              </span>
            </nav>
            <div class="drawer-section">
              {auth.loggedIn ? (
                <>
                  <Link to="/dashboard" class="btn btn-primary btn-block">
                    <Icon name="desk" size={18} />
                    {t('header.desk')}
                  </Link>
                  <button
                    type="button"
                    class="btn btn-outline btn-block"
                    onClick={() => {
                      closeDrawer();
                      setConfirm(true);
                    }}
                  >
                    <Icon name="logout" size={18} />
                    {t('header.signOut')}
                  </button>
                </>
              ) : (
                <>
                  <Link to="/register" class="btn btn-primary btn-block">
                    {t('nav.register')}
                  </Link>
                  <Link to={`/login?next=${next}`} class="btn btn-outline btn-block">
                    {t('nav.login')}
                  </Link>
                </>
              )}
            </div>
            <div class="drawer-section">
              <LangToggle block />
              <ThemeToggle block />
            </div>
          </div>
        )}
      </dialog>

      <ConfirmDialog
        open={confirm}
        title={t('header.exitTitle')}
        message={t('header.exitQuestion')}
        onConfirm={doSignOut}
        onClose={() => setConfirm(false)}
        busy={busy}
      />
    </header>
  );
}
