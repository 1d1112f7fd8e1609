import { useState } from 'preact/hooks';
import { Link } from 'react-router-dom';
import { useTranslation } from '../../i18n';
import { usePageMeta } from '../../components/PageMeta';
import { Icon } from '../../components/Icon';
import { FormField } from '../../components/FormField';
import { sendCritic } from '../../api';
import { useAuth } from '../../state/auth';
import { toast } from '../../state/toast';
import { isEmail, isMobile, normalizeMobile } from '../../lib/validate';
import '../Login/auth.css';

type Field = 'name' | 'email' | 'number_phone' | 'subject' | 'message';

export default function Contact() {
  const { t } = useTranslation();
  const auth = useAuth();
  usePageMeta(t('contact.title'), t('contact.description'));
  const [v, setV] = useState<Record<Field, string>>({ name: '', email: '', number_phone: '', subject: '', message: '' });
  const [err, setErr] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);

  const label = (k: Field) => t(`contact.fields.${k}`);

  const submit = async (e: Event) => {
    e.preventDefault();
    const next: Partial<Record<Field, string>> = {};
    for (const k of ['name', 'subject', 'message'] as Field[]) if (!v[k].trim()) next[k] = t('errors.enter', { des: label(k) });
    if (!v.email.trim() && !v.number_phone.trim()) next.email = t('contact.oneWay');
    if (v.email.trim() && !isEmail(v.email)) next.email = t('errors.enterCorrect', { des: label('email') });
    if (v.number_phone.trim() && !isMobile(v.number_phone)) next.number_phone = t('errors.enterCorrect', { des: label('number_phone') });
    setErr(next);
    if (Object.keys(next).length) {
      document.getElementById(`c-${Object.keys(next)[0]}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      await sendCritic(
        { name: v.name.trim(), email: v.email.trim(), number_phone: v.number_phone.trim() ? normalizeMobile(v.number_phone) : '', subject: v.subject.trim(), message: v.message.trim() },
        auth.loggedIn,
      );
      setSent(true);
      toast(t('contact.sent'), 'success');
    } catch (x) {
      toast((x as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  };

  // The page's fields are FormFields, the one way to build a form; the phone number reads in the
  // language's digits as it is typed and is kept in Latin ones (REVIEW #29).
  const input = (k: Field, extra: Partial<Parameters<typeof FormField>[0]> = {}) => (
    <FormField id={`c-${k}`} label={label(k)} value={v[k]} onInput={(x) => setV((old) => ({ ...old, [k]: x }))} error={err[k]} required={['name', 'subject', 'message'].includes(k)} {...extra} />
  );

  return (
    <div class="container contact-page">
      <header class="page-head">
        <h1>{t('contact.title')}</h1>
        <p class="muted">{t('contact.description')}</p>
      </header>
      <div class="contact-layout">
        <section class="card card-pad">
          {sent ? (
            <div class="state">
              <Icon name="check" size={44} />
              <h2>{t('contact.thanksTitle')}</h2>
              <p>{t('contact.thanksText')}</p>
              <button type="button" class="btn btn-outline" onClick={() => {
                  setSent(false);
                  setV({ name: '', email: '', number_phone: '', subject: '', message: '' });
                }}>
                {t('contact.another')}
              </button>
            </div>
          ) : (
            <form onSubmit={submit} noValidate>
              <div class="two-cols">
                {input('name', { autocomplete: 'name' })}
                {input('subject')}
              </div>
              <div class="two-cols">
                {input('email', { type: 'email', autocomplete: 'email', dir: 'ltr' })}
                {input('number_phone', { type: 'tel', autocomplete: 'tel', inputMode: 'tel', dir: 'ltr', placeholder: t('auth.mobilePlaceholder'), localDigits: true })}
              </div>
              {input('message', { textarea: true, maxLength: 2000 })}
              <button type="submit" class="btn btn-primary" disabled={busy}>
                {busy ? <span class="spinner" aria-hidden="true" /> : <Icon name="send" size={18} />}
                {t('common.send')}
              </button>
            </form>
          )}
        </section>
        <aside class="card card-pad contact-side">
          <h2>{t('contact.otherWays')}</h2>
          <p class="contact-line">
            <Icon name="shield" size={18} />
            <Link to="/terms/secure-service">{t('footer.secure')}</Link>
          </p>
          <p class="contact-line">
            <Icon name="info" size={18} />
            <Link to="/terms">{t('footer.terms')}</Link>
          </p>
          <p class="contact-line">
            <Icon name="clock" size={18} />
            <span>{t('contact.hours')}</span>
          </p>
          <p class="muted small">{t('contact.note')}</p>
        </aside>
      </div>
    </div>
  );
}
