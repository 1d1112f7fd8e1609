import { useState } from 'preact/hooks';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from '../i18n';
import { addLead, sendLeadCode } from '../api/leads';
import { useAuth } from '../state/auth';
import { mapServerErrors } from '../lib/serverErrors';
import { toast } from '../state/toast';
import { Dialog } from './Dialog';
import { FormField } from './FormField';
import './lead.css';

const MAX_WHAT = 1000;

export interface PriceTarget {
  id: number;
  name: string;
}

interface Props {
  open: boolean;
  onClose: () => void;
  /** One professional, or up to five of one category in one city. */
  targets: PriceTarget[];
  cityId: number;
  categoryId?: number;
}

type Errors = Partial<Record<'what' | 'when' | 'numberPhone' | 'otpCode' | 'form', string>>;

/**
 * The form to ask professionals for a price: what, when, and, signed out, the visitor's number
 * proven by a code. Signed in, the visitor then goes to their requests to compare the answers.
 */
export function RequestPriceDialog({ open, onClose, targets, cityId, categoryId }: Props) {
  const { t } = useTranslation();
  const auth = useAuth();
  const navigate = useNavigate();
  const [chosen, setChosen] = useState<number[]>(() => targets.map((x) => x.id));
  const [what, setWhat] = useState('');
  const [when, setWhen] = useState('');
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [codeSent, setCodeSent] = useState(false);
  const [err, setErr] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const signedOut = !auth.loggedIn;

  const fail = (x: unknown) => {
    const m = mapServerErrors(x, ['what', 'when', 'numberPhone', 'otpCode']);
    setErr({ ...m.fields, form: m.form ?? undefined });
  };
  const askCode = async () => {
    setBusy(true);
    try {
      await sendLeadCode(phone.trim());
      setCodeSent(true);
      setErr({});
    } catch (x) {
      fail(x);
    } finally {
      setBusy(false);
    }
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    const n: Errors = {};
    if (!what.trim()) n.what = t('errors.enter', { des: t('lead.what') });
    if (signedOut && !phone.trim()) n.numberPhone = t('errors.enter', { des: t('lead.phone') });
    if (signedOut && !code.trim()) n.otpCode = t('errors.enter', { des: t('lead.code') });
    if (chosen.length === 0) n.form = t('lead.chooseOne');
    setErr(n);
    if (Object.keys(n).length) return;
    setBusy(true);
    try {
      await addLead({
        user_technical_ids: chosen,
        category_id: chosen.length > 1 ? categoryId : undefined,
        city_id: cityId,
        what: what.trim(),
        when: when.trim(),
        ...(signedOut ? { numberPhone: phone.trim(), otpCode: code.trim() } : {}),
      });
      toast(t('lead.sent', { count: chosen.length }), 'success');
      if (signedOut) setDone(true);
      else {
        onClose();
        navigate('/requests');
      }
    } catch (x) {
      fail(x);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} title={t('lead.title')}>
      {done ? (
        <p role="status">{t('lead.sentSignedOut')}</p>
      ) : (
        <form onSubmit={submit} noValidate class="lead-form">
          {targets.length > 1 ? (
            <fieldset class="lead-targets">
              <legend>{t('lead.to')}</legend>
              {targets.map((x) => (
                <label key={x.id} class="check-row">
                  <input
                    type="checkbox"
                    checked={chosen.includes(x.id)}
                    onChange={(e) => {
                      const on = (e.target as HTMLInputElement).checked;
                      setChosen((c) => (on ? [...c, x.id] : c.filter((y) => y !== x.id)));
                    }}
                  />
                  <span dir="auto">{x.name}</span>
                </label>
              ))}
            </fieldset>
          ) : (
            <p>{t('lead.toOne', { name: targets[0]?.name ?? '' })}</p>
          )}
          <FormField id="lead-what" label={t('lead.what')} value={what} onInput={setWhat} textarea rows={4} maxLength={MAX_WHAT} counter required error={err.what} hint={t('lead.whatHint')} />
          <FormField id="lead-when" label={t('lead.when')} value={when} onInput={setWhen} maxLength={100} error={err.when} placeholder={t('lead.whenHint')} />
          {signedOut && (
            <>
              <FormField id="lead-phone" label={t('lead.phone')} value={phone} onInput={setPhone} type="tel" inputMode="tel" dir="ltr" required error={err.numberPhone} hint={t('lead.phoneHint')} />
              <button type="button" class="btn btn-outline btn-sm" onClick={askCode} disabled={busy || !phone.trim()}>
                {codeSent ? t('lead.resend') : t('lead.sendCode')}
              </button>
              {codeSent && (
                <FormField id="lead-code" label={t('lead.code')} value={code} onInput={setCode} inputMode="numeric" dir="ltr" inputClass="otp" required error={err.otpCode} autocomplete="one-time-code" />
              )}
            </>
          )}
          {err.form && (
            <p class="form-error" role="alert">
              {err.form}
            </p>
          )}
          <div class="dialog-actions">
            <button type="button" class="btn btn-ghost" onClick={onClose}>
              {t('common.cancel')}
            </button>
            <button type="submit" class="btn btn-primary" disabled={busy}>
              {t('lead.submit')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
