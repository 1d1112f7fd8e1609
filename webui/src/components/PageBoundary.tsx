import { Component, type ComponentChildren } from 'preact';
import { Suspense } from 'preact/compat';
import { useTranslation } from '../i18n';
import { OfflinePage } from '../pages/Offline/OfflinePage';
import { ErrorState } from './StateViews';

/**
 * A lazily loaded page inside its own Suspense boundary. Give it a `key` naming the page, so the
 * router never hands one page's boundary to another.
 *
 * Why not one boundary around <Routes>: preact/compat's Suspense, while a page's code loads, parks
 * the tree it held in a detached element and shows the fallback. When the route changed before
 * the code arrived (Back pressed while the profile's chunk was still loading), the router inside
 * that parked tree drew the page it now matched off the document, and once the chunk came the
 * boundary showed nothing: a blank page until a reload (REVIEW #5, journey 19's scroll-on-Back
 * step). With one keyed boundary per page, leaving a page whose code is still loading unmounts
 * that page's boundary (its late chunk is ignored), and the page shown next was never inside a
 * suspended boundary.
 */
export function PageBoundary({ fallback, children }: { fallback: ComponentChildren; children: ComponentChildren }) {
  return (
    <CodeBoundary>
      <Suspense fallback={fallback}>{children}</Suspense>
    </CodeBoundary>
  );
}

// The history entry shown: the router writes each navigation's key into history.state before it
// draws the page, so a failure belongs to one visit of an address, and any new navigation (to
// the same address too) draws the page again.
const here = () => (history.state as { key?: string } | null)?.key ?? location.pathname + location.search;

/**
 * When a page's code cannot be fetched (offline before the service worker holds it, or a chunk a
 * newer deployment removed), the visitor sees the offline page with the copies on the device, or
 * an error with "try again", instead of a blank page. The next navigation tries again.
 */
class CodeBoundary extends Component<{ children: ComponentChildren }, { failedAt: string | null }> {
  state = { failedAt: null as string | null };

  static getDerivedStateFromError() {
    return { failedAt: here() };
  }

  render() {
    if (this.state.failedAt !== here()) return this.props.children;
    return navigator.onLine ? <CodeError /> : <OfflinePage />;
  }
}

function CodeError() {
  const { t } = useTranslation();
  return (
    <section class="container">
      <ErrorState message={t('errors.checkInternet')} onRetry={() => location.reload()} />
    </section>
  );
}
