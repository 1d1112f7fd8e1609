import { useState } from 'preact/hooks';
import { TradePicture, profilePhoto } from '../../components/TradePicture';
import { Link } from 'react-router-dom';
import { Icon } from '../../components/Icon';
import { Switch } from '../../components/Switch';
import { Dialog } from '../../components/Dialog';
import { EmptyState, Loaded } from '../../components/StateViews';
import { ApiError, type Profile } from '../../api';
import { deleteProfile, getMyProfiles, getOwnProfile, restoreProfile, setProfileFlags } from '../../api/desk';
import { localName, useTranslation } from '../../i18n';
import { formatDate } from '../../lib/format';
import { localDigits } from '../../lib/digits';
import { useLoad } from '../../lib/useLoad';
import { toast } from '../../state/toast';
import { useAuth } from '../../state/auth';
import { daysLeft, deletedIds, forgetDeleted, rememberDeleted, restoreUntil, RETENTION_DAYS } from './deleted';
import { StatusBadge } from './StatusBadge';
import { VerifyPanel } from './VerifyPanel';
import { MyClaims } from './MyClaims';

type Flag = 'active' | 'display';

function statusOf(p: Profile): string {
  return p.delete_at ? 'Deleted' : p.account_status ?? 'Pending';
}

async function loadAll(userId: number): Promise<Profile[]> {
  const { profiles } = await getMyProfiles(userId);
  const have = new Set(profiles.map((p) => p.id));
  const extra: Profile[] = [];
  for (const id of deletedIds(userId)) {
    if (have.has(id)) {
      forgetDeleted(userId, id);
      continue;
    }
    try {
      const p = await getOwnProfile(id);
      if (p?.delete_at && daysLeft(p.delete_at) > 0) extra.push(p);
      else forgetDeleted(userId, id);
    } catch (e) {
      if (e instanceof ApiError && (e.status === 404 || e.status === 403)) forgetDeleted(userId, id);
    }
  }
  return [...profiles, ...extra];
}

function StatusNote({ p }: { p: Profile }) {
  const { t, i18n } = useTranslation();
  const s = statusOf(p);
  const note = p.register_admin?.description?.trim();
  if (s === 'Deleted') {
    const until = restoreUntil(p.delete_at);
    return (
      <p class="status-note note-muted">
        <Icon name="restore" size={18} />
        <span>
          {t('desk.deletedNote', { n: localDigits(daysLeft(p.delete_at), i18n.language), date: until ? formatDate(until, i18n.language) : '' })}
        </span>
      </p>
    );
  }
  if (s === 'Rejected')
    return (
      <div class="status-note note-bad">
        <Icon name="alert" size={18} />
        <div>
          <strong>{t('desk.rejectedTitle')}</strong>
          {note ? (
            <p dir="auto">
              <span class="muted">{t('desk.adminNote')}: </span>
              {note}
            </p>
          ) : (
            <p>{t('desk.rejectedNoNote')}</p>
          )}
          <p class="small">{t('desk.rejectedFix')}</p>
        </div>
      </div>
    );
  if (s === 'Pending')
    return (
      <p class="status-note note-pending">
        <Icon name="clock" size={18} />
        <span>{t('desk.pendingNote')}</span>
      </p>
    );
  if (s === 'Blocked')
    return (
      <div class="status-note note-bad">
        <Icon name="lock" size={18} />
        <div>
          <p>{t('desk.blockedNote')}</p>
          {note && (
            <p dir="auto">
              <span class="muted">{t('desk.adminNote')}: </span>
              {note}
            </p>
          )}
        </div>
      </div>
    );
  if (note)
    return (
      <p class="status-note note-muted" dir="auto">
        <Icon name="info" size={18} />
        <span>
          <span class="muted">{t('desk.adminNote')}: </span>
          {note}
        </span>
      </p>
    );
  return null;
}

