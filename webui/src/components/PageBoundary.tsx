import { Suspense } from 'preact/compat';
import type { ComponentChildren } from 'preact';

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
  return <Suspense fallback={fallback}>{children}</Suspense>;
}
