import type { Profile } from '../../../api';
import { firstErrorTab, fromPendingEdit, fromProfile, tabOf, toPayload, type LocalError, type ProfileFormState, type TabId } from '../../../lib/profileForm';

/** A field's error: found here before saving (translated when shown), or the server's own words. */
export interface FieldErr {
  local?: LocalError;
  server?: string;
}

/** Everything the profile form changes while it is open, in one place (one reducer, not 16 useStates). */
export interface EditorState {
  /** The form being edited; null until the profile (or a new blank) is there. */
  form: ProfileFormState | null;
  /** What the server holds, as the body it would be sent: a form that differs has unsaved changes. */
  saved: string;
  profile: Profile | null;
  /** When the draft laid over the form was written, while its notice shows. */
  restoredAt: number | null;
  tab: TabId;
  errors: Record<string, FieldErr>;
  formError: string | null;
  saving: boolean;
  /** The stage the user asked for while a saved profile has unsaved changes: the dialog asks first. */
  pending: TabId | null;
  /** Bumped to move the focus to the first field in error once its stage shows. */
  focusReq: number;
}

export type EditorAction =
  | { type: 'start'; form: ProfileFormState; profile: Profile | null; restoredAt: number | null; saved?: ProfileFormState }
  | { type: 'edit'; fn: (f: ProfileFormState) => ProfileFormState; clear: string[] }
  | { type: 'localErrors'; errors: Record<string, LocalError>; only?: TabId }
  | { type: 'serverFailed'; fields: Record<string, string>; form: string | null }
  | { type: 'dropServerTexts' }
  | { type: 'show'; tab: TabId }
  | { type: 'ask'; tab: TabId }
  | { type: 'stay' }
  | { type: 'saving' }
  | { type: 'saved'; profile: Profile | null }
  | { type: 'discard'; form: ProfileFormState };

/** What is compared to tell unsaved changes: the body that would be sent. */
export function snapshot(f: ProfileFormState): string {
  return JSON.stringify(toPayload(f));
}

export const initialEditor: EditorState = {
  form: null,
  saved: '',
  profile: null,
  restoredAt: null,
  tab: 'basics',
  errors: {},
  formError: null,
  saving: false,
  pending: null,
  focusReq: 0,
};

/** The error fields a changed state key owns (the form keeps objects where the server names ids). */
export function errorFields(touched: string[]): string[] {
  return touched.map((k) => (k === 'province' ? 'province_id' : k === 'city' ? 'city_id' : k));
}

function withoutFields(errors: Record<string, FieldErr>, touched: string[]): Record<string, FieldErr> {
  const names = errorFields(touched);
  let changed = false;
  const next = { ...errors };
  for (const k of Object.keys(next)) {
    if (names.some((n) => k === n || k.startsWith(`${n}.`))) {
      delete next[k];
      changed = true;
    }
  }
  return changed ? next : errors;
}

export function editorReducer(s: EditorState, a: EditorAction): EditorState {
  switch (a.type) {
    case 'start':
      return { ...initialEditor, form: a.form, profile: a.profile, restoredAt: a.restoredAt, saved: snapshot(a.saved ?? a.form), tab: s.tab };
    case 'edit':
      if (!s.form) return s;
      return { ...s, form: a.fn(s.form), errors: a.clear.length ? withoutFields(s.errors, a.clear) : s.errors };
    case 'localErrors': {
      // The server's messages stay (they are about what was sent); the local ones are found again.
      const errors: Record<string, FieldErr> = {};
      for (const [k, v] of Object.entries(s.errors)) if (v.server || (a.only && tabOf(k) !== a.only)) errors[k] = v;
      for (const [k, v] of Object.entries(a.errors)) errors[k] = { local: v };
      const found = Object.keys(a.errors).length > 0;
      if (!found) return { ...s, errors };
      // Saving everything (no `only`) opens the first stage in error; a stage's "next" stays on it.
      const tab = a.only ? s.tab : (firstErrorTab(Object.fromEntries(Object.keys(a.errors).map((k) => [k, 'x']))) ?? s.tab);
      return { ...s, errors, tab, pending: null, focusReq: s.focusReq + 1 };
    }
    case 'serverFailed': {
      const errors = Object.fromEntries(Object.entries(a.fields).map(([k, v]) => [k, { server: v }]));
      return { ...s, saving: false, errors, formError: a.form, pending: null, tab: firstErrorTab(a.fields) ?? s.tab, focusReq: s.focusReq + 1 };
    }
    case 'dropServerTexts':
      return { ...s, errors: Object.fromEntries(Object.entries(s.errors).filter(([, v]) => v.local)), formError: null };
    case 'show':
      return { ...s, tab: a.tab, pending: null };
    case 'ask':
      return { ...s, pending: a.tab };
    case 'stay':
      return { ...s, pending: null };
    case 'saving':
      return { ...s, saving: true, formError: null };
    case 'saved': {
      if (!s.form) return s;
      // The server's answer is what it holds now: the form starts again from it.
      const form = a.profile ? (a.profile.pending_edit ? fromPendingEdit(a.profile) : fromProfile(a.profile)) : s.form;
      return { ...s, saving: false, errors: {}, restoredAt: null, profile: a.profile ?? s.profile, form, saved: snapshot(form) };
    }
    case 'discard':
      return { ...s, form: a.form, errors: {}, restoredAt: null };
  }
}
