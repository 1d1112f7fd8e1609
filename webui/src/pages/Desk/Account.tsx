import { useEffect, useState } from 'preact/hooks';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from '../../i18n';
import { Icon } from '../../components/Icon';
import { FormField } from '../../components/FormField';
import { ImagePicker } from '../../components/ImagePicker';
import { PasswordInput } from '../../components/PasswordInput';
import { Loading } from '../../components/StateViews';
import { ConfirmDialog } from '../../components/Dialog';
import { getMe } from '../../api';
import { editUser } from '../../api/desk';
import { mapServerErrors } from '../../lib/serverErrors';
import { MIN_PASSWORD } from '../../lib/validate';
import { localDigits } from '../../lib/digits';
import { toast } from '../../state/toast';
import { useAuth } from '../../state/auth';
import { useDesk } from './context';
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

  const savePassword = async (e: Event) => {
    e.preventDefault();
    const x: Record<string, string> = {};
    if (!pw) x.password = t('errors.enter', { des: t('deskAccount.newPassword') });
    else if ([...pw].length < MIN_PASSWORD) x.password = t('auth.passwordShort', { n: localDigits(MIN_PASSWORD, lang) });
    if (pw && pw2 !== pw) x.password2 = t('deskAccount.mismatch');
    setErr(x);
    if (Object.keys(x).length) return;
    setBusy('password');
    setFormErr({});
    try {
      await editUser({ id: me.id, password: pw });
      setPw('');
      setPw2('');
      toast(t('deskAccount.passwordChanged'), 'success');
    } catch (y) {
      const m = mapServerErrors(y, ['password']);
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
              {me.numberPhone}
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
          <div class="field">
            <label for="ac-pw">{t('deskAccount.newPassword')}</label>
            <PasswordInput id="ac-pw" value={pw} onInput={setPw} invalid={!!err.password} describedBy={err.password ? 'ac-pw-err' : 'ac-pw-hint'} autocomplete="new-password" />
            <span class="field-hint" id="ac-pw-hint">
              {t('auth.passwordHint', { n: localDigits(MIN_PASSWORD, lang) })}
            </span>
            {err.password && (
              <span class="field-error" id="ac-pw-err">
                {err.password}
              </span>
            )}
          </div>
          <div class="field">
            <label for="ac-pw2">{t('deskAccount.repeatPassword')}</label>
            <PasswordInput id="ac-pw2" value={pw2} onInput={setPw2} invalid={!!err.password2} describedBy={err.password2 ? 'ac-pw2-err' : undefined} autocomplete="new-password" />
            {err.password2 && (
              <span class="field-error" id="ac-pw2-err">
                {err.password2}
              </span>
            )}
          </div>
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
