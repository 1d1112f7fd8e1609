import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { progressDone, progressStart } from '../state/progress';

export type Status = 'loading' | 'success' | 'error';

export interface AsyncState<T> {
  status: Status;
  data: T | undefined;
  error: Error | undefined;
  reload: () => void;
}

/**
 * Runs `load` when `deps` change; keeps loading/success/error state and shows the top progress bar
 * meanwhile. `initial` may answer the data at once on the first render (the page already holds it):
 * then the first `load` is skipped, and later changes of `deps` load as usual.
 */
export function useAsync<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[], initial?: () => T | undefined): AsyncState<T> {
  const [state, setState] = useState<{ status: Status; data?: T; error?: Error }>(() => {
    const data = initial?.();
    return data === undefined ? { status: 'loading' } : { status: 'success', data };
  });
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const held = useRef(state.status === 'success');

  useEffect(() => {
    if (held.current) {
      held.current = false;
      return;
    }
    const ctl = new AbortController();
    let live = true;
    // Already loading (a first load): the same state, so nothing draws again for nothing.
    setState((s) => (s.status === 'loading' ? s : { status: 'loading', data: s.data }));
    progressStart();
    loadRef
      .current(ctl.signal)
      .then((data) => live && setState({ status: 'success', data }))
      .catch((error) => {
        if (live && error?.name !== 'AbortError') setState({ status: 'error', error });
      })
      .finally(progressDone);
    return () => {
      live = false;
      ctl.abort();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);

  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { status: state.status, data: state.data, error: state.error, reload };
}
