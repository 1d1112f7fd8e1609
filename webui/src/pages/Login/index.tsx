import { useState } from 'preact/hooks';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from '../../i18n';
import { usePageMeta } from '../../components/PageMeta';
import { Icon } from '../../components/Icon';
import { LogoMark } from '../../components/Logo';
import { FormField } from '../../components/FormField';
import { PasswordInput } from '../../components/PasswordInput';
import { CodeTimer, type SentCode } from '../../components/CodeTimer';
import { login, loginWithCode, resetPassword, sendLoginCode, sendResetCode, type CodeSent, type LoginAnswer } from '../../api';
import { useAuth } from '../../state/auth';
import { toast } from '../../state/toast';
import { mapServerErrors } from '../../lib/serverErrors';
import { isMobile, MIN_PASSWORD, normalizeMobile, OTP_LENGTH } from '../../lib/validate';
import { localDigits, toLatinDigits } from '../../lib/digits';
import './auth.css';

import { safeNext } from '../../lib/next';

export { PasswordInput };

export { safeNext };

type Tab = 'password' | 'code' | 'forgot';
type Errors = Partial<Record<'mobile' | 'password' | 'code' | 'form', string>>;

/** Server field names → this page's fields. */
const aliases = { numberPhone: 'mobile', otpCode: 'code' };

function tabOf(v: string | null): Tab {
  return v === 'code' || v === 'forgot' ? v : 'password';
}

/** Sign in with a password, sign in with an SMS code, or reset a forgotten password (`?tab=`). */
export default function Login() {
  const { t } = useTranslation();
  const auth = useAuth();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const next = safeNext(params.get('next'));
  const tab = tabOf(params.get('tab'));
  const [mobile, setMobile] = useState('');
  const titles: Record<Tab, string> = { password: t('auth.loginTitle'), code: t('auth.codeLoginTitle'), forgot: t('auth.forgotTitle') };
  usePageMeta(titles[tab], t('auth.loginDescription'));

  if (auth.loggedIn) return <Navigate to={next} replace />;

  const go = (to: Tab) => {
    const p = new URLSearchParams(params);
    if (to === 'password') p.delete('tab');
    else p.set('tab', to);
    setParams(p, { replace: true });
  };
  const done = (answer: LoginAnswer, message: string) => {
    auth.signIn(answer);
    toast(message, 'success');
    navigate(next, { replace: true });
  };

  return (
    <div class="container auth-page">
      <section class="auth-card card">
        <div class="auth-head">
          <LogoMark size={48} />
          <h1>{titles[tab]}</h1>
          <p class="muted">{tab === 'forgot' ? t('auth.forgotIntro') : tab === 'code' ? t('auth.codeLoginIntro') : t('auth.loginIntro')}</p>
        </div>
        {tab !== 'forgot' && (
          <div class="auth-tabs" role="tablist" aria-label={t('auth.loginWays')}>
            {(['password', 'code'] as const).map((k) => (
              <button
                key={k}
                type="button"
                role="tab"
                id={`l-tab-${k}`}
                aria-selected={tab === k}
                aria-controls="l-panel"
                tabIndex={tab === k ? 0 : -1}
                class={tab === k ? 'active' : ''}
                onClick={() => go(k)}
                onKeyDown={(e) => {
                  if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
                    const other = k === 'password' ? 'code' : 'password';
                    go(other);
                    window.setTimeout(() => document.getElementById(`l-tab-${other}`)?.focus(), 0);
                  }
                }}
              >
                {k === 'password' ? t('auth.withPassword') : t('auth.withCode')}
              </button>
            ))}
          </div>
        )}
        {tab === 'forgot' ? (
          <CodeForm key="forgot" kind="reset" mobile={mobile} setMobile={setMobile} done={(a) => done(a, t('auth.passwordReset'))} />
        ) : (
          <div id="l-panel" role="tabpanel" aria-labelledby={`l-tab-${tab}`}>
            {tab === 'password' && <PasswordForm mobile={mobile} setMobile={setMobile} onForgot={() => go('forgot')} done={(a) => done(a, t('auth.welcome'))} />}
            {tab === 'code' && <CodeForm key="code" kind="login" mobile={mobile} setMobile={setMobile} done={(a) => done(a, t('auth.welcome'))} />}
          </div>
        )}
        {tab === 'forgot' ? (
          <p class="auth-switch">
            <button type="button" class="link-btn" onClick={() => go('password')}>
              {t('auth.backToLogin')}
            </button>
          </p>
        ) : (
          <p class="auth-switch">
            {t('auth.noAccount')} <Link to={params.get('next') ? `/register?next=${encodeURIComponent(next)}` : '/register'}>{t('auth.registerFree')}</Link>
          </p>
        )}
      </section>
    </div>
  );
}