export default function MyProfiles() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const auth = useAuth();
  const userId = auth.userId;
  const mine = useLoad(() => loadAll(userId!), [userId], { enabled: !!userId });
  const [busy, setBusy] = useState<string>('');
  const [confirm, setConfirm] = useState<Profile | null>(null);

  const replace = (p: Profile) => mine.mutate((l) => l.map((x) => (x.id === p.id ? { ...x, ...p } : x)));

  const flag = async (p: Profile, which: Flag, on: boolean) => {
    setBusy(`${which}${p.id}`);
    replace({ ...p, [which]: on });
    try {
      const r = await setProfileFlags(p.id, { [which]: on });
      if (r) replace(r);
      toast(t(`desk.flagSaved.${which}.${on ? 'on' : 'off'}`), 'success');
    } catch (e) {
      replace(p);
      toast((e as Error).message, 'error');
    } finally {
      setBusy('');
    }
  };

  const remove = async () => {
    const p = confirm;
    if (!p) return;
    setBusy(`del${p.id}`);
    try {
      const r = await deleteProfile(p.id);
      rememberDeleted(userId, p.id);
      replace(r ?? { ...p, delete_at: new Date().toISOString(), active: false, account_status: 'Deleted' });
      toast(t('desk.deleted'), 'success');
      setConfirm(null);
    } catch (e) {
      toast((e as Error).message, 'error');
    } finally {
      setBusy('');
    }
  };

  const restore = async (p: Profile) => {
    setBusy(`res${p.id}`);
    try {
      const r = await restoreProfile(p.id);
      forgetDeleted(userId, p.id);
      replace(r ?? { ...p, delete_at: null });
      toast(t('desk.restored'), 'success');
    } catch (e) {
      toast((e as Error).message, 'error');
    } finally {
      setBusy('');
    }
  };

  const visible = (p: Profile) => statusOf(p) === 'Accepted' && p.active !== false && p.display !== false;

  return (
    <section aria-labelledby="mp-title">
      <header class="desk-head">
        <div>
          <h1 id="mp-title">{t('desk.myProfiles')}</h1>
          <p class="muted">{t('desk.profilesIntro')}</p>
        </div>
        <div class="desk-head-actions">
          <Link to="/dashboard/profiles/new" class="btn btn-primary">
            <Icon name="plus" size={18} />
            {t('desk.addProfile')}
          </Link>
        </div>
      </header>
      <MyClaims />
      <Loaded
        load={mine}
        isEmpty={(l) => l.length === 0}
        empty={
          <EmptyState icon="briefcase" title={t('desk.noProfiles')} text={t('desk.noProfilesText')}>
            <Link to="/dashboard/profiles/new" class="btn btn-primary">
              <Icon name="plus" size={18} />
              {t('desk.addProfile')}
            </Link>
          </EmptyState>
        }
      >
        {(list) => (
          <ul class="mp-list" role="list">
            {list.map((p) => {
              const s = statusOf(p);
              const deleted = s === 'Deleted';
              const img = p.profile_image || p.logo;
              return (
                <li key={p.id} class={`mp-card card${deleted ? ' is-deleted' : ''}`}>
                  <div class="mp-top">
                    <span class="mp-img" aria-hidden="true">
                      {img ? <img src={img} alt="" loading="lazy" /> : <TradePicture p={p} class="mp-ph" size={56} />}
                    </span>
                    <div class="mp-title">
                      <h2 dir="auto">{p.profile_name}</h2>
                      <p class="small muted">
                        {[localName(p.range_worker, lang), localName(p.city, lang)].filter(Boolean).join(' · ')}
                      </p>
                    </div>
                    <StatusBadge status={s} />
                  </div>
                  <StatusNote p={p} />
                  {!deleted && <VerifyPanel p={p} />}
                  {!deleted && !profilePhoto(p) && (
                    <p class="notice mp-photo-nudge">
                      <Icon name="camera" size={18} />
                      <span>{t('desk.photoNudge')}</span>
                      <Link to={`/dashboard/profiles/${p.id}`} class="btn btn-primary btn-sm">
                        <Icon name="image" size={16} />
                        {t('desk.photoNudgeAction')}
                      </Link>
                    </p>
                  )}
                  {!deleted && (
                    <div class="mp-flags">
                      <Switch
                        checked={p.active !== false}
                        busy={busy === `active${p.id}`}
                        onChange={(v) => flag(p, 'active', v)}
                        label={t('desk.active')}
                        hint={t(p.active !== false ? 'desk.activeOn' : 'desk.activeOff')}
                      />
                      <Switch
                        checked={p.display !== false}
                        busy={busy === `display${p.id}`}
                        onChange={(v) => flag(p, 'display', v)}
                        label={t('desk.display')}
                        hint={t(p.display !== false ? 'desk.displayOn' : 'desk.displayOff')}
                      />
                    </div>
                  )}
                  <div class="mp-actions">
                    {deleted ? (
                      <button type="button" class="btn btn-primary btn-sm" onClick={() => restore(p)} disabled={busy === `res${p.id}`}>
                        {busy === `res${p.id}` ? <span class="spinner" aria-hidden="true" /> : <Icon name="restore" size={18} />}
                        {t('desk.restore')}
                      </button>
                    ) : (
                      <>
                        <Link to={`/dashboard/profiles/${p.id}`} class="btn btn-outline btn-sm">
                          <Icon name="edit" size={18} />
                          {t('common.edit')}
                        </Link>
                        <Link to={`/dashboard/profiles/${p.id}/stats`} class="btn btn-ghost btn-sm">
                          <Icon name="chart" size={18} />
                          {t('deskStats.open')}
                        </Link>
                        {visible(p) && p.slug ? (
                          <Link to={`/profile/${encodeURIComponent(p.slug)}`} class="btn btn-ghost btn-sm">
                            <Icon name="eye" size={18} />
                            {t('desk.view')}
                          </Link>
                        ) : (
                          <Link to={`/preview/${p.id}`} class="btn btn-ghost btn-sm">
                            <Icon name="eye" size={18} />
                            {t('desk.preview')}
                          </Link>
                        )}
                        <button type="button" class="btn btn-ghost btn-sm danger-text" onClick={() => setConfirm(p)}>
                          <Icon name="trash" size={18} />
                          {t('desk.delete')}
                        </button>
                      </>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </Loaded>
      <Dialog
        open={!!confirm}
        onClose={() => setConfirm(null)}
        title={t('desk.deleteTitle')}
        actions={
          <>
            <button type="button" class="btn btn-ghost" onClick={() => setConfirm(null)}>
              {t('common.close')}
            </button>
            <button type="button" class="btn btn-danger" onClick={remove} disabled={!!busy}>
              {busy.startsWith('del') ? <span class="spinner" aria-hidden="true" /> : <Icon name="trash" size={18} />}
              {t('desk.deleteConfirm')}
            </button>
          </>
        }
      >
        {confirm && (
          <div class="delete-explain">
            <p>
              <strong dir="auto">{confirm.profile_name}</strong>
            </p>
            <ul>
              <li>{t('desk.deleteHidden')}</li>
              <li>{t('desk.deleteRetention', { n: localDigits(RETENTION_DAYS, lang) })}</li>
              <li>{t('desk.deleteLock', { field: localName(confirm.range_worker, lang) || t('desk.thisField'), n: localDigits(RETENTION_DAYS, lang) })}</li>
            </ul>
          </div>
        )}
      </Dialog>
    </section>
  );
}
