import type { JSX } from 'preact';
import { useCallback, useEffect, useMemo, useReducer, useRef } from 'preact/hooks';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useTranslation } from '../../../i18n';
import { Icon } from '../../../components/Icon';
import { Dialog } from '../../../components/Dialog';
import { ErrorState, Loading } from '../../../components/StateViews';
import { indexTree } from '../../../components/TreePicker';
import { getCategoryTree, type Profile } from '../../../api';
import { createProfile, getOwnProfile, updateProfile } from '../../../api/desk';
import { createListing } from '../../../api/owners';
import { useDesk } from '../context';
import { clearDraft, draftKey, draftWriter, loadDraft } from '../../../lib/draft';
import { emptyProfileForm, fromPendingEdit, fromProfile, PROFILE_FIELDS, TABS, tabOf, toPayload, validateProfile, type ProfileFormState, type TabId } from '../../../lib/profileForm';
import { mapServerErrors } from '../../../lib/serverErrors';
import { formatDate } from '../../../lib/format';
import { localDigits } from '../../../lib/digits';
import { useLoad } from '../../../lib/useLoad';
import { useAuth } from '../../../state/auth';
import { toast } from '../../../state/toast';
import { StatusBadge } from '../StatusBadge';
import type { TabProps } from './shared';
import { editorReducer, initialEditor, snapshot } from './editor';
import Basics from './Basics';
import Place from './Place';
import Services from './Services';
import Hours from './Hours';
import Contact from './Contact';
import Pictures from './Pictures';
import './profile-form.css';

const PANELS: Record<TabId, (p: TabProps) => JSX.Element> = { basics: Basics, place: Place, services: Services, hours: Hours, contact: Contact, pictures: Pictures };

const ICONS: Record<TabId, string> = { basics: 'briefcase', place: 'pin', services: 'tag', hours: 'clock', contact: 'phone', pictures: 'image' };

// The same route serves an admin's own new profile and a listing for another business (?listing=1):
// a fresh form for each, so one's state (and the other business's phone) never shows in the other.
export default function ProfileForm() {
  const [params] = useSearchParams();
  return <ProfileFormPage key={params.get('listing') === '1' ? 'listing' : 'own'} />;
}

