/** The longest a press holds changes back, in ms, when its release is never seen. */
export const MAX_PRESS = 1000;

/**
 * Runs a layout change only once no pointer is pressed and the press's click has been delivered.
 *
 * Leaving a field by pressing a button (a mouse down, or a finger's tap, whose mousedown, mouseup
 * and click a phone sends in one go) blurs the field first. An error shown right then, under the
 * field, pushes the button down while it is pressed: the release lands beside it and the click is
 * lost. Waiting for the release, and then for the next task, lets the click land first.
 */
export function pressWatcher(target: EventTarget): (fn: () => void) => void {
  // One flag, not a set of pointer ids: a release missed (the window left mid-press) is then
  // forgotten at the next release instead of holding every later error back.
  let pressed = false;
  let waiting: (() => void)[] = [];
  const flush = () => {
    const run = waiting;
    waiting = [];
    for (const fn of run) fn();
  };
  // A release can also never reach the page: a native <select>'s list, opened by the press, takes
  // it. So a press counts for at most MAX_PRESS, and a key pressed (the list chosen from with the
  // keyboard, or the keyboard taking over) ends it too: an error is held back a moment, never lost.
  let giveUp: ReturnType<typeof setTimeout> | undefined;
  const up = () => {
    clearTimeout(giveUp);
    if (!pressed) return;
    pressed = false;
    if (waiting.length) setTimeout(flush, 0);
  };
  // Capture: a press is seen even when the pressed element stops its propagation.
  target.addEventListener('pointerdown', () => {
    pressed = true;
    clearTimeout(giveUp);
    giveUp = setTimeout(up, MAX_PRESS);
  }, true);
  target.addEventListener('pointerup', up, true);
  target.addEventListener('pointercancel', up, true);
  target.addEventListener('keydown', up, true);
  return (fn) => {
    waiting.push(fn);
    // A tap's click comes in the same task as its blur, a mouse's after the release: a timer runs
    // after either, so the layout moves only once the click has its target.
    if (!pressed) setTimeout(flush, 0);
  };
}

/** The page's own watcher; a no-op outside a browser (the unit tests run in Node). */
export const afterPress: (fn: () => void) => void = typeof document === 'undefined' ? (fn) => fn() : pressWatcher(document);
