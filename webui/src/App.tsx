import { lazy, Suspense } from 'preact/compat';
import { useEffect } from 'preact/hooks';
import type { ComponentType, VNode } from 'preact';
import { EN_BASE, underEnglish } from './lib/langPath';
import { BrowserRouter, Navigate, Route, Routes, useLocation, useNavigate, useNavigationType } from 'react-router-dom';
import { TextsProvider, useTranslation } from './i18n';
import { Header } from './components/Header';
import { Footer } from './components/Footer';
import { ProgressBar } from './components/ProgressBar';
import { Toaster } from './components/Toaster';
import { PageBoundary } from './components/PageBoundary';
import { AuthProvider, useAuth } from './state/auth';
import { progressDone, progressStart } from './state/progress';
import { setUnauthorizedHandler } from './api';
import { placeScroll, trackScroll } from './lib/scrollPlace';
import { useSavedSync } from './state/saved';
import Home from './pages/Home';
import NotFound from './pages/NotFound';

/**
 * A lazy page whose module is handed over a task after it loaded. Preloaded with the page, a
 * page's code is there when the app first draws, so the header, the page and everything in it
 * were drawn in one long task (over 200 ms on a slow phone, a tap waiting all along); handed over
 * a task later, the shell is drawn in one task and the page in the next.
 */
function lazyPage<P>(load: () => Promise<{ default: ComponentType<P> }>) {
  return lazy(() => load().then((m) => new Promise<typeof m>((resolve) => setTimeout(() => resolve(m), 0))));
}

const Search = lazyPage(() => import('./pages/Search'));
const MapPage = lazyPage(() => import('./pages/Map'));
const Profile = lazyPage(() => import('./pages/Profile'));
const ProfilePreview = lazyPage(() => import('./pages/Profile/Preview'));
const Blog = lazyPage(() => import('./pages/Blog'));
const BlogPost = lazyPage(() => import('./pages/BlogPost'));
const Contact = lazyPage(() => import('./pages/Contact'));
const Legal = lazyPage(() => import('./pages/Legal'));
const Login = lazyPage(() => import('./pages/Login'));
const Register = lazyPage(() => import('./pages/Register'));
const Desk = lazyPage(() => import('./pages/Desk'));
const Offline = lazyPage(() => import('./pages/Offline'));
const Requests = lazyPage(() => import('./pages/Requests'));
const Saved = lazyPage(() => import('./pages/Saved'));
const Poster = lazyPage(() => import('./pages/Poster'));
const ShortLink = lazyPage(() => import('./pages/Saved/ShortLink'));

/** Shown while a page's code loads: keeps the layout steady and drives the progress bar. */
function RouteFallback() {
  useEffect(() => {
    progressStart();
    return progressDone;
  }, []);
  return <div class="route-fallback" aria-hidden="true" />;
}

/** A lazy page in its own boundary, keyed by its name (see PageBoundary for why). */
const page = (name: string, element: VNode) => (
  <PageBoundary key={name} fallback={<RouteFallback />}>
    {element}
  </PageBoundary>
);

function RouteEffects() {
  const loc = useLocation();
  const navigate = useNavigate();
  const auth = useAuth();
  const navType = useNavigationType();

  useEffect(() => {
    if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
  }, []);

  useEffect(() => trackScroll(loc.key), [loc.key]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: placed once per history entry; the navigation type and hash are read for that entry
  useEffect(() => {
    placeScroll(loc.key, loc.hash, navType === 'POP');
  }, [loc.key]);
  useSavedSync(auth.userId);

  useEffect(() => {
    setUnauthorizedHandler(() => {
      auth.signOut({ server: false });
      const here = window.location.pathname + window.location.search;
      if (window.location.pathname !== '/login') navigate(`/login?next=${encodeURIComponent(here)}`);
    });
  }, [auth.signOut, navigate]);

  useEffect(() => {
    progressStart();
    const id = requestAnimationFrame(() => requestAnimationFrame(progressDone));
    return () => {
      cancelAnimationFrame(id);
    };
  }, [loc.pathname, loc.search]);

  return null;
}

function Shell() {
  const { t } = useTranslation();
  return (
    <>
      <a class="skip-link" href="#main">
        {t('common.skip')}
      </a>
      <RouteEffects />
      <Header />
      <main id="main" tabIndex={-1}>
        {/* Fixed at the top of the window; inside <main> so it belongs to a landmark (the page it loads). */}
        <ProgressBar />
        {/* Each lazy page has its own boundary (page()); this one only catches what none of them holds. */}
        <Suspense fallback={<RouteFallback />}>
          <Routes>
            <Route path="/" element={<Home />} />
            <Route path="/search" element={<Navigate to="/search/iran" replace />} />
            <Route path="/search/:city" element={page('search', <Search />)} />
            <Route path="/search/:city/:category" element={page('search', <Search />)} />
            <Route path="/map" element={page('map', <MapPage />)} />
            <Route path="/profile/:slug" element={page('profile', <Profile />)} />
            <Route path="/preview/:id" element={page('preview', <ProfilePreview />)} />
            <Route path="/blog" element={page('blog', <Blog />)} />
            <Route path="/blog/:slug" element={page('blog-post', <BlogPost />)} />
            <Route path="/contact" element={page('contact', <Contact />)} />
            <Route path="/about" element={page('legal-about', <Legal page="about" />)} />
            <Route path="/terms" element={page('legal-terms', <Legal page="terms" />)} />
            <Route path="/terms/privacy" element={page('legal-privacy', <Legal page="privacy" />)} />
            <Route path="/terms/secure-service" element={page('legal-secure', <Legal page="secure" />)} />
            <Route path="/terms/prohibited" element={page('legal-prohibited', <Legal page="prohibited" />)} />
            <Route path="/login" element={page('login', <Login />)} />
            <Route path="/register" element={page('register', <Register />)} />
            <Route path="/dashboard/*" element={page('desk', <Desk />)} />
            <Route path="/requests" element={page('requests', <Requests />)} />
            <Route path="/offline" element={page('offline', <Offline />)} />
            <Route path="/saved" element={page('saved', <Saved />)} />
            <Route path="/poster/:id" element={page('poster', <Poster />)} />
            <Route path="/p/:id" element={page('short-link', <ShortLink />)} />
            <Route path="*" element={<NotFound />} />
          </Routes>
        </Suspense>
      </main>
      <Footer />
      <Toaster />
    </>
  );
}

export function App() {
  return (
    <TextsProvider>
      <BrowserRouter basename={underEnglish(location.pathname) ? EN_BASE : undefined}>
        <AuthProvider>
          <Shell />
        </AuthProvider>
      </BrowserRouter>
    </TextsProvider>
  );
}