function ProfileFormPage() {
  const { id } = useParams();
  const pid = id && /^\d+$/.test(id) ? Number(id) : null;
  const isNew = !id;
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const auth = useAuth();
  const navigate = useNavigate();
  // An admin listing a business (it can claim the listing later) fills the same form.
  const [params] = useSearchParams();
  const desk = useDesk();
  const listing = isNew && desk.admin && params.get('listing') === '1';
  // A new profile starts with the account's own verified mobile (REVIEW #25); not when an admin
  // lists someone else's business.
  const ownMobile = listing ? '' : (desk.me?.numberPhone ?? '');
  const key = draftKey(auth.userId, listing ? 'listing' : 'profile', pid);
  const writer = useMemo(() => draftWriter<ProfileFormState>(key), [key]);

  const [st, dispatch] = useReducer(editorReducer, initialEditor);
  const { form, saved, profile, restoredAt, tab, errors, formError, saving, pending, focusReq } = st;
  const panel = useRef<HTMLDivElement>(null);

  // The profile (null for a new one); the form starts from it with any draft on this device laid over it.
  const loaded = useLoad<Profile | null>(
    () => (isNew ? Promise.resolve(null) : pid ? getOwnProfile(pid) : Promise.reject(new Error(t('errors.itemNotFound')))),
    [pid, isNew],
    { initial: () => (isNew ? null : undefined), clearOnChange: true },
  );
  const tree = useLoad(() => getCategoryTree().then((x) => x ?? []), [], { progress: false });

  // A new profile's form waits for the account (its loading state shows meanwhile): the first
  // contact is the account's mobile, and whether this is an admin's listing rests on it too. A form
  // started before the account's answer kept an empty first contact. The Desk gives up on an answer
  // that has not come in 5 s: the form then starts without the mobile, not never.
  const waitMe = isNew && desk.meLoading;
  // The form starts once per profile and draft key, so the end of that wait never restarts a form
  // being filled.
  const started = useRef<{ data: Profile | null; key: string } | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the account's number is read once, when the form starts; a later change must not restart a form being filled
  useEffect(() => {
    if (loaded.data === undefined || waitMe) return;
    if (started.current?.data === loaded.data && started.current.key === key) return;
    started.current = { data: loaded.data, key };
    const p = loaded.data;
    const base = p ? (p.pending_edit ? fromPendingEdit(p) : fromProfile(p)) : emptyProfileForm(ownMobile);
    const d = loadDraft<ProfileFormState>(key);
    if (d && (!p || snapshot({ ...base, ...d.data }) !== snapshot(base))) {
      dispatch({ type: 'start', form: { ...base, ...d.data }, profile: p, restoredAt: d.at, saved: base });
    } else {
      if (d) clearDraft(key);
      dispatch({ type: 'start', form: base, profile: p, restoredAt: null });
    }
  }, [loaded.data, key, waitMe]);

  const dirty = !!form && snapshot(form) !== saved;

  // Every change is kept as a draft on this device until it is saved.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the writer and the draft key are made once per profile; the draft follows the form
  useEffect(() => {
    if (!form) return;
    if (dirty) writer.write(form, profile?.update_at);
    else {
      writer.cancel();
      clearDraft(key);
    }
  }, [form, dirty]);
  useEffect(() => () => writer.flush(), [writer]);

  // Messages the server wrote are in the language of that request: drop them when the language changes.
  const firstLang = useRef(lang);
  useEffect(() => {
    if (firstLang.current === lang) return;
    firstLang.current = lang;
    dispatch({ type: 'dropServerTexts' });
  }, [lang]);

  // Move the focus to the first field in error once its tab is shown.
  useEffect(() => {
    if (!focusReq) return;
    const id = setTimeout(() => {
      const el = panel.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
      if (el) {
        el.focus();
        el.scrollIntoView({ block: 'center', behavior: 'smooth' });
      } else panel.current?.querySelector<HTMLElement>('.form-error')?.scrollIntoView({ block: 'center' });
    }, 60);
    return () => clearTimeout(id);
  }, [focusReq]);

  const treeIdx = useMemo(() => indexTree(tree.data ?? null), [tree.data]);

  const update = useCallback((fn: (f: ProfileFormState) => ProfileFormState, touched?: string[]) => dispatch({ type: 'edit', fn, clear: touched ?? [] }), []);

  const err = useCallback(
    (field: string): string | undefined => {
      const e = errors[field];
      if (!e) return undefined;
      if (e.server) return e.server;
      const l = e.local!;
      const args = Object.fromEntries(Object.entries(l.args ?? {}).map(([k, v]) => [k, typeof v === 'number' ? localDigits(v, lang) : v]));
      return t(l.key, { des: l.label ? t(`deskForm.labels.${l.label}`) : '', ...args });
    },
    [errors, lang, t],
  );

  const show = (next: TabId) => {
    dispatch({ type: 'show', tab: next });
    requestAnimationFrame(() => {
      document.getElementById('pf-tabs')?.scrollIntoView({ block: 'nearest' });
      document.getElementById(`pf-tab-${next}`)?.scrollIntoView({ inline: 'center', block: 'nearest' });
      panel.current?.focus({ preventScroll: true });
    });
  };

  /** Switching stages: "next" checks this stage first; unsaved edits of a saved profile ask first. */
  const goTo = (next: TabId, check = false) => {
    if (!form || next === tab) return;
    if (check) {
      const local = validateProfile(form, tab);
      dispatch({ type: 'localErrors', errors: local, only: tab });
      if (Object.keys(local).length) return;
    }
    if (!isNew && dirty) {
      dispatch({ type: 'ask', tab: next });
      return;
    }
    show(next);
  };

  const save = async (then?: TabId): Promise<boolean> => {
    if (!form || saving) return false;
    const local = validateProfile(form);
    if (Object.keys(local).length) {
      dispatch({ type: 'localErrors', errors: local });
      toast(t('deskForm.fixErrors'), 'error');
      return false;
    }
    dispatch({ type: 'saving' });
    try {
      const body = toPayload(form, treeIdx);
      const p = listing ? await createListing(body) : isNew ? await createProfile(body) : await updateProfile(pid!, body);
      writer.cancel();
      clearDraft(key);
      dispatch({ type: 'saved', profile: isNew ? null : (p ?? null) });
      if (isNew) {
        toast(t('deskForm.created'), 'success');
        navigate(listing ? '/dashboard/admin/all' : '/dashboard', { replace: true });
        return true;
      }
      toast(p?.pending_edit?.status === 'Pending' ? t('deskForm.savedForReview') : t('deskForm.saved'), 'success');
      if (then) show(then);
      return true;
    } catch (e) {
      const m = mapServerErrors(e, PROFILE_FIELDS, { conflictField: 'category_list' });
      dispatch({ type: 'serverFailed', fields: m.fields, form: m.form });
      return false;
    }
  };

  const discardDraft = () => {
    writer.cancel();
    clearDraft(key);
    if (isNew) dispatch({ type: 'discard', form: emptyProfileForm(ownMobile) });
    else if (profile) dispatch({ type: 'discard', form: fromProfile(profile) });
  };
  if (loaded.status === 'error') return <ErrorState message={loaded.error?.message} onRetry={loaded.reload} />;
  if (!form || loaded.data === undefined) return <Loading />;
  if (profile?.delete_at)
    return (
      <div class="state" role="alert">
        <Icon name="restore" size={44} />
        <h2>{t('deskForm.deletedTitle')}</h2>
        <p>{t('deskForm.deletedText')}</p>
        <Link to="/dashboard" class="btn btn-primary">
          {t('desk.myProfiles')}
        </Link>
      </div>
    );

  const i = TABS.indexOf(tab);
  const tabHasError = (x: TabId) => Object.keys(errors).some((k) => tabOf(k) === x);
  const Panel = PANELS[tab];
  const last = i === TABS.length - 1;

  return (
    <section class="pf" aria-labelledby="pf-title">
      <header class="desk-head">
        <div>
          <Link to="/dashboard" class="back-link">
            <Icon name="chevron" size={16} class="flip-back" />
            {t('desk.myProfiles')}
          </Link>
          <h1 id="pf-title" dir="auto">
            {isNew ? t('deskForm.newTitle') : profile?.profile_name || t('deskForm.editTitle')}
          </h1>
        </div>
        {!isNew && <StatusBadge status={profile?.account_status} />}
      </header>

      {restoredAt && (
        <div class="notice notice-info" role="status">
          <Icon name="draft" size={20} />
          <p>{t('deskForm.restored', { time: formatDate(restoredAt, lang, true) })}</p>
          <button type="button" class="btn btn-ghost btn-sm" onClick={discardDraft}>
            {t('deskForm.discardDraft')}
          </button>
        </div>
      )}
      {isNew && !restoredAt && (
        <div class="notice notice-soft">
          <Icon name="info" size={20} />
          <p>{t(listing ? 'deskClaims.listingNote' : 'deskForm.newNote')}</p>
        </div>
      )}
      {!isNew && profile?.pending_edit && (
        <div class={`notice ${profile.pending_edit.status === 'Rejected' ? 'notice-bad' : 'notice-info'}`} role="status" data-testid="pending-edit">
          <Icon name={profile.pending_edit.status === 'Rejected' ? 'alert' : 'clock'} size={20} />
          <div>
            <p>
              {profile.pending_edit.status === 'Rejected'
                ? t('deskForm.editRejected', { date: formatDate(profile.pending_edit.create_at, lang) })
                : t('deskForm.editPending', { date: formatDate(profile.pending_edit.create_at, lang) })}
            </p>
            {profile.pending_edit.register_admin?.description && (
              <p dir="auto">
                <strong>{t('desk.adminNote')}: </strong>
                {profile.pending_edit.register_admin.description}
              </p>
            )}
            <p class="small">
              {t('deskForm.publicVersion')}: <span dir="auto">{profile.profile_name}</span>
              {profile.slug && (
                <>
                  {' · '}
                  <Link to={`/profile/${encodeURIComponent(profile.slug)}`}>{t('deskForm.seePublic')}</Link>
                </>
              )}
            </p>
          </div>
        </div>
      )}
      {!isNew && profile?.account_status === 'Rejected' && profile.register_admin?.description && (
        <div class="notice notice-bad">
          <Icon name="alert" size={20} />
          <p dir="auto">
            <strong>{t('desk.adminNote')}: </strong>
            {profile.register_admin.description}
          </p>
        </div>
      )}

      <div class="pf-tabs" id="pf-tabs" role="tablist" aria-label={t('deskForm.stages')}>
        {TABS.map((x, n) => (
          <button
            key={x}
            id={`pf-tab-${x}`}
            type="button"
            role="tab"
            aria-selected={x === tab}
            aria-controls="pf-panel"
            tabIndex={x === tab ? 0 : -1}
            class={`pf-tab${x === tab ? ' active' : ''}${tabHasError(x) ? ' has-error' : ''}${n < i ? ' done' : ''}`}
            onClick={() => goTo(x)}
            onKeyDown={(e) => {
              const rtl = document.documentElement.dir === 'rtl';
              const d = e.key === 'ArrowRight' ? (rtl ? -1 : 1) : e.key === 'ArrowLeft' ? (rtl ? 1 : -1) : 0;
              if (!d) return;
              e.preventDefault();
              const nx = TABS[(n + d + TABS.length) % TABS.length];
              document.getElementById(`pf-tab-${nx}`)?.focus();
              goTo(nx);
            }}
          >
            <span class="pf-step" aria-hidden="true">
              {tabHasError(x) ? '!' : localDigits(n + 1, lang)}
            </span>
            <span class="pf-tab-label">{t(`deskForm.tabs.${x}`)}</span>
            {tabHasError(x) && <span class="visually-hidden">{t('deskForm.tabHasErrors')}</span>}
          </button>
        ))}
      </div>

      <div id="pf-panel" class="card pf-panel" role="tabpanel" aria-labelledby={`pf-tab-${tab}`} tabIndex={-1} ref={panel}>
        <div class="pf-panel-head">
          <span class="pf-panel-icon" aria-hidden="true">
            <Icon name={ICONS[tab]} size={22} />
          </span>
          <div>
            <p class="small muted">{t('deskForm.stageOf', { n: localDigits(i + 1, lang), total: localDigits(TABS.length, lang) })}</p>
            <h2>{t(`deskForm.tabs.${tab}`)}</h2>
          </div>
        </div>
        <p class="muted pf-intro">{t(`deskForm.intro.${tab}`)}</p>
        {formError && (
          <p class="form-error" role="alert">
            {formError}
          </p>
        )}
        <Panel form={form} update={update} err={err} tree={tree.data ?? null} treeError={tree.error?.message ?? ''} reloadTree={tree.reload} />
      </div>

      <div class="pf-footer">
        <button type="button" class="btn btn-outline" onClick={() => goTo(TABS[i - 1])} disabled={i === 0 || saving}>
          <Icon name="chevron" size={18} class="flip-back" />
          {t('deskForm.prev')}
        </button>
        {(last || (!isNew && dirty)) && (
          <button type="button" class={`btn pf-save${!last ? ' pf-save-wide' : ''} ${last ? 'btn-primary' : 'btn-outline'}`} onClick={() => save()} disabled={saving || (!isNew && !dirty)}>
            {saving ? <span class="spinner" aria-hidden="true" /> : <Icon name="check" size={18} />}
            {isNew ? t('deskForm.create') : t('deskForm.save')}
          </button>
        )}
        {!last && (
          <button type="button" class="btn btn-primary" onClick={() => goTo(TABS[i + 1], true)} disabled={saving}>
            {t('deskForm.next')}
            <Icon name="chevron" size={18} class="flip-rtl" />
          </button>
        )}
      </div>
      {!isNew && dirty && (
        <p class="small muted pf-unsaved" role="status">
          <Icon name="draft" size={16} /> {t('deskForm.unsaved')}
        </p>
      )}

      <Dialog
        open={!!pending}
        onClose={() => dispatch({ type: 'stay' })}
        title={t('deskForm.switchTitle')}
        actions={
          <div class="dialog-stack">
            <button type="button" class="btn btn-primary" onClick={() => save(pending!)} disabled={saving}>
              {saving ? <span class="spinner" aria-hidden="true" /> : <Icon name="check" size={18} />}
              {t('deskForm.switchSave')}
            </button>
            <button type="button" class="btn btn-outline" onClick={() => show(pending!)} disabled={saving}>
              {t('deskForm.switchKeep')}
            </button>
            <button type="button" class="btn btn-ghost" onClick={() => dispatch({ type: 'stay' })} disabled={saving}>
              {t('deskForm.switchStay')}
            </button>
          </div>
        }
      >
        <p>{t('deskForm.switchText')}</p>
      </Dialog>
    </section>
  );
}
