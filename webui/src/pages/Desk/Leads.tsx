import { useState } from 'preact/hooks';
import { localDigits } from '../../lib/digits';
import { useTranslation } from '../../i18n';
import { Icon } from '../../components/Icon';
import { PriceInput } from '../../components/PriceInput';
import { ReportDialog } from '../../components/ReportDialog';
import { answerLead, getOwnerLeads, setLeadStatus, type LeadStatus, type OwnerLead } from '../../api/leads';
import { formatDate, formatDistance, formatPrice } from '../../lib/format';
import { latLng, routeLinks } from '../../lib/links';
import { Gallery } from '../Profile/Gallery';
import { mapServerErrors } from '../../lib/serverErrors';
import { toast } from '../../state/toast';
import { ModerationQueue, type QueueControl } from './Admin/ModerationQueue';

/** The quote form under a lead: a price in Toman and a message. */
function AnswerForm({ l, onDone }: { l: OwnerLead; onDone: (l: OwnerLead) => void }) {
  const { t, i18n } = useTranslation();
  const [price, setPrice] = useState<number | null>(l.price);
  const [message, setMessage] = useState(l.message);
  const [err, setErr] = useState('');
  const [busy, setBusy] = useState(false);
  const id = `lead-${l.id}-${l.user_technical_id}`;
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!message.trim()) {
      setErr(t('deskLeads.needMessage'));
      return;
    }
    setBusy(true);
    try {
      onDone(await answerLead(l, price ?? 0, message.trim()));
      toast(t('deskLeads.answered'), 'success');
    } catch (x) {
      const m = mapServerErrors(x, []);
      setErr(m.form ?? Object.values(m.fields)[0] ?? '');
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="lead-answer-form" onSubmit={submit} noValidate>
      <label for={`${id}-price`}>{t('deskLeads.price')}</label>
      <PriceInput id={`${id}-price`} value={price} onChange={setPrice} lang={i18n.language} />
      <label for={`${id}-msg`}>{t('deskLeads.message')}</label>
      <textarea id={`${id}-msg`} class="input" rows={3} maxLength={1000} value={message} onInput={(e) => setMessage((e.target as HTMLTextAreaElement).value)} dir="auto" />
      {err && (
        <p class="form-error" role="alert">
          {err}
        </p>
      )}
      <button type="submit" class="btn btn-primary btn-sm" disabled={busy}>
        <Icon name="send" size={16} />
        {t('deskLeads.send')}
      </button>
    </form>
  );
}

/** The professional's inbox of requests for a price: answer with a quote, decline, mark done, report. */
export default function Leads({ onChange }: { onChange?: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [busy, setBusy] = useState('');
  const [reporting, setReporting] = useState<OwnerLead | null>(null);
  const key = (l: OwnerLead) => `${l.id}-${l.user_technical_id}`;

  const replace = (q: QueueControl<OwnerLead>, n: OwnerLead) => {
    q.patch((items) => items.map((x) => (key(x) === key(n) ? n : x)));
    onChange?.();
  };
  const move = async (q: QueueControl<OwnerLead>, l: OwnerLead, status: LeadStatus) => {
    setBusy(key(l));
    try {
      replace(q, await setLeadStatus(l, status));
    } catch (e) {
      toast((e as Error).message, 'error');
    } finally {
      setBusy('');
    }
  };

  return (
    <section>
      <h1>{t('deskLeads.title')}</h1>
      <p class="desk-intro">{t('deskLeads.intro')}</p>
      <ModerationQueue<OwnerLead>
        load={(_s, skip, take, signal) => getOwnerLeads(skip, take, signal).then((r) => ({ items: r.leads, count: r.count }))}
        keyOf={key}
        itemClass={(l) => `lead-item${l.status === 'new' ? ' unread' : ''}`}
        empty={{ icon: 'tag', title: t('deskLeads.empty') }}
        renderItem={(l, q) => {
          const point = latLng(l.location);
          return (
            <div class="item-body">
              <h3 dir="auto">
                {l.status === 'new' && <span class="badge">{t('deskLeads.new')}</span>} {l.what}
              </h3>
              <div class="item-meta">
                <span dir="auto">{l.profile_name}</span>
                {l.when && <span dir="auto">{l.when}</span>}
                {l.distance !== null && <span>{formatDistance(l.distance, lang, { m: t('units.m'), km: t('units.km') })}</span>}
                <span>{formatDate(l.create_at, lang, true)}</span>
                <span>{t(`deskLeads.status.${l.status}`)}</span>
              </div>
              {l.photos.length > 0 && <Gallery images={l.photos} name={l.what} small />}
              {point && (
                <p class="item-meta lead-point-links">
                  <span>{t('deskLeads.point')}</span>
                  {routeLinks(point.lat, point.lng).map((r) => (
                    <a key={r.name} class={`route-${r.name}`} href={r.href} target="_blank" rel="noopener noreferrer">
                      {t(`routes.${r.name}`)}
                    </a>
                  ))}
                </p>
              )}
              {l.numberPhone ? (
                <p>
                  <a class="btn btn-outline btn-sm" href={`tel:${l.numberPhone}`} dir="ltr">
                    <Icon name="phone" size={16} />
                    {localDigits(l.numberPhone, i18n.language)}
                  </a>
                </p>
              ) : (
                <p class="item-text">{t('deskLeads.numberAfter')}</p>
              )}
              {(l.status === 'answered' || l.status === 'done') && (
                <p class="item-text">
                  {t('deskLeads.yourAnswer')}: {formatPrice(l.price, lang, { toman: t('price.toman'), free: t('price.free') })} — <span dir="auto">{l.message}</span>
                </p>
              )}
              {l.status !== 'declined' && l.status !== 'done' && <AnswerForm l={l} onDone={(n) => replace(q, n)} />}
              <div class="item-actions">
                {l.status === 'new' && (
                  <button type="button" class="btn btn-sm btn-outline" disabled={busy === key(l)} onClick={() => move(q, l, 'seen')}>
                    {t('deskLeads.markSeen')}
                  </button>
                )}
                {l.status === 'answered' && (
                  <button type="button" class="btn btn-sm btn-outline" disabled={busy === key(l)} onClick={() => move(q, l, 'done')}>
                    <Icon name="check" size={16} />
                    {t('deskLeads.markDone')}
                  </button>
                )}
                {l.status !== 'declined' && l.status !== 'done' && (
                  <button type="button" class="btn btn-sm btn-ghost" disabled={busy === key(l)} onClick={() => move(q, l, 'declined')}>
                    {t('deskLeads.decline')}
                  </button>
                )}
                <button type="button" class="btn btn-sm btn-ghost" onClick={() => setReporting(l)}>
                  <Icon name="alert" size={16} />
                  {t('report.action')}
                </button>
              </div>
            </div>
          );
        }}
      />
      {reporting && <ReportDialog open onClose={() => setReporting(null)} entity="lead" id={reporting.id} subject={reporting.what} />}
    </section>
  );
}
