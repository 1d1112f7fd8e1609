import { Link, Navigate, useLocation, useSearchParams } from 'react-router-dom';
import { usePageMeta } from '../../components/PageMeta';
import { Icon } from '../../components/Icon';
import { Pager } from '../../components/Pager';
import { Stars } from '../../components/Stars';
import { EmptyState, Loaded } from '../../components/StateViews';
import { getMyLeads, type LeadAnswer, type VisitorLead } from '../../api/leads';
import { useAuth } from '../../state/auth';
import { useTranslation } from '../../i18n';
import { formatDate, formatDistance, formatNumber, formatPrice } from '../../lib/format';
import { skipFor, TAKE } from '../../lib/paging';
import { useLoad } from '../../lib/useLoad';
import { sendTap } from '../../lib/beacon';
import './requests.css';

/** Answers first, the cheapest first; then the ones still waiting; declined last. */
function order(a: LeadAnswer, b: LeadAnswer): number {
  const rank = (x: LeadAnswer) => (x.price !== null && (x.status === 'answered' || x.status === 'done') ? 0 : x.status === 'declined' ? 2 : 1);
  return rank(a) - rank(b) || (a.price ?? 0) - (b.price ?? 0);
}

function Answer({ a }: { a: LeadAnswer }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const answered = a.status === 'answered' || a.status === 'done';
  return (
    <li class={`card card-pad lead-answer ${answered ? 'answered' : ''}`}>
      <h3 dir="auto">
        <Link to={`/profile/${a.slug}`}>{a.profile_name}</Link>
      </h3>
      <div class="lead-answer-meta">
        <Stars score={a.score} count={a.count_scorer} />
        {a.distance !== null && <span>{formatDistance(a.distance, lang, { m: t('units.m'), km: t('units.km') })}</span>}
      </div>
      {answered ? (
        <>
          <p class="lead-price">{formatPrice(a.price, lang, { toman: t('price.toman'), free: t('price.free') })}</p>
          <p class="pre" dir="auto">
            {a.message}
          </p>
          {a.phone && (
            // The call is the request's aim: it counts in the professional's statistics like the profile's call button.
            <a class="btn btn-primary btn-sm lead-call" href={`tel:${a.phone}`} onClick={() => sendTap(a.user_technical_id, 'call')}>
              <Icon name="phone" size={16} />
              {t('requests.call')}
            </a>
          )}
        </>
      ) : (
        <p class="lead-wait">{t(`requests.status.${a.status}`)}</p>
      )}
    </li>
  );
}

function Request({ l }: { l: VisitorLead }) {
  const { t, i18n } = useTranslation();
  const answers = [...l.answers].sort(order);
  const got = l.answers.filter((a) => a.status === 'answered' || a.status === 'done').length;
  return (
    <section class="lead-request" aria-labelledby={`lead-${l.id}`}>
      <h2 id={`lead-${l.id}`} dir="auto">
        {l.what}
      </h2>
      <p class="lead-sub">
        {l.when && <span dir="auto">{l.when} · </span>}
        {formatDate(l.create_at, i18n.language, true)} · {t('requests.answers', { count: got, n: formatNumber(got, i18n.language), of: formatNumber(l.answers.length, i18n.language) })}
      </p>
      <ul class="lead-compare" role="list">
        {answers.map((a) => (
          <Answer key={a.user_technical_id} a={a} />
        ))}
      </ul>
    </section>
  );
}

/** The visitor's requests for a price, each with the professionals' answers side by side. */
export default function Requests() {
  const { t } = useTranslation();
  const auth = useAuth();
  const loc = useLocation();
  const [params] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  usePageMeta(t('requests.title'));
  const list = useLoad((signal) => getMyLeads(skipFor(page), TAKE, signal), [page], { enabled: auth.loggedIn });
  if (!auth.loggedIn) return <Navigate to={`/login?next=${encodeURIComponent(loc.pathname)}`} replace />;
  return (
    <div class="container requests-page">
      <h1>{t('requests.title')}</h1>
      <Loaded load={list} isEmpty={(d) => d.leads.length === 0} empty={<EmptyState icon="tag" title={t('requests.empty')} text={t('requests.emptyText')} />}>
        {(d) => (
          <>
            {d.leads.map((l) => (
              <Request key={l.id} l={l} />
            ))}
            <Pager page={page} count={d.count} href={(n) => (n > 1 ? `/requests?page=${n}` : '/requests')} />
          </>
        )}
      </Loaded>
    </div>
  );
}
