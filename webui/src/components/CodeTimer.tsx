import { useEffect, useState } from 'preact/hooks';
import { useTranslation } from '../i18n';
import { localDigits } from '../lib/digits';

/** When a code was sent (ms since the epoch) and what the server said of it, in seconds. */
export interface SentCode {
  at: number;
  expiresIn: number;
  resendIn: number;
}

/** m:ss in the page's digits. */
export function clock(seconds: number, lang: string): string {
  const s = Math.max(0, Math.ceil(seconds));
  return localDigits(`${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`, lang);
}

/** Seconds left of a span of `span` seconds that began at `at`, at time `now` (ms). */
export function secondsLeft(at: number, span: number, now: number): number {
  return Math.max(0, Math.ceil(span - (now - at) / 1000));
}

/**
 * A sent code's countdown (its two-minute lifetime) and a resend button that stays disabled for
 * the server's cooldown. Only the moment the code expires is announced to screen readers; the
 * ticking seconds are not.
 */
export function CodeTimer({ sent, onResend, busy, id }: { sent: SentCode; onResend: () => void; busy?: boolean; id: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [now, setNow] = useState(() => Date.now());
  const life = secondsLeft(sent.at, sent.expiresIn, now);
  const cooldown = secondsLeft(sent.at, sent.resendIn, now);
  useEffect(() => {
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [sent]);
  return (
    <div class="code-timer" id={id}>
      <span class={life > 0 ? 'muted' : 'field-error'} data-testid="code-life">
        {life > 0 ? t('auth.codeExpiresIn', { t: clock(life, lang) }) : t('auth.codeExpired')}
      </span>
      <span class="visually-hidden" aria-live="polite">
        {life > 0 ? '' : t('auth.codeExpired')}
      </span>
      <span class="code-resend">
        {cooldown > 0 && <span class="muted">{t('auth.resendIn', { s: clock(cooldown, lang) })}</span>}
        <button type="button" class="link-btn" disabled={cooldown > 0 || busy} onClick={onResend}>
          {t('auth.resend')}
        </button>
      </span>
    </div>
  );
}
