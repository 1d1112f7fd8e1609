import { lazy, Suspense } from 'preact/compat';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from '../i18n';
import { addLead, sendLeadCode, uploadLeadPhoto, verifyLeadCode } from '../api/leads';
import { useAuth } from '../state/auth';
import { mapServerErrors } from '../lib/serverErrors';
import { ApiError } from '../api/client';
import { toast } from '../state/toast';
import { Dialog } from './Dialog';
import { FormField } from './FormField';
import { ReviewPhotosInput } from './ReviewPhotosInput';
import { localDigits } from '../lib/digits';
import { formatCoord } from '../lib/format';
import { getConfig } from '../api';
import { useLoad } from '../lib/useLoad';
import './lead.css';

// The profile form's point picker, loaded only when the visitor opens the map.
const PinMap = lazy(() => import('./LeafletMap/PinMap'));

/** The server's limit of photos on a request. */
const MAX_LEAD_PHOTOS = 2;
/** Where the map opens without a better idea (Tehran). */
const FALLBACK = { lat: 35.6892, lng: 51.389 };

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
  /** Where the map opens (the profile's point); the visitor's own point is optional. */
  center?: { lat: number; lng: number } | null;
}

type Errors = Partial<Record<'what' | 'when' | 'numberPhone' | 'otpCode' | 'form', string>>;

/**
 * The form to ask professionals for a price: what, when, and, signed out, the visitor's number
 * proven by a code. Signed out, confirming the code first gives a pass with which up to two
 * photos can be attached. Signed in, the visitor then goes to their requests to compare the answers.
 */