/** Checks a mobile number as typed; answers the error or ''. */
function mobileError(mobile: string, t: (k: string, o?: Record<string, unknown>) => string): string {
  if (!mobile.trim()) return t('errors.enter', { des: t('auth.mobile') });
  if (!isMobile(mobile)) return t('errors.enterCorrect', { des: t('auth.mobile') });
  return '';
}

/** Moves focus to the first field with an error, so keyboard and screen-reader users land on it. */
function focusFirst(errors: Errors, ids: Partial<Record<keyof Errors, string>>) {
  const first = (Object.keys(ids) as (keyof Errors)[]).find((k) => errors[k]);
  if (first) window.setTimeout(() => document.getElementById(ids[first] ?? '')?.focus(), 0);
}

function PasswordForm({ mobile, setMobile, onForgot, done }: { mobile: string; setMobile: (v: string) => void; onForgot: () => void; done: (a: LoginAnswer) => void }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [err, setErr] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const ids = { mobile: 'l-mobile', password: 'l-password' };

  const submit = async (e: Event) => {
    e.preventDefault();
    const n: Errors = {};
    const m = mobileError(mobile, t);
    if (m) n.mobile = m;
    if (!password) n.password = t('errors.enter', { des: t('auth.password') });
    setErr(n);
    if (n.mobile || n.password) return focusFirst(n, ids);
    setBusy(true);
    try {
      done(await login(normalizeMobile(mobile), password));
    } catch (x) {
      // A wrong number or password is answered without a field (saying which would tell a
      // stranger the number has an account): it goes under the password, which is retyped.
      const mapped = mapServerErrors(x, ['mobile', 'password'], { aliases, statusFields: { 400: 'password' } });
      setErr({ ...mapped.fields, form: mapped.form ?? undefined });
      focusFirst(mapped.fields, ids);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <FormField id="l-mobile" label={t('auth.mobile')} value={mobile} onInput={setMobile} error={err.mobile} type="tel" inputMode="tel" autocomplete="tel" placeholder={t('auth.mobilePlaceholder')} localDigits />
      <FormField id="l-password" label={t('auth.password')} value={password} onInput={setPassword} error={err.password} password autocomplete="current-password" />
      <p class="auth-forgot">
        <button type="button" class="link-btn" onClick={onForgot}>
          {t('auth.forgot')}
        </button>
      </p>
      {err.form && (
        <p class="form-error" role="alert">
          {err.form}
        </p>
      )}
      <button type="submit" class="btn btn-primary btn-block" disabled={busy}>
        {busy ? <span class="spinner" aria-hidden="true" /> : <Icon name="login" size={18} />}
        {t('nav.login')}
      </button>
    </form>
  );
}

/**
 * A number, then the code sent to it (with its countdown and resend), and for a reset the new
 * password: signs in with the code alone, or resets the password and signs in.
 */
function CodeForm({ kind, mobile, setMobile, done }: { kind: 'login' | 'reset'; mobile: string; setMobile: (v: string) => void; done: (a: LoginAnswer) => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [sent, setSent] = useState<SentCode | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [err, setErr] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const p = kind === 'login' ? 'c' : 'f';
  const ids = { mobile: `${p}-mobile`, code: `${p}-code`, password: `${p}-password` };

  const send = async (e?: Event) => {
    e?.preventDefault();
    const m = mobileError(mobile, t);
    if (m) {
      setErr({ mobile: m });
      return focusFirst({ mobile: m }, ids);
    }
    setErr({});
    setBusy(true);
    try {
      const answer: CodeSent = await (kind === 'login' ? sendLoginCode : sendResetCode)(normalizeMobile(mobile));
      setSent({ at: Date.now(), expiresIn: answer?.expiresIn ?? 120, resendIn: answer?.resendIn ?? 60 });
      setCode('');
      toast(t('auth.codeSent'), 'success');
      window.setTimeout(() => document.getElementById(ids.code)?.focus(), 50);
    } catch (x) {
      const mapped = mapServerErrors(x, ['mobile'], { aliases, statusFields: { 429: 'mobile', 502: 'mobile' } });
      setErr(sent ? { form: Object.values(mapped.fields)[0] ?? mapped.form ?? undefined } : { ...mapped.fields, form: mapped.form ?? undefined });
    } finally {
      setBusy(false);
    }
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    const n: Errors = {};
    const c = toLatinDigits(code).replace(/\D/g, '');
    if (!c) n.code = t('errors.enter', { des: t('auth.code') });
    else if (c.length !== OTP_LENGTH) n.code = t('errors.enterCorrect', { des: t('auth.code') });
    if (kind === 'reset') {
      if (!password) n.password = t('errors.enter', { des: t('auth.newPassword') });
      else if ([...password].length < MIN_PASSWORD) n.password = t('auth.passwordShort', { n: localDigits(MIN_PASSWORD, lang) });
    }
    setErr(n);
    if (Object.keys(n).length) return focusFirst(n, ids);
    setBusy(true);
    try {
      const number = normalizeMobile(mobile);
      done(kind === 'login' ? await loginWithCode(number, c) : await resetPassword({ numberPhone: number, otpCode: c, password }));
    } catch (x) {
      const mapped = mapServerErrors(x, ['mobile', 'code', 'password'], { aliases });
      setErr({ ...mapped.fields, form: mapped.form ?? undefined });
      focusFirst(mapped.fields, ids);
    } finally {
      setBusy(false);
    }
  };

  if (!sent) {
    return (
      <form onSubmit={send} noValidate>
        <FormField id={ids.mobile} label={t('auth.mobile')} value={mobile} onInput={setMobile} error={err.mobile} hint={t('auth.mobileHint')} type="tel" inputMode="tel" autocomplete="tel" placeholder={t('auth.mobilePlaceholder')} localDigits />
        {err.form && (
          <p class="form-error" role="alert">
            {err.form}
          </p>
        )}
        <button type="submit" class="btn btn-primary btn-block" disabled={busy}>
          {busy ? <span class="spinner" aria-hidden="true" /> : <Icon name="sms" size={18} />}
          {t('auth.sendCode')}
        </button>
      </form>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <div class="sent-to">
        <span>{t('auth.codeSentTo', { n: localDigits(normalizeMobile(mobile), lang) })}</span>
        <button type="button" class="link-btn" onClick={() => {
            setSent(null);
            setErr({});
          }}
        >
          {t('auth.changeNumber')}
        </button>
      </div>
      <FormField
        id={ids.code}
        label={t('auth.code')}
        value={code}
        onInput={(v) => setCode(v.replace(/\D/g, ''))}
        localDigits
        error={err.code}
        inputMode="numeric"
        autocomplete="one-time-code"
        maxLength={OTP_LENGTH}
        inputClass="otp"
        dir="ltr"
      />
      <CodeTimer id={`${p}-timer`} sent={sent} busy={busy} onResend={() => send()} />
      {kind === 'reset' && (
        <FormField id={ids.password} label={t('auth.newPassword')} value={password} onInput={setPassword} error={err.password} hint={t('auth.passwordHint', { n: localDigits(MIN_PASSWORD, lang) })} password autocomplete="new-password" />
      )}
      {err.form && (
        <p class="form-error" role="alert">
          {err.form}
        </p>
      )}
      <button type="submit" class="btn btn-primary btn-block" disabled={busy}>
        {busy ? <span class="spinner" aria-hidden="true" /> : <Icon name={kind === 'login' ? 'login' : 'lock'} size={18} />}
        {kind === 'login' ? t('nav.login') : t('auth.resetAndLogin')}
      </button>
    </form>
  );
}
