import { Fragment } from 'preact';
import { localDigits } from '../../../lib/digits';
import { Icon } from '../../../components/Icon';
import type { Profile } from '../../../api';
import { adminProfiles, setProfileStatus, type ModerationStatus } from '../../../api/desk';
import { localName, useTranslation } from '../../../i18n';
import { formatCoord, formatDate, formatNumber, formatPrice } from '../../../lib/format';
import { WeekHours } from '../../Profile/Hours';
import { Link } from 'react-router-dom';
import { contactLink, latLng, routeLinks } from '../../../lib/links';
import { toast } from '../../../state/toast';
import { StatusBadge } from '../StatusBadge';
import { ModerationQueue, MoveButton, ViewLink, type QueueControl } from './ModerationQueue';

const STATUSES = ['Pending', 'Edited', 'Accepted', 'Rejected', 'Blocked', 'Deleted'];

/** The moves an admin can make from each status (DESIGN §3). */
export const MOVES: Record<string, ModerationStatus[]> = {
  Pending: ['Accepted', 'Rejected'],
  Accepted: ['Blocked'],
  Blocked: ['Accepted'],
  Rejected: [],
};

/** An owner's waiting edit beside the public version: what accepting it would publish. */
function PendingEditDetails({ p }: { p: Profile }) {
  const { t, i18n } = useTranslation();
  const e = p.pending_edit?.profile;
  if (!e) return null;
  const changed = (a: unknown, b: unknown) => JSON.stringify(a ?? null) !== JSON.stringify(b ?? null);
  const rows: [string, string, string][] = [];
  if (changed(e.profile_name, p.profile_name)) rows.push([t('deskForm.labels.profile_name'), p.profile_name ?? '', e.profile_name ?? '']);
  if (changed(e.descriotion, p.descriotion)) rows.push([t('deskForm.labels.descriotion'), p.descriotion ?? '', e.descriotion ?? '']);
  if (changed(e.address, p.address)) rows.push([t('deskForm.labels.address'), p.address ?? '', e.address ?? '']);
  if (changed(e.social_network?.map((l) => `${l.type}: ${l.link}`), p.social_network?.map((l) => `${l.type}: ${l.link}`)))
    rows.push([t('profile.contact'), (p.social_network ?? []).map((l) => `${l.type}: ${l.link}`).join('\n'), (e.social_network ?? []).map((l) => `${l.type}: ${l.link}`).join('\n')]);
  if (changed(e.services?.map((x) => x.title), p.services?.map((x) => x.title)))
    rows.push([t('profile.services'), (p.services ?? []).map((x) => x.title).join('\n'), (e.services ?? []).map((x) => x.title).join('\n')]);
  const pics = [e.profile_image, e.logo, ...(e.portfolio_images ?? [])].filter((a): a is string => !!a);
  return (
    <div class="edit-diff">
      <p class="small muted">{t('deskAdmin.editSent', { date: formatDate(p.pending_edit!.create_at, i18n.language) })}</p>
      <dl class="kv">
        {rows.map(([label, before, after]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>
              <del dir="auto" class="pre">
                {before}
              </del>
              <ins dir="auto" class="pre">
                {after}
              </ins>
            </dd>
          </Fragment>
        ))}
      </dl>
      {changed(pics, [p.profile_image, p.logo, ...(p.portfolio_images ?? [])].filter(Boolean)) && (
        <div class="mini-gallery" role="group" aria-label={t('deskAdmin.editPictures')}>
          {pics.slice(0, 8).map((a) => (
            <img key={a} src={a} alt="" loading="lazy" />
          ))}
        </div>
      )}
    </div>
  );
}

