import { useMemo, useState } from 'preact/hooks';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { usePageMeta } from '../../components/PageMeta';
import { Icon } from '../../components/Icon';
import { Stars } from '../../components/Stars';
import { OpenBadge } from '../../components/OpenBadge';
import { ProfileCard } from '../../components/ProfileCard';
import { TradePicture } from '../../components/TradePicture';
import { SaveButton } from '../../components/SaveButton';
import { ErrorState, Loading, OfflineNote } from '../../components/StateViews';
import { ApiError, getUserProfiles, profileBySlug, profileBySlugNow, type Profile } from '../../api';
import { useLoad } from '../../lib/useLoad';
import { useAfterPaint } from '../../lib/useAfterPaint';
import { localName, useTranslation } from '../../i18n';
import { formatNumber, formatPrice } from '../../lib/format';
import { currentStatus, hasHours, today } from '../../lib/hours';
import { contactLink, latLng, routeLinks } from '../../lib/links';
import { contactDigits } from '../../lib/digits';
import { contactTap, sendTap, type TapKind } from '../../lib/beacon';
import { useAuth } from '../../state/auth';
import NotFound from '../NotFound';
import { OfflinePage } from '../Offline/OfflinePage';
import { WeekHours, dayText } from './Hours';
import { Comments } from './Comments';
import { Gallery } from './Gallery';
import { ShareDialog, shareProfile } from './ShareDialog';
import { ClaimDialog, ReportDialog, RequestPriceDialog } from '../../components/dialogs';
import { VerifiedBadge } from '../../components/VerifiedBadge';
import './profile.css';

import { MapOnDemand } from '../../components/LeafletMap/MapOnDemand';

function OtherProfiles({ p }: { p: Profile }) {
  const { t } = useTranslation();
  const uid = p.user_id?.userId;
  const others = useLoad(async () => {
    if (!uid) return [];
    const r = await getUserProfiles(uid);
    const list = Array.isArray(r) ? r : (r?.profiles ?? []);
    return list.filter((x) => x.id !== p.id && x.slug && (x.account_status ?? 'Accepted') === 'Accepted' && !x.delete_at);
  }, [uid, p.id]);
  if (others.status !== 'success' || !(others.data ?? []).length) return null;
  return (
    <section class="card card-pad p-section" aria-labelledby="others-title">
      <h2 id="others-title">{t('profile.others')}</h2>
      <div class="others-list">
        {(others.data ?? []).map((x) => (
          <ProfileCard key={x.id} p={x} />
        ))}
      </div>
    </section>
  );
}

/**
 * A profile as the public sees it. `preview` is the owner's or an admin's look at a profile that
 * is not public yet (pending, rejected, hidden): the same page under a banner that says so.
 */
