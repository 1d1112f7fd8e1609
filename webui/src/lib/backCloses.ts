/**
 * The phone's Back button closes the top open dialog, sheet or photo viewer before it leaves the
 * page, as Android users expect. Opening one pushes a history entry that copies the current one
 * (the router sees the same location, so the page stays as it is) plus a token of its own; Back
 * pops it, and only the top overlay closes. Closing it another way (its ✕, Escape, the backdrop)
 * steps back over that entry, unless the page moved on meanwhile (a link inside it was followed).
 */

const stack: { token: string; close: () => void }[] = [];
let listening = false;
let seq = 0;

function onPop() {
  const top = stack[stack.length - 1];
  // Back landed on an entry that is not this overlay's own: it closes.
  if (top && (history.state as { overlay?: string } | null)?.overlay !== top.token) {
    stack.pop();
    top.close();
  }
}

/** Registers an open overlay; answers the function to call when it closes some other way. */
export function openOverlay(close: () => void): () => void {
  const token = `o${++seq}`;
  history.pushState({ ...(history.state ?? {}), overlay: token }, '');
  stack.push({ token, close });
  if (!listening) {
    window.addEventListener('popstate', onPop);
    listening = true;
  }
  return () => {
    const i = stack.findIndex((o) => o.token === token);
    if (i < 0) return; // already closed by Back
    stack.splice(i, 1);
    if ((history.state as { overlay?: string } | null)?.overlay === token) history.back();
  };
}
