import { useEffect, useState } from 'preact/hooks';

/**
 * False on a component's first render, true from the next frame on (or the frame after `after`
 * became true). A long page draws its first
 * screen with it and the rest a frame later: a slow phone paints what is in view sooner and never
 * runs the whole page in one long task that would block a tap.
 */
export function useAfterPaint(after = true): boolean {
  const [later, setLater] = useState(false);
  // Effects run after the browser has painted. `after` chains stages: a part drawn after another
  // waits for that one's paint, so each stage is a task of its own.
  useEffect(() => {
    if (after) setLater(true);
  }, [after]);
  return later;
}

/**
 * The first `first` items of a list when it is new, then `step` more in each following task until
 * all are shown: the cards in view are drawn first, the ones below the fold right after, in short
 * tasks that never keep a slow phone from answering a tap.
 */
export function useProgressive<T>(list: T[], first: number, step = first): { items: T[]; partial: boolean } {
  const [shown, setShown] = useState<{ list: T[]; n: number }>({ list, n: first });
  const n = shown.list === list ? shown.n : first;
  useEffect(() => {
    if (n >= list.length) return;
    const id = setTimeout(() => setShown({ list, n: n + step }), 0);
    return () => clearTimeout(id);
  }, [list, n, step]);
  const partial = n < list.length;
  return { items: partial ? list.slice(0, n) : list, partial };
}