export function RequestPriceDialog({ open, onClose, targets, cityId, categoryId, center }: Props) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const auth = useAuth();
  const navigate = useNavigate();
  const [chosen, setChosen] = useState<number[]>(() => targets.map((x) => x.id));
  const [what, setWhat] = useState('');
  const [when, setWhen] = useState('');
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [codeSent, setCodeSent] = useState(false);
  /** The pass of the answered code: the number is proven, and photos may be attached. */
  const [pass, setPass] = useState<{ phone: string; token: string } | null>(null);
  const [err, setErr] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [photos, setPhotos] = useState<string[]>([]);
  const [showMap, setShowMap] = useState(false);
  const [pin, setPin] = useState<{ lat: number; lng: number } | null>(null);
  const config = useLoad(() => getConfig(), [showMap], { enabled: showMap, progress: false });
  const signedOut = !auth.loggedIn;
  const hadPass = useRef(false);
  // The pass arriving removes the focused "Confirm number" button with the number and code
  // fields, and its expiry removes the focused photo button: focus would fall to <body> inside
  // the modal dialog. It goes to the next step instead (add photos, or ask for a new code), unless
  // the visitor has already moved it elsewhere.
  useEffect(() => {
    if (!!pass === hadPass.current) return;
    hadPass.current = !!pass;
    const lost = !document.activeElement || document.activeElement === document.body;
    if (lost) document.getElementById(pass ? 'lead-photos' : 'lead-send-code')?.focus();
  }, [pass]);

  const fail = (x: unknown) => {
    const m = mapServerErrors(x, ['what', 'when', 'numberPhone', 'otpCode']);
    // A pass that expired (half an hour) or was used: the visitor asks for a new code (the
    // message stays on the form).
    if (x instanceof ApiError && x.fields?.leadToken) {
      setPass(null);
      setCode('');
      setPhotos([]);
    }
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
  const verify = async () => {
    if (!code.trim()) {
      setErr({ otpCode: t('errors.enter', { des: t('lead.code') }) });
      return;
    }
    setBusy(true);
    try {
      const p = await verifyLeadCode(phone.trim(), code.trim());
      setPass({ phone: phone.trim(), token: p.leadToken });
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
    if (signedOut && !pass && !phone.trim()) n.numberPhone = t('errors.enter', { des: t('lead.phone') });
    if (signedOut && !pass && !code.trim()) n.otpCode = t('errors.enter', { des: t('lead.code') });
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
        ...(pin ? { lat: pin.lat, long: pin.lng } : {}),
        ...((!signedOut || pass) && photos.length ? { photos } : {}),
        ...(signedOut && pass ? { numberPhone: pass.phone, leadToken: pass.token } : {}),
        ...(signedOut && !pass ? { numberPhone: phone.trim(), otpCode: code.trim() } : {}),
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
          {!signedOut ? (
            <ReviewPhotosInput id="lead" value={photos} onChange={setPhotos} max={MAX_LEAD_PHOTOS} label={t('lead.photos', { max: localDigits(MAX_LEAD_PHOTOS, lang) })} />
          ) : pass ? (
            <ReviewPhotosInput
              id="lead"
              value={photos}
              onChange={setPhotos}
              max={MAX_LEAD_PHOTOS}
              label={t('lead.photos', { max: localDigits(MAX_LEAD_PHOTOS, lang) })}
              upload={async (file, name) => {
                try {
                  return await uploadLeadPhoto(pass.phone, pass.token, file, name);
                } catch (x) {
                  // ReviewPhotosInput keeps upload errors to itself; an expired or used pass
                  // must still end here, so that the visitor is asked for a new code.
                  if (x instanceof ApiError && x.fields?.leadToken) fail(x);
                  throw x;
                }
              }}
            />
          ) : (
            <p class="small muted">{t('lead.photosAfterCode', { max: localDigits(MAX_LEAD_PHOTOS, lang) })}</p>
          )}
          <div class="field lead-point">
            <div class="pin-head">
              <span class="field-label" id="lead-point-label">
                {t('lead.point')}
              </span>
              <button type="button" class="link-btn" aria-expanded={showMap} aria-controls="lead-map" onClick={() => setShowMap(!showMap)}>
                {showMap ? t('lead.hideMap') : t('lead.showMap')}
              </button>
            </div>
            {showMap && (
              <div id="lead-map" class="pin-wrap">
                <Suspense fallback={<div class="kd-map pin-map skeleton" />}>
                  <PinMap
                    tiles={config.data?.tiles}
                    attribution={t('map.attribution')}
                    center={center ?? FALLBACK}
                    zoom={center ? 13 : 11}
                    value={pin}
                    onChange={setPin}
                    label={t('lead.mapLabel')}
                    markerLabel={t('lead.pin')}
                  />
                </Suspense>
              </div>
            )}
            <p class="small muted" id="lead-point-hint">
              {pin ? t('lead.pinAt', { lat: formatCoord(pin.lat, lang), long: formatCoord(pin.lng, lang) }) : t('lead.noPin')}
              {pin && (
                <>
                  {' '}
                  <button type="button" class="link-btn" onClick={() => setPin(null)}>
                    {t('lead.clearPin')}
                  </button>
                </>
              )}
            </p>
          </div>
          {/* Mounted before the pass arrives, so that only its text changes and it is announced;
              out of the form's flow (and its gap) while empty. */}
          {signedOut && (
            <p class={pass ? 'small' : 'visually-hidden'} role="status">
              {pass ? t('lead.verified', { phone: localDigits(pass.phone, lang) }) : ''}
            </p>
          )}
          {signedOut && !pass && (
            <>
              <FormField id="lead-phone" label={t('lead.phone')} value={phone} onInput={setPhone} type="tel" inputMode="tel" dir="ltr" localDigits required error={err.numberPhone} hint={t('lead.phoneHint')} />
              <button type="button" id="lead-send-code" class="btn btn-outline btn-sm" onClick={askCode} disabled={busy || !phone.trim()}>
                {codeSent ? t('lead.resend') : t('lead.sendCode')}
              </button>
              {codeSent && (
                <>
                  <FormField id="lead-code" label={t('lead.code')} value={code} onInput={setCode} inputMode="numeric" dir="ltr" inputClass="otp" localDigits required error={err.otpCode} autocomplete="one-time-code" />
                  <button type="button" class="btn btn-outline btn-sm" onClick={verify} disabled={busy || !code.trim()}>
                    {t('lead.verify')}
                  </button>
                </>
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
