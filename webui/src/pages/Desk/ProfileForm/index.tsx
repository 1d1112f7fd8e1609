import type { JSX } from 'preact';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from '../../../i18n';
import { Icon } from '../../../components/Icon';
import { Dialog } from '../../../components/Dialog';
import { ErrorState, Loading } from '../../../components/StateViews';
import { indexTree } from '../../../components/TreePicker';
import { getCategoryTree, type CategoryNode, type Profile } from '../../../api';
import { createProfile, getOwnProfile, updateProfile } from '../../../api/desk';
import { clearDraft, draftKey, draftWriter, loadDraft } from '../../../lib/draft';
import {
  emptyProfileForm,
  firstErrorTab,
  fromProfile,
  PROFILE_FIELDS,
  TABS,
  tabOf,
  toPayload,
  validateProfile,
  type LocalError,
  type ProfileFormState,
  type TabId,
} from '../../../lib/profileForm';
import { mapServerErrors } from '../../../lib/serverErrors';
import { formatDate } from '../../../lib/format';
import { localDigits } from '../../../lib/digits';
import { useAuth } from '../../../state/auth';
import { toast } from '../../../state/toast';
import { StatusBadge } from '../StatusBadge';
import type { TabProps } from './shared';
import Basics from './Basics';
import Place from './Place';
import Services from './Services';
import Hours from './Hours';
import Contact from './Contact';
import Pictures from './Pictures';
import './profile-form.css';

interface FieldErr {
  local?: LocalError;
  server?: string;
}

const PANELS: Record<TabId, (p: TabProps) => JSX.Element> = { basics: Basics, place: Place, services: Services, hours: Hours, contact: Contact, pictures: Pictures };

const ICONS: Record<TabId, string> = { basics: 'briefcase', place: 'pin', services: 'tag', hours: 'clock', contact: 'phone', pictures: 'image' };

/** What is compared to tell unsaved changes: the body that would be sent. */
function snapshot(f: ProfileFormState): string {
  return JSON.stringify(toPayload(f));
}

/** State key → the error fields it owns. */
function errorFields(touched: string[]): string[] {
  return touched.map((k) => (k === 'province' ? 'province_id' : k === 'city' ? 'city_id' : k));
}

