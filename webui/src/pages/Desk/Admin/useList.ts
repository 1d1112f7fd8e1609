import { useEffect, useState } from 'preact/hooks';
import { useSearchParams } from 'react-router-dom';
import { skipFor, TAKE } from '../../../lib/paging';

/** A paged admin list whose status and page live in the URL (?status=&page=). */
export function useList<T>(load: (status: string, skip: number, take: number) => Promise<{ items: T[]; count: number }>, defaultStatus: string) {
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? defaultStatus;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [data, setData] = useState<{ items: T[]; count: number } | null>(null);
  const [error, setError] = useState('');
  const [tick, setTick] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the loader is a new function on every render; the list reloads on its status, page and reload
  useEffect(() => {
    let live = true;
    setError('');
    setData(null);
    load(status, skipFor(page), TAKE)
      .then((d) => live && setData(d))
      .catch((e) => live && setError((e as Error).message));
    return () => {
      live = false;
    };
  }, [status, page, tick]);

  const href = (n: number, s = status) => {
    const q = new URLSearchParams();
    if (s !== defaultStatus) q.set('status', s);
    if (n > 1) q.set('page', String(n));
    const str = q.toString();
    return `${location.pathname}${str ? `?${str}` : ''}`;
  };

  return {
    status,
    page,
    data,
    error,
    reload: () => setTick((n) => n + 1),
    setStatus: (s: string) => setParams(s === defaultStatus ? {} : { status: s }),
    href,
    /** Replaces one item in place after a change. */
    patch: (fn: (items: T[]) => T[]) => setData((d) => (d ? { ...d, items: fn(d.items) } : d)),
  };
}
