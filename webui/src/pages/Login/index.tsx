import { useState } from 'preact/hooks';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from '../../i18n';
import { usePageMeta } from '../../components/PageMeta';
import { Icon } from '../../components/Icon';
import { LogoMark } from '../../components/Logo';
import { PasswordInput } from '../../components/PasswordInput';
import { login } from '../../api';
import { useAuth } from '../../state/auth';
import { toast } from '../../state/toast';
import { isMobile, normalizeMobile } from '../../lib/validate';
import './auth.css';

export { PasswordInput };

/** Only same-site paths are followed after signing in. */
export function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/dashboard';
}

export default function Login() {
  const { t } = useTranslation();
  const auth = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  usePageMeta(t('auth.loginTitle'), t('auth.loginDescription'));
  const [mobile, setMobile] = useState('');
  const [password, setPassword] = useState('');
  const [err, setErr] = useState<{ mobile?: string; password?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);

  if (auth.loggedIn) return <Navigate to={next} replace />;

  const submit = async (e: Event) => {
    e.preventDefault();
    const n: typeof err = {};
    if (!mobile.trim()) n.mobile = t('errors.enter', { des: t('auth.mobile') });
    else if (!isMobile(mobile)) n.mobile = t('errors.enterCorrect', { des: t('auth.mobile') });
    if (!password) n.password = t('errors.enter', { des: t('auth.password') });
    setErr(n);
    if (n.mobile || n.password) return;
    setBusy(true);
    try {
      const answer = await login(normalizeMobile(mobile), password);
      auth.signIn(answer);
      toast(t('auth.welcome'), 'success');
      navigate(next, { replace: true });
    } catch (x) {
      setErr({ form: (x as Error).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="container auth-page">
      <section class="auth-card card">
        <div class="auth-head">
          <LogoMark size={48} />
          <h1>{t('auth.loginTitle')}</h1>
          <p class="muted">{t('auth.loginIntro')}</p>
        </div>
        <form onSubmit={submit} noValidate>
          <div class="field">
            <label for="l-mobile">{t('auth.mobile')}</label>
            <input
              id="l-mobile"
              class="input"
              type="tel"
              inputMode="tel"
              dir="ltr"
              autocomplete="tel"
              placeholder="09xxxxxxxxx"
              value={mobile}
              aria-invalid={!!err.mobile}
              aria-describedby={err.mobile ? 'l-mobile-err' : undefined}
              onInput={(e) => setMobile((e.target as HTMLInputElement).value)}
            />
            {err.mobile && (
              <span class="field-error" id="l-mobile-err">
                {err.mobile}
              </span>
            )}
          </div>
          <div class="field">
            <label for="l-password">{t('auth.password')}</label>
            <PasswordInput id="l-password" value={password} onInput={setPassword} invalid={!!err.password} describedBy={err.password ? 'l-password-err' : undefined} autocomplete="current-password" />
            {err.password && (
              <span class="field-error" id="l-password-err">
                {err.password}
              </span>
            )}
          </div>
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
        <p class="auth-switch">
          {t('auth.noAccount')} <Link to="/register">{t('auth.registerFree')}</Link>
        </p>
      </section>
    </div>
  );
}