export function ProfileDetails({ p }: { p: Profile }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const pin = latLng(p.location);
  return (
    <details class="item-details">
      <summary>{t('deskAdmin.details')}</summary>
      {/* The page as the public will see it, hours and map included (REVIEW #27). */}
      <Link to={`/preview/${p.id}`} class="btn btn-outline btn-sm admin-preview">
        <Icon name="eye" size={16} />
        {t('desk.preview')}
      </Link>
      <dl class="kv">
        <dt>{t('deskAdmin.owner')}</dt>
        <dd>
          <span dir="auto">{p.user_id?.name}</span>{' '}
          {p.user_id?.numberPhone && (
            <a href={`tel:${p.user_id.numberPhone}`} dir="ltr">
              {localDigits(p.user_id.numberPhone, i18n.language)}
            </a>
          )}
        </dd>
        <dt>{t('profile.categories')}</dt>
        <dd>{(p.category_list ?? []).map((c) => localName(c, lang)).join(lang === 'fa' ? '، ' : ', ')}</dd>
        {p.address && (
          <>
            <dt>{t('deskForm.labels.address')}</dt>
            <dd dir="auto">{p.address}</dd>
          </>
        )}
        {p.descriotion && (
          <>
            <dt>{t('deskForm.labels.descriotion')}</dt>
            <dd dir="auto" class="pre">
              {p.descriotion}
            </dd>
          </>
        )}
        {(p.services?.length ?? 0) > 0 && (
          <>
            <dt>{t('profile.services')}</dt>
            <dd>
              <ul>
                {p.services!.map((s, i) => (
                  <li key={i} dir="auto">
                    {s.title} — {formatPrice(s.price, lang, { toman: t('price.toman'), free: t('price.free') })}
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
        {p.hours_of_work && (
          <>
            <dt>{t('profile.hours')}</dt>
            <dd>
              <WeekHours hours={p.hours_of_work} />
            </dd>
          </>
        )}
        {pin && (
          <>
            <dt>{t('profile.location')}</dt>
            <dd>
              <a href={routeLinks(pin.lat, pin.lng)[0].href} target="_blank" rel="noopener noreferrer">
                {formatCoord(pin.lat, lang)}
                {lang === 'fa' ? '، ' : ', '}
                {formatCoord(pin.lng, lang)}
              </a>
            </dd>
          </>
        )}
        {(p.social_network?.length ?? 0) > 0 && (
          <>
            <dt>{t('profile.contact')}</dt>
            <dd>
              <ul>
                {p.social_network!.map((l, i) => {
                  const c = contactLink(l.type, l.link);
                  return (
                    <li key={i}>
                      {t(`contact.types.${c.kind}`, { defaultValue: l.type })}:{' '}
                      <span dir="ltr" class="ltr">
                        {l.link}
                      </span>
                    </li>
                  );
                })}
              </ul>
            </dd>
          </>
        )}
      </dl>
      {(p.portfolio_images?.length ?? 0) > 0 && (
        <div class="mini-gallery">
          {p.portfolio_images!.slice(0, 8).map((a) => (
            <img key={a} src={a} alt="" loading="lazy" />
          ))}
        </div>
      )}
    </details>
  );
}

export default function ProfileQueue() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;

  const ask = (q: QueueControl<Profile>, p: Profile, to: ModerationStatus) =>
    q.ask({
      title: t(`deskAdmin.profileMove.${to}`),
      subject: p.profile_name,
      confirm: t(`deskAdmin.do.${to === 'Accepted' && p.account_status === 'Blocked' ? 'Unblock' : to}`),
      danger: to !== 'Accepted',
      noteHint: t(to === 'Accepted' ? 'deskAdmin.noteAccept' : 'deskAdmin.noteReject'),
      run: async (note) => {
        const r = await setProfileStatus(p.id, to, note);
        toast(t('deskAdmin.done'), 'success');
        if (q.status === 'Edited') {
          // Accepted or rejected, the edit has left the queue.
          q.patch((items) => items.filter((x) => x.id !== p.id));
          return;
        }
        q.patch((items) => (q.status === (r?.account_status ?? to) ? items.map((x) => (x.id === p.id ? { ...x, ...r } : x)) : items.filter((x) => x.id !== p.id)));
      },
    });

  return (
    <ModerationQueue<Profile>
      load={(s, skip, take) => adminProfiles(s, skip, take).then((r) => ({ items: r.profiles, count: r.count }))}
      filters={STATUSES.map((s) => ({ value: s, label: t(`desk.status.${s}`) }))}
      defaultStatus="Pending"
      keyOf={(p) => p.id}
      empty={{ icon: 'check', title: t('deskAdmin.emptyQueue') }}
      summary={(n) => <p class="small muted">{t('deskAdmin.total', { n: formatNumber(n, lang) })}</p>}
      renderItem={(p, q) => {
        const s = p.delete_at ? 'Deleted' : (p.account_status ?? 'Pending');
        const img = p.profile_image || p.logo;
        return (
          <>
            <span class="item-thumb square" aria-hidden="true">
              {img ? <img src={img} alt="" loading="lazy" /> : <Icon name="briefcase" size={26} />}
            </span>
            <div class="item-body">
              <h3 dir="auto">{p.profile_name}</h3>
              <div class="item-meta">
                <StatusBadge status={s} />
                <span>{[localName(p.range_worker, lang), localName(p.city, lang)].filter(Boolean).join(' · ')}</span>
                <span>{formatDate(p.create_at, lang)}</span>
              </div>
              {p.register_admin?.description && (
                <p class="item-text small muted" dir="auto">
                  {t('desk.adminNote')}: {p.register_admin.description}
                </p>
              )}
              {q.status === 'Edited' && <PendingEditDetails p={p} />}
              <ProfileDetails p={p} />
              <div class="item-actions">
                {(q.status === 'Edited' && p.pending_edit?.status === 'Pending' ? (['Accepted', 'Rejected'] as ModerationStatus[]) : (MOVES[s] ?? [])).map((to) => (
                  <MoveButton key={to} to={to} unblock={s === 'Blocked'} onClick={() => ask(q, p, to)} />
                ))}
                {s === 'Accepted' && p.slug && <ViewLink to={`/profile/${encodeURIComponent(p.slug)}`} />}
              </div>
            </div>
          </>
        );
      }}
    />
  );
}
