/**
 * Keeps the reader's place across navigations: Back and Forward return to where each page was
 * scrolled, a link with a #fragment scrolls to that section, any other move starts at the top.
 * Pages draw their content after loading it, so the wanted position is retried for a while
 * (until the page is tall enough or the element exists) and given up as soon as the person
 * scrolls, taps or types themselves.
 */

// Key: the router's location.key (one per history entry). Written on every scroll; read on a
// Back or Forward to that entry. Never invalidated: an entry's last position is what Back means.
const positions = new Map<string, number>();
const PATIENCE_MS = 4000;

let cancel: (() => void) | null = null;

/** Records the window's scroll position for the history entry shown now. */
export function trackScroll(key: string): () => void {
  // The router writes the entry's key into history.state before it draws the next page, so a
  // scroll the browser makes while swapping pages (clamping to a shorter one) is not saved as
  // this entry's place.
  const save = () => {
    if (((history.state as { key?: string } | null)?.key ?? 'default') === key) positions.set(key, window.scrollY);
  };
  window.addEventListener('scroll', save, { passive: true });
  return () => window.removeEventListener('scroll', save);
}

/** Retries `step` each frame until it answers true, the time runs out, or the person takes over. */
function retry(step: () => boolean) {
  cancel?.();
  let frame = 0;
  const until = performance.now() + PATIENCE_MS;
  const stop = () => {
    cancelAnimationFrame(frame);
    for (const ev of ['wheel', 'touchstart', 'keydown', 'mousedown'] as const) window.removeEventListener(ev, stop);
    cancel = null;
  };
  for (const ev of ['wheel', 'touchstart', 'keydown', 'mousedown'] as const) window.addEventListener(ev, stop, { passive: true });
  cancel = stop;
  const tick = () => {
    if (step() || performance.now() > until) return stop();
    frame = requestAnimationFrame(tick);
  };
  tick();
}

/** Puts the window where this navigation should show it (see the file's comment). */
export function placeScroll(key: string, hash: string, back: boolean) {
  const saved = back ? positions.get(key) : undefined;
  if (saved !== undefined) {
    retry(() => {
      const reachable = document.documentElement.scrollHeight - window.innerHeight >= saved - 1;
      window.scrollTo(0, saved);
      return reachable && Math.abs(window.scrollY - saved) < 2;
    });
    return;
  }
  const id = hash.length > 1 ? decodeURIComponent(hash.slice(1)) : '';
  if (id) {
    window.scrollTo(0, 0);
    // Content may still arrive above the section (pictures), moving it, or below it (a side
    // column drawn a frame later): while the page is too short the window cannot scroll the
    // section to the top, and once the rest arrives the section has not moved. So it is placed
    // again whenever it moves or the page's height changes, until both have stayed put for a
    // dozen frames.
    let still = 0;
    let last = Number.NaN;
    let height = 0;
    retry(() => {
      const el = document.getElementById(id);
      if (!el) return false;
      const top = el.getBoundingClientRect().top;
      const h = document.documentElement.scrollHeight;
      if (Number.isNaN(last) || Math.abs(top - last) > 1 || h !== height) {
        el.scrollIntoView({ block: 'start' });
        last = el.getBoundingClientRect().top;
        height = h;
        still = 0;
        return false;
      }
      return ++still > 12;
    });
    return;
  }
  cancel?.();
  window.scrollTo(0, 0);
}