export function ProfileView({ p, offline, onScored, preview }: { p: Profile; offline: boolean; onScored?: () => void; preview?: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const navigate = useNavigate();
  const [share, setShare] = useState(false);
  const [report, setReport] = useState(false);
  const [asking, setAsking] = useState(false);
  const [claiming, setClaiming] = useState(false);
  const auth = useAuth();
  // The owner's own taps are not the owner's customers: they are not counted.
  const own = auth.userId != null && auth.userId === p.user_id?.userId;
  const tap = (kind: TapKind, detail = '') => {
    if (!own && !offline) sendTap(p.id, kind, detail);
  };
  // The hero and the description first; the reviews a frame later, the side column a frame after
  // them: drawn together they were one long task on a slow phone.
  const rest = useAfterPaint();
  const side = useAfterPaint(rest);
  const status = currentStatus(p);
  const todayText = hasHours(p.hours_of_work) ? dayText(p.hours_of_work?.[today()], t, lang) : '';
  const contacts = useMemo(() => (p.social_network ?? []).filter((s) => s?.link).map((s) => ({ ...contactLink(s.type, s.link), type: s.type })), [p]);
  const call = contacts.find((c) => c.kind === 'mobile' || c.kind === 'phone');
  const sms = contacts.find((c) => c.sms);
  const point = latLng(p.location);
  // The short link (/p/{id}) survives a change of name, and reads well when pasted.
  const url = typeof location !== 'undefined' ? `${location.origin}/p/${p.id}` : '';
  const field = localName(p.range_worker, lang);
  const city = localName(p.city, lang);

  usePageMeta(
    [p.profile_name, field, city].filter(Boolean).join(' – '),
    (p.descriotion || t('profile.metaDescription', { name: p.profile_name, field, city })).slice(0, 160),
  );

  return (
    <article class={`profile container ${side ? '' : 'p-first'}`}>
      {offline && <OfflineNote />}
      <nav class="crumbs small" aria-label={t('profile.breadcrumbs')}>
        <Link to="/">{t('nav.home')}</Link>
        <span aria-hidden="true">/</span>
        {p.city?.slag ? <Link to={`/search/${p.city.slag}`}>{city}</Link> : <Link to="/search/iran">{t('search.iran')}</Link>}
        {p.range_worker?.slag && (
          <>
            <span aria-hidden="true">/</span>
            <Link to={`/search/${p.city?.slag ?? 'iran'}/${p.range_worker.slag}`}>{field}</Link>
          </>
        )}
      </nav>

      {preview && (
        <div class="preview-banner" role="status">
          <Icon name="eye" size={18} />
          <strong>{t('preview.banner')}</strong>
          <span class="small">{t('preview.status', { status: t(`preview.statuses.${p.delete_at ? 'Deleted' : (p.account_status ?? 'Pending')}`) })}</span>
        </div>
      )}
      {p.claimable && !own && !preview && (
        <div class="claim-note">
          <Icon name="key" size={18} />
          <span>{t('claim.question')}</span>
          <button type="button" class="btn btn-sm btn-outline" onPointerEnter={ClaimDialog.warm} onFocus={ClaimDialog.warm} onClick={() => setClaiming(true)}>
            {t('claim.action')}
          </button>
        </div>
      )}
      <header class="p-hero card">
        <div class="p-cover" aria-hidden="true" />
        <div class="p-id">
          <div class="p-pics">
            <TradePicture p={p} class="p-avatar" size={112} alt={t('profile.picture', { name: p.profile_name })} lazy={false} />
            {p.logo && p.logo !== p.profile_image && (
              <TradePicture p={p} src={p.logo} class="p-logo" size={48} alt={t('profile.logo', { name: p.profile_name })} lazy={false} />
            )}
          </div>
          <div class="p-title">
            <h1 dir="auto">{p.profile_name}</h1>
            <p class="muted">
              {field}
              {city && (
                <>
                  <span aria-hidden="true"> · </span>
                  <Icon name="pin" size={15} class="inline-icon" />
                  {city}
                  {p.province && localName(p.province, lang) !== city && `، ${localName(p.province, lang)}`}
                </>
              )}
            </p>
            <div class="p-badges">
              {p.verified && <VerifiedBadge explain />}
              <Stars score={p.score} count={p.count_scorer} />
              {status && <OpenBadge status={status} />}
              {todayText && status !== 'Boarding' && (
                <span class="small muted">
                  <Icon name="clock" size={14} class="inline-icon" />
                  {t('profile.today', { hours: todayText })}
                </span>
              )}
            </div>
            {(p.category_list ?? []).length > 0 && (
              <ul class="chips" role="list" aria-label={t('profile.categories')}>
                {(p.category_list ?? []).map((c) => (
                  <li key={c.id}>
                    <Link class="chip" to={`/search/${p.city?.slag ?? 'iran'}/${c.slag ?? ''}`}>
                      {localName(c, lang)}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
        <div class="p-actions">
          {call?.href && (
            <a class="btn btn-primary" href={call.href} onClick={() => tap('call')}>
              <Icon name="phone" size={18} />
              {t('profile.call')}
            </a>
          )}
          {p.city?.id && (
            <button
              type="button"
              class="btn btn-outline lead-btn"
              // No beacon here: the server counts a quote for each asked profile when the
              // request is sent (lead/add), not when the form is merely opened.
              onPointerEnter={RequestPriceDialog.warm}
              onFocus={RequestPriceDialog.warm}
              onClick={() => setAsking(true)}
            >
              <Icon name="tag" size={18} />
              {t('lead.action')}
            </button>
          )}
          {sms?.sms && (
            <a class="btn btn-outline" href={sms.sms} onClick={() => tap('sms')}>
              <Icon name="sms" size={18} />
              {t('profile.sms')}
            </a>
          )}
          {point && (
            <a class="btn btn-outline" href="#location">
              <Icon name="route" size={18} />
              {t('profile.route')}
            </a>
          )}
          <SaveButton p={p} />
          <button type="button" class="btn btn-outline share-btn" onClick={() => {
              tap('share');
              shareProfile(url, p.profile_name, () => setShare(true));
            }}>
            <Icon name="share" size={18} />
            {t('profile.share')}
          </button>
          <button type="button" class="btn btn-ghost report-btn" onPointerEnter={ReportDialog.warm} onFocus={ReportDialog.warm} onClick={() => setReport(true)}>
            <Icon name="alert" size={18} />
            {t('report.action')}
          </button>
        </div>
      </header>

      <div class="p-layout">
        <div class="p-main">
          {(p.descriotion || p.work_history_years) && (
            <section class="card card-pad p-section" aria-labelledby="about-title">
              <h2 id="about-title">{t('profile.about')}</h2>
              {p.work_history_years ? (
                <p class="p-exp">
                  <Icon name="briefcase" size={18} />
                  {t('profile.experience', { years: formatNumber(p.work_history_years, lang) })}
                </p>
              ) : null}
              {p.descriotion && (
                <p class="p-desc" dir="auto">
                  {p.descriotion}
                </p>
              )}
            </section>
          )}

          {(p.services ?? []).length > 0 && (
            <section class="card card-pad p-section" aria-labelledby="services-title">
              <h2 id="services-title">{t('profile.services')}</h2>
              <ul class="services" role="list">
                {(p.services ?? []).map((s, i) => (
                  <li key={i} class="service">
                    <div>
                      <strong dir="auto">{s.title}</strong>
                      {s.description && (
                        <p class="small muted" dir="auto">
                          {s.description}
                        </p>
                      )}
                    </div>
                    <span class={`price ${!s.price ? 'free' : ''}`}>{formatPrice(s.price, lang, { toman: t('price.toman'), free: t('price.free') })}</span>
                  </li>
                ))}
              </ul>
            </section>
          )}

          {(p.portfolio_images ?? []).length > 0 && (
            <section class="card card-pad p-section" aria-labelledby="gallery-title">
              <h2 id="gallery-title">{t('profile.portfolio')}</h2>
              <Gallery images={p.portfolio_images ?? []} name={p.profile_name} />
            </section>
          )}

          {rest && !offline && <Comments profile={p} onScored={onScored} />}
        </div>

        {side && (
          <aside class="p-side">
            {hasHours(p.hours_of_work) && (
              <section class="card card-pad p-section" aria-labelledby="hours-title">
                <div class="section-head">
                  <h2 id="hours-title">{t('profile.hours')}</h2>
                  {status && <OpenBadge status={status} />}
                </div>
                <WeekHours hours={p.hours_of_work!} />
              </section>
            )}

            {contacts.length > 0 && (
              <section class="card card-pad p-section" aria-labelledby="contact-title">
                <h2 id="contact-title">{t('profile.contact')}</h2>
                <ul class="contacts" role="list">
                  {contacts.map((c, i) => (
                    <li key={i} class="contact">
                      <span class={`contact-icon ci-${c.kind}`}>
                        <Icon name={c.icon} size={18} />
                      </span>
                      <span class="contact-label">
                        <span class="small muted">{t(`contact.types.${c.kind}`, { defaultValue: c.type })}</span>
                        {c.href ? (
                          <a
                            href={c.href}
                            class="ltr"
                            onClick={() => {
                              const k = contactTap(c.kind, c.type);
                              tap(k.kind, k.detail);
                            }}
                            {...(c.external ? { target: '_blank', rel: 'noopener noreferrer nofollow' } : {})}
                          >
                            {contactDigits(c.text, lang)}
                          </a>
                        ) : (
                          <span dir="auto">{c.text}</span>
                        )}
                      </span>
                      {c.sms && (
                        <a class="icon-btn" href={c.sms} onClick={() => tap('sms')} aria-label={t('profile.smsTo', { n: contactDigits(c.text, lang) })}>
                          <Icon name="sms" size={18} />
                        </a>
                      )}
                    </li>
                  ))}
                </ul>
              </section>
            )}

            {(point || p.address || (p.area_working ?? []).length > 0) && (
              <section class="card card-pad p-section" aria-labelledby="location-title" id="location">
                <h2 id="location-title">{t('profile.location')}</h2>
                {p.address && (
                  <p class="p-address" dir="auto">
                    <Icon name="pin" size={18} />
                    {p.address}
                  </p>
                )}
                {point && (
                  <div class="p-map">
                    <MapOnDemand
                      attribution={t('map.attribution')}
                      center={[point.lat, point.lng]}
                      zoom={15}
                      markers={[{ id: p.id, lat: point.lat, lng: point.lng }]}
                      label={t('profile.mapOf', { name: p.profile_name })}
                      onNavigate={(h) => navigate(h)}
                    />
                  </div>
                )}
                {point && (
                  <>
                    <h3 class="small route-title">{t('profile.routeWith')}</h3>
                    <ul class="route-links" role="list">
                      {routeLinks(point.lat, point.lng).map((r) => (
                        <li key={r.name}>
                          <a
                            class={`route-link route-${r.name}`}
                            href={r.href}
                            target="_blank"
                            rel="noopener noreferrer"
                            onClick={() => tap('route', r.name)}
                          >
                            <Icon name="route" size={16} />
                            {t(`routes.${r.name}`)}
                          </a>
                        </li>
                      ))}
                    </ul>
                  </>
                )}
                {(p.area_working ?? []).length > 0 && (
                  <>
                    <h3 class="small route-title">{t('profile.areas')}</h3>
                    <ul class="chips" role="list">
                      {(p.area_working ?? []).map((a, i) => (
                        <li key={i} class="chip" dir="auto">
                          {a}
                        </li>
                      ))}
                    </ul>
                  </>
                )}
              </section>
            )}

            {!offline && <OtherProfiles p={p} />}
          </aside>
        )}
      </div>

      <ShareDialog open={share} onClose={() => setShare(false)} url={url} title={p.profile_name} profileId={p.id} />
      <ReportDialog open={report} onClose={() => setReport(false)} entity="profile" id={p.id} subject={p.profile_name} />
      {claiming && <ClaimDialog open onClose={() => setClaiming(false)} id={p.id} name={p.profile_name} />}
      {asking && p.city?.id && (
        <RequestPriceDialog open onClose={() => setAsking(false)} targets={[{ id: p.id, name: p.profile_name }]} cityId={p.city.id} center={point} />
      )}
    </article>
  );
}

export default function ProfilePage() {
  const { slug = '' } = useParams();
  const { t } = useTranslation();
  const res = useLoad(() => profileBySlug(slug), [slug], { initial: () => profileBySlugNow(slug) });
  if (res.status === 'error') {
    const e = res.error;
    if (e instanceof ApiError && e.status === 404) return <NotFound missing="profile" />;
    if (e instanceof ApiError && e.offline) return <OfflinePage />;
    return (
      <div class="container">
        <ErrorState message={e?.message} onRetry={res.reload} />
      </div>
    );
  }
  if (!res.data || res.data.data.slug !== slug && res.status === 'loading') return <Loading page label={t('common.loading')} />;
  // A posted or changed review moves the score in the header too: the profile is read again.
  return <ProfileView p={res.data.data} offline={res.data.offline} onScored={res.reload} />;
}
