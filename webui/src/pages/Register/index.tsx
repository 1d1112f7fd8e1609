import { useState } from 'preact/hooks';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from '../../i18n';
import { usePageMeta } from '../../components/PageMeta';
import { Icon } from '../../components/Icon';
import { LogoMark } from '../../components/Logo';
import { createUser, sendSignupCode, type CodeSent } from '../../api';
import { useAuth } from '../../state/auth';
import { toast } from '../../state/toast';
import { isMobile, MIN_PASSWORD, normalizeMobile, OTP_LENGTH, RESEND_SECONDS } from '../../lib/validate';
import { localDigits, toLatinDigits } from '../../lib/digits';
import { mapServerErrors } from '../../lib/serverErrors';
import { safeNext } from '../../lib/next';
import { FormField } from '../../components/FormField';
import { CodeTimer, type SentCode } from '../../components/CodeTimer';
import '../Login/auth.css';

type Errors = Partial<Record<'mobile' | 'code' | 'name' | 'password' | 'terms' | 'form', string>>;

export default function Register() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const auth = useAuth();
  const navigate = useNavigate();
  // Where the visitor was going when the login page sent them here (a review form): kept through
  // sign-up so a reviewer is not dropped on the professional Desk.
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  usePageMeta(t('auth.registerTitle'), t('auth.registerDescription'));
  const [step, setStep] = useState<1 | 2>(1);
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [terms, setTerms] = useState(false);
  const [err, setErr] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<SentCode | null>(null);

  if (auth.loggedIn) return <Navigate to={next} replace />;

  const sendCode = async (e?: Event) => {
    e?.preventDefault();
    if (!mobile.trim()) return setErr({ mobile: t('errors.enter', { des: t('auth.mobile') }) });
    if (!isMobile(mobile)) return setErr({ mobile: t('errors.enterCorrect', { des: t('auth.mobile') }) });
    setErr({});
    setBusy(true);
    try {
      const answer: CodeSent = await sendSignupCode(normalizeMobile(mobile));
      setStep(2);
      setSent({ at: Date.now(), expiresIn: answer?.expiresIn ?? 120, resendIn: answer?.resendIn ?? RESEND_SECONDS });
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
    if (Object.keys(n).length) {
      const first = (['code', 'name', 'password', 'terms'] as const).find((k) => n[k]);
      if (first) window.setTimeout(() => document.getElementById(`r-${first}`)?.focus(), 0);
      return;
    }
    setBusy(true);
    try {
      const number = normalizeMobile(mobile);
      // Sign-up answers like login: the new account is signed in at once.
      const answer = await createUser({ numberPhone: number, name: name.trim(), password, profileImage: '', otpCode: c });
      auth.signIn(answer);
      toast(t('auth.registered'), 'success');
      navigate(next, { replace: true });
    } catch (x) {
      const m = mapServerErrors(x, ['mobile', 'code', 'name', 'password'], { aliases: { numberPhone: 'mobile', otpCode: 'code' } });
      setErr({ ...m.fields, form: m.form ?? undefined });
      // The server's refusal (a wrong or burnt code) is read where it is: focus goes to its field.
      const first = (['code', 'name', 'password'] as const).find((k) => m.fields[k]);
      if (first) window.setTimeout(() => document.getElementById(`r-${first}`)?.focus(), 0);
    } finally {
      setBusy(false);
    }
  };

  const errorOf = (k: keyof Errors) =>
    err[k] ? (
      <span class="field-error" id={`r-${k}-err`} role="alert">
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
            <FormField id="r-mobile" label={t('auth.mobile')} value={mobile} onInput={setMobile} error={err.mobile} hint={err.mobile ? undefined : t('auth.mobileHint')} type="tel" inputMode="tel" autocomplete="tel" placeholder={t('auth.mobilePlaceholder')} localDigits />
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
            <FormField
              id="r-code"
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
            {sent && <CodeTimer id="r-timer" sent={sent} busy={busy} onResend={() => sendCode()} />}
            <FormField id="r-name" label={t('auth.name')} value={name} onInput={setName} error={err.name} autocomplete="name" />
            <FormField id="r-password" label={t('auth.password')} value={password} onInput={setPassword} error={err.password} hint={t('auth.passwordHint', { n: localDigits(MIN_PASSWORD, lang) })} password autocomplete="new-password" />
            <div class="field">
              <label class="checkbox">
                <input type="checkbox" id="r-terms" checked={terms} onChange={(e) => setTerms((e.target as HTMLInputElement).checked)} aria-invalid={!!err.terms} aria-describedby={err.terms ? 'r-terms-err' : undefined} />
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
          {t('auth.haveAccount')} <Link to={params.get('next') ? `/login?next=${encodeURIComponent(next)}` : '/login'}>{t('nav.login')}</Link>
        </p>
      </section>
    </div>
  );
}
