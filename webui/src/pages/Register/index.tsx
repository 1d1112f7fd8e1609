import { useEffect, useState } from 'preact/hooks';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { useTranslation } from '../../i18n';
import { usePageMeta } from '../../components/PageMeta';
import { Icon } from '../../components/Icon';
import { LogoMark } from '../../components/Logo';
import { createUser, login, sendSignupCode } from '../../api';
import { useAuth } from '../../state/auth';
import { toast } from '../../state/toast';
import { isMobile, MIN_PASSWORD, normalizeMobile, OTP_LENGTH, RESEND_SECONDS } from '../../lib/validate';
import { localDigits, toLatinDigits } from '../../lib/digits';
import { PasswordInput } from '../../components/PasswordInput';
import '../Login/auth.css';

type Errors = Partial<Record<'mobile' | 'code' | 'name' | 'password' | 'terms' | 'form', string>>;

export default function Register() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const auth = useAuth();
  const navigate = useNavigate();
  usePageMeta(t('auth.registerTitle'), t('auth.registerDescription'));
  const [step, setStep] = useState<1 | 2>(1);
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [terms, setTerms] = useState(false);
  const [err, setErr] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [wait, setWait] = useState(0);

  useEffect(() => {
    if (wait <= 0) return;
    const id = window.setTimeout(() => setWait(wait - 1), 1000);
    return () => window.clearTimeout(id);
  }, [wait]);

  if (auth.loggedIn) return <Navigate to="/dashboard" replace />;

  const sendCode = async (e?: Event) => {
    e?.preventDefault();
    if (!mobile.trim()) return setErr({ mobile: t('errors.enter', { des: t('auth.mobile') }) });
    if (!isMobile(mobile)) return setErr({ mobile: t('errors.enterCorrect', { des: t('auth.mobile') }) });
    setErr({});
    setBusy(true);
    try {
      await sendSignupCode(normalizeMobile(mobile));
      setStep(2);
      setWait(RESEND_SECONDS);
      toast(t('auth.codeSent'), 'success');
      window.setTimeout(() => document.getElementById('r-code')?.focus(), 50);
    } catch (x) {
      setErr({ [step === 1 ? 'mobile' : 'form']: (x as Error).message });
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
    if (!name.trim()) n.name = t('errors.enter', { des: t('auth.name') });
    if (!password) n.password = t('errors.enter', { des: t('auth.password') });
    else if (password.length < MIN_PASSWORD) n.password = t('auth.passwordShort', { n: localDigits(MIN_PASSWORD, lang) });
    if (!terms) n.terms = t('auth.acceptTerms');
    setErr(n);
    if (Object.keys(n).length) return;
    setBusy(true);
    try {
      const number = normalizeMobile(mobile);
      await createUser({ numberPhone: number, name: name.trim(), password, profileImage: '', otpCode: c });
      const answer = await login(number, password);
      auth.signIn(answer);
      toast(t('auth.registered'), 'success');
      navigate('/dashboard', { replace: true });
    } catch (x) {
      setErr({ form: (x as Error).message });
    } finally {
      setBusy(false);
    }
  };

  const errorOf = (k: keyof Errors) =>
    err[k] ? (
      <span class="field-error" id={`r-${k}-err`}>
        {err[k]}
      </span>
    ) : null;

  return (
    <div class="container auth-page">
      <section class="auth-card card">
        <div class="auth-head">
          <LogoMark size={48} />
          <h1>{t('auth.registerTitle')}</h1>
          <p class="muted">{step === 1 ? t('auth.registerIntro') : t('auth.registerIntro2')}</p>
        </div>
        <ol class="steps" aria-label={t('auth.stepOf', { n: localDigits(step, lang), total: localDigits(2, lang) })}>
          <li class="done" />
          <li class={step === 2 ? 'done' : ''} />
        </ol>

        {step === 1 ? (
          <form onSubmit={sendCode} noValidate>
            <div class="field">
              <label for="r-mobile">{t('auth.mobile')}</label>
              <input
                id="r-mobile"
                class="input"
                type="tel"
                inputMode="tel"
                dir="ltr"
                autocomplete="tel"
                placeholder="09xxxxxxxxx"
                value={mobile}
                aria-invalid={!!err.mobile}
                aria-describedby={err.mobile ? 'r-mobile-err' : 'r-mobile-hint'}
                onInput={(e) => setMobile((e.target as HTMLInputElement).value)}
              />
              {errorOf('mobile') ?? (
                <span class="field-hint" id="r-mobile-hint">
                  {t('auth.mobileHint')}
                </span>
              )}
            </div>
            <button type="submit" class="btn btn-primary btn-block" disabled={busy}>
              {busy ? <span class="spinner" aria-hidden="true" /> : <Icon name="sms" size={18} />}
              {t('auth.sendCode')}
            </button>
          </form>
        ) : (
          <form onSubmit={submit} noValidate>
            <div class="sent-to">
              <span>{t('auth.codeSentTo', { n: localDigits(normalizeMobile(mobile), lang) })}</span>
              <button type="button" class="link-btn" onClick={() => {
                  setStep(1);
                  setErr({});
                }}>
                {t('auth.changeNumber')}
              </button>
            </div>
            <div class="field">
              <label for="r-code">{t('auth.code')}</label>
              <input
                id="r-code"
                class="input otp"
                inputMode="numeric"
                autocomplete="one-time-code"
                dir="ltr"
                maxLength={OTP_LENGTH}
                value={code}
                aria-invalid={!!err.code}
                aria-describedby={err.code ? 'r-code-err' : undefined}
                onInput={(e) => setCode(toLatinDigits((e.target as HTMLInputElement).value).replace(/\D/g, ''))}
              />
              {errorOf('code')}
            </div>
            <div class="resend" aria-live="polite">
              <span class="muted">{wait > 0 ? t('auth.resendIn', { s: localDigits(wait, lang) }) : t('auth.noCode')}</span>
              <button type="button" class="link-btn" disabled={wait > 0 || busy} onClick={() => sendCode()}>
                {t('auth.resend')}
              </button>
            </div>
            <div class="field">
              <label for="r-name">{t('auth.name')}</label>
              <input id="r-name" class="input" autocomplete="name" value={name} aria-invalid={!!err.name} aria-describedby={err.name ? 'r-name-err' : undefined} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
              {errorOf('name')}
            </div>
            <div class="field">
              <label for="r-password">{t('auth.password')}</label>
              <PasswordInput id="r-password" value={password} onInput={setPassword} invalid={!!err.password} describedBy={err.password ? 'r-password-err' : 'r-password-hint'} autocomplete="new-password" />
              {errorOf('password') ?? (
                <span class="field-hint" id="r-password-hint">
                  {t('auth.passwordHint', { n: localDigits(MIN_PASSWORD, lang) })}
                </span>
              )}
            </div>
            <div class="field">
              <label class="checkbox">
                <input type="checkbox" checked={terms} onChange={(e) => setTerms((e.target as HTMLInputElement).checked)} aria-invalid={!!err.terms} aria-describedby={err.terms ? 'r-terms-err' : undefined} />
                <span>
                  {t('auth.termsBefore')}
                  <Link to="/terms" target="_blank">
                    {t('auth.termsLink')}
                  </Link>
                  {t('auth.termsAfter')}
                </span>
              </label>
              {errorOf('terms')}
            </div>
            {err.form && (
              <p class="form-error" role="alert">
                {err.form}
              </p>
            )}
            <button type="submit" class="btn btn-primary btn-block" disabled={busy}>
              {busy && <span class="spinner" aria-hidden="true" />}
              {t('auth.createAccount')}
            </button>
          </form>
        )}
        <p class="auth-switch">
          {t('auth.haveAccount')} <Link to="/login">{t('nav.login')}</Link>
        </p>
      </section>
    </div>
  );
}