export default function ProfileForm() {
  const { id } = useParams();
  const pid = id && /^\d+$/.test(id) ? Number(id) : null;
  const isNew = !id;
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const auth = useAuth();
  const navigate = useNavigate();
  const key = draftKey(auth.userId, 'profile', pid);
  const writer = useMemo(() => draftWriter<ProfileFormState>(key), [key]);

  const [form, setForm] = useState<ProfileFormState | null>(null);
  const [saved, setSaved] = useState('');
  const [profile, setProfile] = useState<Profile | null>(null);
  const [loadErr, setLoadErr] = useState('');
  const [tick, setTick] = useState(0);
  const [restoredAt, setRestoredAt] = useState<number | null>(null);
  const [tab, setTab] = useState<TabId>('basics');
  const [errors, setErrors] = useState<Record<string, FieldErr>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [pending, setPending] = useState<TabId | null>(null);
  const [focusReq, setFocusReq] = useState(0);
  const [tree, setTree] = useState<CategoryNode[] | null>(null);
  const [treeError, setTreeError] = useState('');
  const [treeTick, setTreeTick] = useState(0);
  const panel = useRef<HTMLDivElement>(null);

  // Load the profile (or start a new one), then lay any draft over it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the draft key and the texts follow the profile id and the language; the load runs once per profile
  useEffect(() => {
    let live = true;
    setLoadErr('');
    setForm(null);
    if (isNew) {
      const blank = emptyProfileForm();
      const d = loadDraft<ProfileFormState>(key);
      setSaved(snapshot(blank));
      setForm(d ? { ...blank, ...d.data } : blank);
      setRestoredAt(d ? d.at : null);
      return;
    }
    if (!pid) {
      setLoadErr(t('errors.itemNotFound'));
      return;
    }
    getOwnProfile(pid)
      .then((p) => {
        if (!live) return;
        const f = fromProfile(p);
        const snap = snapshot(f);
        setProfile(p);
        setSaved(snap);
        const d = loadDraft<ProfileFormState>(key);
        if (d && snapshot({ ...f, ...d.data }) !== snap) {
          setForm({ ...f, ...d.data });
          setRestoredAt(d.at);
        } else {
          if (d) clearDraft(key);
          setForm(f);
          setRestoredAt(null);
        }
      })
      .catch((e) => live && setLoadErr((e as Error).message));
    return () => {
      live = false;
    };
  }, [pid, isNew, tick]);

  useEffect(() => {
    getCategoryTree()
      .then((x) => {
        setTree(x ?? []);
        setTreeError('');
      })
      .catch((e) => setTreeError((e as Error).message));
  }, [treeTick]);

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
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([, v]) => v.local)));
    setFormError(null);
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

  const treeIdx = useMemo(() => indexTree(tree), [tree]);

  const update = useCallback((fn: (f: ProfileFormState) => ProfileFormState, touched?: string[]) => {
    setForm((f) => (f ? fn(f) : f));
    if (touched?.length) {
      const names = errorFields(touched);
      setErrors((e) => {
        const next = { ...e };
        let changed = false;
        for (const k of Object.keys(next)) {
          if (names.some((n) => k === n || k.startsWith(`${n}.`))) {
            delete next[k];
            changed = true;
          }
        }
        return changed ? next : e;
      });
    }
  }, []);

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

  const showLocal = (local: Record<string, LocalError>, only?: TabId) => {
    setErrors((e) => {
      const next: Record<string, FieldErr> = {};
      for (const [k, v] of Object.entries(e)) if (v.server || (only && tabOf(k) !== only)) next[k] = v;
      for (const [k, v] of Object.entries(local)) next[k] = { local: v };
      return next;
    });
  };

  const show = (next: TabId) => {
    setTab(next);
    setPending(null);
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
      showLocal(local, tab);
      if (Object.keys(local).length) {
        setFocusReq((n) => n + 1);
        return;
      }
    }
    if (!isNew && dirty) {
      setPending(next);
      return;
    }
    show(next);
  };

  const save = async (then?: TabId): Promise<boolean> => {
    if (!form || saving) return false;
    const local = validateProfile(form);
    if (Object.keys(local).length) {
      showLocal(local);
      setPending(null);
      const first = firstErrorTab(Object.fromEntries(Object.keys(local).map((k) => [k, 'x'])));
      if (first) setTab(first);
      setFocusReq((n) => n + 1);
      toast(t('deskForm.fixErrors'), 'error');
      return false;
    }
    setSaving(true);
    setFormError(null);
    try {
      const body = toPayload(form, treeIdx);
      const p = isNew ? await createProfile(body) : await updateProfile(pid!, body);
      writer.cancel();
      clearDraft(key);
      setErrors({});
      setRestoredAt(null);
      if (isNew) {
        setSaved(snapshot(form));
        toast(t('deskForm.created'), 'success');
        navigate('/dashboard', { replace: true });
        return true;
      }
      if (p) {
        const f = fromProfile(p);
        setProfile(p);
        setSaved(snapshot(f));
        setForm(f);
      } else setSaved(snapshot(form));
      toast(t('deskForm.saved'), 'success');
      if (then) show(then);
      return true;
    } catch (e) {
      const m = mapServerErrors(e, PROFILE_FIELDS, { conflictField: 'category_list' });
      setErrors(Object.fromEntries(Object.entries(m.fields).map(([k, v]) => [k, { server: v }])));
      setFormError(m.form);
      setPending(null);
      const first = firstErrorTab(m.fields);
      if (first) setTab(first);
      setFocusReq((n) => n + 1);
      return false;
    } finally {
      setSaving(false);
    }
  };

  const discardDraft = () => {
    writer.cancel();
    clearDraft(key);
    setRestoredAt(null);
    setErrors({});
    if (isNew) setForm(emptyProfileForm());
    else if (profile) setForm(fromProfile(profile));
  };

  if (loadErr) return <ErrorState message={loadErr} onRetry={() => setTick((n) => n + 1)} />;
  if (!form) return <Loading />;
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
          <p>{t('deskForm.newNote')}</p>
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
        <Panel form={form} update={update} err={err} tree={tree} treeError={treeError} reloadTree={() => setTreeTick((n) => n + 1)} />
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
        onClose={() => setPending(null)}
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
            <button type="button" class="btn btn-ghost" onClick={() => setPending(null)} disabled={saving}>
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
