import { useEffect, useState } from 'preact/hooks';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from '../../i18n';
import { Icon } from '../../components/Icon';
import { FormField } from '../../components/FormField';
import { ImagePicker } from '../../components/ImagePicker';
import { CodeTimer, type SentCode } from '../../components/CodeTimer';
import { Loading } from '../../components/StateViews';
import { ConfirmDialog } from '../../components/Dialog';
import { getMe, sendResetCode } from '../../api';
import { editUser } from '../../api/desk';
import { mapServerErrors } from '../../lib/serverErrors';
import { MIN_PASSWORD, OTP_LENGTH } from '../../lib/validate';
import { localDigits, toLatinDigits } from '../../lib/digits';
import { toast } from '../../state/toast';
import { useAuth } from '../../state/auth';
import { useDesk } from './context';
import { SmsNotices } from './SmsNotices';
import '../Login/auth.css';

export default function Account() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const auth = useAuth();
  const desk = useDesk();
  const navigate = useNavigate();
  const me = desk.me;
  const [name, setName] = useState('');
  const [picture, setPicture] = useState('');
  const [pw, setPw] = useState('');
  const [pw2, setPw2] = useState('');
  // A new password needs the current one, or a code sent to the account's number.
  const [proof, setProof] = useState<'password' | 'code'>('password');
  const [current, setCurrent] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState<SentCode | null>(null);
  const [err, setErr] = useState<Record<string, string>>({});
  const [formErr, setFormErr] = useState<{ profile?: string; password?: string }>({});
  const [busy, setBusy] = useState<'' | 'profile' | 'password'>('');
  const [exit, setExit] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the fields are filled from the account once per account, not overwritten while the user types
  useEffect(() => {
    if (me) {
      setName(me.name ?? '');
      setPicture(me.profileImage ?? '');
    } else getMe().then(desk.setMe).catch(() => undefined);
  }, [me?.id]);

  if (!me) return <Loading />;

  const saveProfile = async (nextPicture = picture) => {
    const e: Record<string, string> = {};
    if (!name.trim()) e.name = t('errors.enter', { des: t('deskAccount.name') });
    setErr(e);
    if (e.name) return;
    setBusy('profile');
    setFormErr({});
    try {
      const u = await editUser({ id: me.id, name: name.trim(), profileImage: nextPicture });
      desk.setMe(u?.id ? u : { ...me, name: name.trim(), profileImage: nextPicture });
      toast(t('deskAccount.saved'), 'success');
    } catch (x) {
      const m = mapServerErrors(x, ['name', 'picture'], { aliases: { profileImage: 'picture' } });
      setErr(m.fields);
      setFormErr({ profile: m.form ?? undefined });
    } finally {
      setBusy('');
    }
  };

  const sendCode = async () => {
    setBusy('password');
    setFormErr({});
    try {
      const answer = await sendResetCode(me.numberPhone ?? '');
      setSent({ at: Date.now(), expiresIn: answer?.expiresIn ?? 120, resendIn: answer?.resendIn ?? 60 });
      toast(t('auth.codeSent'), 'success');
      window.setTimeout(() => document.getElementById('ac-code')?.focus(), 50);
    } catch (y) {
      setFormErr({ password: (y as Error).message });
    } finally {
      setBusy('');
    }
  };

  const savePassword = async (e: Event) => {
    e.preventDefault();
    const x: Record<string, string> = {};
    const c = toLatinDigits(code).replace(/\D/g, '');
    if (proof === 'password' && !current) x.currentPassword = t('errors.enter', { des: t('deskAccount.currentPassword') });
    if (proof === 'code') {
      if (!c) x.otpCode = t('errors.enter', { des: t('auth.code') });
      else if (c.length !== OTP_LENGTH) x.otpCode = t('errors.enterCorrect', { des: t('auth.code') });
    }
    if (!pw) x.password = t('errors.enter', { des: t('deskAccount.newPassword') });
    else if ([...pw].length < MIN_PASSWORD) x.password = t('auth.passwordShort', { n: localDigits(MIN_PASSWORD, lang) });
    if (pw && pw2 !== pw) x.password2 = t('deskAccount.mismatch');
    setErr(x);
    if (Object.keys(x).length) {
      const first = (['currentPassword', 'otpCode', 'password', 'password2'] as const).find((k) => x[k]);
      const ids = { currentPassword: 'ac-current', otpCode: 'ac-code', password: 'ac-pw', password2: 'ac-pw2' };
      if (first) window.setTimeout(() => document.getElementById(ids[first])?.focus(), 0);
      return;
    }
    setBusy('password');
    setFormErr({});
    try {
      await editUser(proof === 'password' ? { id: me.id, password: pw, currentPassword: current } : { id: me.id, password: pw, otpCode: c });
      setPw('');
      setPw2('');
      setCurrent('');
      setCode('');
      setSent(null);
      toast(t('deskAccount.passwordChanged'), 'success');
    } catch (y) {
      const m = mapServerErrors(y, ['password', 'currentPassword', 'otpCode']);
      setErr(m.fields);
      setFormErr({ password: m.form ?? undefined });
    } finally {
      setBusy('');
    }
  };

  const dirty = name.trim() !== (me.name ?? '');

  return (
    <section aria-labelledby="ac-title" class="account-page">
      <header class="desk-head">
        <div>
          <h1 id="ac-title">{t('deskAccount.title')}</h1>
          <p class="muted">{t('deskAccount.intro')}</p>
        </div>
      </header>
      <div class="account-grid">
        <form
          class="card card-pad"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            saveProfile();
          }}
        >
          <h2 class="card-title">{t('deskAccount.profile')}</h2>
          <ImagePicker
            id="ac-picture"
            label={t('deskAccount.picture')}
            value={picture}
            onChange={(a) => {
              setPicture(a);
              saveProfile(a);
            }}
            uploadKey="user"
            aspect={1}
            round
            shape="round"
            cropTitle={t('crop.titlePicture')}
            error={err.picture}
          />
          <FormField id="ac-name" label={t('deskAccount.name')} value={name} onInput={setName} error={err.name} maxLength={80} autocomplete="name" required />
          <div class="field">
            <span class="field-label">{t('auth.mobile')}</span>
            <p class="readonly ltr" dir="ltr">
              {localDigits(me.numberPhone ?? '', lang)}
            </p>
            <span class="field-hint">{t('deskAccount.mobileHint')}</span>
          </div>
          {formErr.profile && (
            <p class="form-error" role="alert">
              {formErr.profile}
            </p>
          )}
          <button type="submit" class="btn btn-primary" disabled={busy === 'profile' || !dirty}>
            {busy === 'profile' ? <span class="spinner" aria-hidden="true" /> : <Icon name="check" size={18} />}
            {t('common.save')}
          </button>
        </form>
        <form class="card card-pad" noValidate onSubmit={savePassword}>
          <h2 class="card-title">{t('deskAccount.passwordTitle')}</h2>
          <p class="small muted">{t('deskAccount.passwordIntro')}</p>
          <div class="proof-switch" role="radiogroup" aria-label={t('deskAccount.proofLabel')}>
            {(['password', 'code'] as const).map((k) => (
              <label key={k} class="radio">
                <input type="radio" name="ac-proof" checked={proof === k} onChange={() => {
                    setProof(k);
                    setErr({});
                  }}
                />
                <span>{k === 'password' ? t('deskAccount.proofPassword') : t('deskAccount.proofCode')}</span>
              </label>
            ))}
          </div>
          {proof === 'password' ? (
            <FormField id="ac-current" label={t('deskAccount.currentPassword')} value={current} onInput={setCurrent} error={err.currentPassword} password autocomplete="current-password" />
          ) : sent ? (
            <>
              <FormField
                id="ac-code"
                label={t('auth.code')}
                value={code}
                onInput={(v) => setCode(v.replace(/\D/g, ''))}
                localDigits
                error={err.otpCode}
                hint={t('auth.codeSentTo', { n: localDigits(me.numberPhone ?? '', lang) })}
                inputMode="numeric"
                autocomplete="one-time-code"
                maxLength={OTP_LENGTH}
                inputClass="otp"
                dir="ltr"
              />
              <CodeTimer id="ac-timer" sent={sent} busy={busy === 'password'} onResend={sendCode} />
            </>
          ) : (
            <div class="field">
              <button type="button" class="btn btn-outline" onClick={sendCode} disabled={busy === 'password'}>
                <Icon name="sms" size={18} />
                {t('deskAccount.sendCode', { n: localDigits(me.numberPhone ?? '', lang) })}
              </button>
              {err.otpCode && (
                <span class="field-error" role="alert">
                  {err.otpCode}
                </span>
              )}
            </div>
          )}
          <FormField id="ac-pw" label={t('deskAccount.newPassword')} value={pw} onInput={setPw} error={err.password} hint={t('auth.passwordHint', { n: localDigits(MIN_PASSWORD, lang) })} password autocomplete="new-password" />
          <FormField id="ac-pw2" label={t('deskAccount.repeatPassword')} value={pw2} onInput={setPw2} error={err.password2} password autocomplete="new-password" />
          {formErr.password && (
            <p class="form-error" role="alert">
              {formErr.password}
            </p>
          )}
          <button type="submit" class="btn btn-primary" disabled={busy === 'password'}>
            {busy === 'password' ? <span class="spinner" aria-hidden="true" /> : <Icon name="lock" size={18} />}
            {t('deskAccount.changePassword')}
          </button>
        </form>
        <SmsNotices />
        <div class="card card-pad account-out">
          <h2 class="card-title">{t('header.signOut')}</h2>
          <p class="small muted">{t('deskAccount.signOutText')}</p>
          <button type="button" class="btn btn-outline" onClick={() => setExit(true)}>
            <Icon name="logout" size={18} />
            {t('header.signOut')}
          </button>
        </div>
      </div>
      <ConfirmDialog
        open={exit}
        title={t('header.exitTitle')}
        message={t('header.exitQuestion')}
        onClose={() => setExit(false)}
        onConfirm={() => {
          setExit(false);
          auth.signOut().then(() => {
            toast(t('header.signedOut'));
            navigate('/');
          });
        }}
      />
    </section>
  );
}
