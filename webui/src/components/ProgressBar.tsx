import { useEffect, useRef, useState } from 'preact/hooks';
import { useTranslation } from '../i18n';
import { progressStore } from '../state/progress';
import { useStore } from '../state/store';

/** The thin bar at the top of the page while a route or its data loads. */
export function ProgressBar() {
  const { t } = useTranslation();
  const count = useStore(progressStore);
  const [phase, setPhase] = useState<'idle' | 'active' | 'done'>('idle');
  const timer = useRef<number>();
  useEffect(() => {
    window.clearTimeout(timer.current);
    if (count > 0) setPhase('active');
    else
      setPhase((p) => {
        if (p === 'idle') return p;
        timer.current = window.setTimeout(() => setPhase('idle'), 600);
        return 'done';
      });
  }, [count]);
  return (
    <div class={`progress ${phase}`} role="progressbar" aria-label={t('common.loading')} aria-hidden={phase === 'idle' ? 'true' : undefined} aria-busy={count > 0}>
      <span key={phase === 'idle' ? 'i' : 'a'} />
    </div>
  );
}
