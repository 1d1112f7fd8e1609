import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { progressDone, progressStart } from '../state/progress';

/** `idle`: the load is switched off (`enabled: false`), so there is nothing to wait for. */
export type Status = 'idle' | 'loading' | 'success' | 'error';

export interface Load<T> {
  status: Status;
  /** The last answer. It stays while a new load runs (unless `clearOnChange`), so a page can keep showing it; an error drops it. */
  data: T | undefined;
  error: Error | undefined;
  /** Loads again with the same inputs (a retry button, or after a change). */
  reload: () => void;
  /** Changes the data held, without loading again (after an action on one item). */
  mutate: (fn: (data: T) => T) => void;
  /** Replaces the data held with an answer got another way (the account after saving it). */
  set: (data: T) => void;
}

export interface LoadOptions<T> {
  /** The data the page already holds (the first answer embedded in the HTML): the first load is skipped. */
  initial?: () => T | undefined;
  /** False: nothing loads (a closed dialog, a form with no province yet); the status is `idle`. */
  enabled?: boolean;
  /** Drop the data held when the inputs change, so the old answer is not shown under new filters. */
  clearOnChange?: boolean;
  /** The thin progress bar at the top of the window; on by default. */
  progress?: boolean;
}

interface State<T> {
  status: Status;
  data?: T;
  error?: Error;
}

/**
 * The one way the web app loads data: runs `load` when `deps` change and keeps its status, data
 * and error. A newer load aborts the older one (its AbortSignal), and an answer that arrives after
 * the inputs changed or the component went away is dropped, so a slow answer for the previous
 * filter never replaces the current one. An AbortError is not an error.
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[], opts: LoadOptions<T> = {}): Load<T> {
  const enabled = opts.enabled ?? true;
  const [state, setState] = useState<State<T>>(() => {
    if (!enabled) return { status: 'idle' };
    const data = opts.initial?.();
    return data === undefined ? { status: 'loading' } : { status: 'success', data };
  });
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const held = useRef(state.status === 'success');
  const clear = !!opts.clearOnChange;
  const progress = opts.progress ?? true;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names the inputs in deps; load is read through a ref so a new closure on every render does not reload
  useEffect(() => {
    if (held.current) {
      held.current = false;
      return;
    }
    if (!enabled) {
      setState((s) => (s.status === 'idle' && !s.data ? s : { status: 'idle' }));
      return;
    }
    const ctl = new AbortController();
    let live = true;
    // Already loading (a first load): the same state, so nothing draws again for nothing.
    setState((s) => (s.status === 'loading' && (!clear || !s.data) ? s : { status: 'loading', data: clear ? undefined : s.data }));
    if (progress) progressStart();
    loadRef
      .current(ctl.signal)
      .then((data) => live && setState({ status: 'success', data }))
      .catch((error) => {
        if (live && error?.name !== 'AbortError') setState({ status: 'error', error });
      })
      .finally(() => progress && progressDone());
    return () => {
      live = false;
      ctl.abort();
    };
  }, [...deps, enabled, tick]);

  const reload = useCallback(() => setTick((n) => n + 1), []);
  const mutate = useCallback((fn: (data: T) => T) => setState((s) => (s.data === undefined ? s : { ...s, data: fn(s.data) })), []);
  const set = useCallback((data: T) => setState({ status: 'success', data }), []);
  return { status: state.status, data: state.data, error: state.error, reload, mutate, set };
}
