import { useEffect, useState } from 'preact/hooks';

/** Whether a media query matches now, following changes (a rotated phone, a resized window). */
export function useMedia(query: string): boolean {
  const mq = () => (typeof matchMedia === 'function' ? matchMedia(query) : null);
  const [matches, setMatches] = useState(() => mq()?.matches ?? false);
  useEffect(() => {
    const m = mq();
    if (!m) return;
    const on = () => setMatches(m.matches);
    on();
    m.addEventListener('change', on);
    return () => m.removeEventListener('change', on);
  }, [query]);
  return matches;
}
