import { describe, expect, it } from 'vitest';
import type { Profile } from '../../../api';
import { addContact, addService, emptyProfileForm, MAX_LINKS, MAX_SERVICES, moveRow, patchRow, removeRow, type ServiceRow } from '../../../lib/profileForm';
import { editorReducer, initialEditor, snapshot, type EditorAction, type EditorState } from './editor';

function run(...actions: EditorAction[]): EditorState {
  return actions.reduce(editorReducer, initialEditor);
}

const blank = emptyProfileForm();
const profile = { id: 7, profile_name: 'Saved name', account_status: 'Accepted' } as Profile;

describe('the profile form reducer', () => {
  it('starts clean, and an edit makes it differ from what the server holds', () => {
    const s = run({ type: 'start', form: blank, profile: null, restoredAt: null });
    expect(s.form).toBe(blank);
    expect(s.saved).toBe(snapshot(blank));
    const e = editorReducer(s, { type: 'edit', fn: (f) => ({ ...f, profile_name: 'Ali' }), clear: ['profile_name'] });
    expect(e.form?.profile_name).toBe('Ali');
    expect(snapshot(e.form!)).not.toBe(e.saved);
  });

  it('a draft laid over the profile keeps the profile as what is saved', () => {
    const draft = { ...blank, profile_name: 'Draft name' };
    const s = run({ type: 'start', form: draft, profile, restoredAt: 1000, saved: blank });
    expect(s.saved).toBe(snapshot(blank));
    expect(s.restoredAt).toBe(1000);
    expect(s.profile).toBe(profile);
  });

  it('an edit clears the errors of the fields it touched, rows included, and no others', () => {
    let s = run({ type: 'start', form: blank, profile: null, restoredAt: null });
    s = editorReducer(s, { type: 'serverFailed', fields: { 'services.1.title': 'Enter title', city_id: 'Enter city', profile_name: 'Taken' }, form: null });
    s = editorReducer(s, { type: 'edit', fn: (f) => f, clear: ['services', 'city'] });
    expect(Object.keys(s.errors)).toEqual(['profile_name']);
    const same = editorReducer(s, { type: 'edit', fn: (f) => f, clear: ['address'] });
    expect(same.errors).toBe(s.errors);
  });

  it('saving with local errors opens the first stage in error, asks for focus and keeps the server messages', () => {
    let s = run({ type: 'start', form: blank, profile: null, restoredAt: null }, { type: 'show', tab: 'pictures' });
    s = editorReducer(s, { type: 'serverFailed', fields: { logo: 'Bad image' }, form: 'Check the form' });
    const before = s.focusReq;
    s = editorReducer(s, { type: 'localErrors', errors: { city_id: { key: 'errors.enter', label: 'city_id' } } });
    expect(s.tab).toBe('place');
    expect(s.focusReq).toBe(before + 1);
    expect(s.errors.logo).toEqual({ server: 'Bad image' });
    expect(s.errors.city_id?.local?.key).toBe('errors.enter');
  });

  it('"next" checks only its stage and stays on it', () => {
    let s = run({ type: 'start', form: blank, profile: null, restoredAt: null }, { type: 'show', tab: 'place' });
    s = editorReducer(s, { type: 'localErrors', errors: { profile_name: { key: 'errors.enter' } } });
    s = editorReducer(s, { type: 'show', tab: 'place' });
    s = editorReducer(s, { type: 'localErrors', errors: { city_id: { key: 'errors.enter' } }, only: 'place' });
    expect(s.tab).toBe('place');
    // The basics stage's error stays: this check looked at the place stage only.
    expect(Object.keys(s.errors).sort()).toEqual(['city_id', 'profile_name']);
    const ok = editorReducer(s, { type: 'localErrors', errors: {}, only: 'place' });
    expect(Object.keys(ok.errors)).toEqual(['profile_name']);
    expect(ok.focusReq).toBe(s.focusReq);
  });

  it('a refused save shows the stage of the first server error and ends saving', () => {
    let s = run({ type: 'start', form: blank, profile: null, restoredAt: null }, { type: 'ask', tab: 'hours' }, { type: 'saving' });
    expect(s.saving).toBe(true);
    s = editorReducer(s, { type: 'serverFailed', fields: { hours_of_work: 'Bad hours', portfolio_images: 'Too many' }, form: null });
    expect(s.saving).toBe(false);
    expect(s.tab).toBe('hours');
    expect(s.pending).toBeNull();
  });

  it('a language change drops the server texts and keeps the local errors', () => {
    let s = run({ type: 'start', form: blank, profile: null, restoredAt: null });
    s = editorReducer(s, { type: 'serverFailed', fields: { logo: 'Bad image' }, form: 'Check the form' });
    s = editorReducer(s, { type: 'localErrors', errors: { profile_name: { key: 'errors.enter' } }, only: 'basics' });
    s = editorReducer(s, { type: 'dropServerTexts' });
    expect(Object.keys(s.errors)).toEqual(['profile_name']);
    expect(s.formError).toBeNull();
  });

  it('a saved profile becomes the form and what is saved; the draft notice goes', () => {
    let s = run({ type: 'start', form: { ...blank, profile_name: 'Edited' }, profile, restoredAt: 5, saved: blank }, { type: 'saving' });
    s = editorReducer(s, { type: 'saved', profile: { ...profile, profile_name: 'From server' } });
    expect(s.form?.profile_name).toBe('From server');
    expect(s.saved).toBe(snapshot(s.form!));
    expect(s.restoredAt).toBeNull();
    expect(s.saving).toBe(false);
  });

  it('two "add contact" taps in a row, before any render, add two rows', () => {
    let s = run({ type: 'start', form: emptyProfileForm('09121234567'), profile: null, restoredAt: null });
    // Both actions are made before the first is applied, as two quick taps on one render are.
    const add: EditorAction = { type: 'edit', fn: addContact, clear: ['social_network'] };
    s = [add, add].reduce(editorReducer, s);
    const rows = s.form!.social_network;
    expect(rows.map((r) => r.type)).toEqual(['mobile', 'phone', 'Whatsap']);
    expect(rows[0].link).toBe('09121234567');
    expect(new Set(rows.map((r) => r.key)).size).toBe(3);
  });

  it('adding a contact stops at the most rows a profile takes', () => {
    let s = run({ type: 'start', form: blank, profile: null, restoredAt: null });
    for (let i = 0; i < MAX_LINKS + 2; i++) s = editorReducer(s, { type: 'edit', fn: addContact, clear: ['social_network'] });
    expect(s.form!.social_network).toHaveLength(MAX_LINKS);
    expect(s.form!.social_network.at(-1)?.type).toBe('Ather');
  });

  it('two "add service" taps in a row, before any render, add two rows and keep what was typed', () => {
    let s = run({ type: 'start', form: blank, profile: null, restoredAt: null });
    s = editorReducer(s, { type: 'edit', fn: (f) => ({ ...f, services: f.services.map((r) => ({ ...r, title: 'Boiler repair' })) }), clear: ['services.0'] });
    // Both actions are made before the first is applied, as two quick taps on one render are.
    const add: EditorAction = { type: 'edit', fn: addService, clear: ['services'] };
    s = [add, add].reduce(editorReducer, s);
    const rows = s.form!.services;
    expect(rows.map((r) => r.title)).toEqual(['Boiler repair', '', '']);
    expect(new Set(rows.map((r) => r.key)).size).toBe(3);
  });

  it('adding a service stops at the most rows a profile takes', () => {
    let s = run({ type: 'start', form: blank, profile: null, restoredAt: null });
    for (let i = 0; i < MAX_SERVICES + 2; i++) s = editorReducer(s, { type: 'edit', fn: addService, clear: ['services'] });
    expect(s.form!.services).toHaveLength(MAX_SERVICES);
  });
  // Row tools as the Services and Contact tabs build them: each action is made on one render, for
  // the row drawn there, and applied to whatever rows the state holds by then.
  const withServices = (...titles: string[]) => {
    const row = (title: string): ServiceRow => ({ key: `k-${title}`, title, price: null, free: false, description: '' });
    return run({ type: 'start', form: { ...blank, services: titles.map(row) }, profile: null, restoredAt: null });
  };
  const onServices = (fn: (rows: ServiceRow[]) => ServiceRow[]): EditorAction => ({ type: 'edit', fn: (f) => ({ ...f, services: fn(f.services) }), clear: ['services'] });
  const titles = (s: EditorState) => s.form!.services.map((r) => r.title);

  it('two "remove" taps on one row before a render remove that row, not the one below it too', () => {
    const remove = onServices((all) => removeRow(all, 'k-b'));
    expect(titles([remove, remove].reduce(editorReducer, withServices('a', 'b', 'c', 'd')))).toEqual(['a', 'c', 'd']);
  });

  it('"remove" taps on two rows before a render remove those two', () => {
    const s = withServices('a', 'b', 'c', 'd');
    const b = onServices((all) => removeRow(all, 'k-b'));
    const c = onServices((all) => removeRow(all, 'k-c'));
    expect(titles([c, b].reduce(editorReducer, s))).toEqual(['a', 'd']);
    expect(titles([b, c].reduce(editorReducer, s))).toEqual(['a', 'd']);
  });

  it('two "move up" taps on one row before a render move it two places, not back again', () => {
    const up = onServices((all) => moveRow(all, 'k-c', -1));
    expect(titles([up, up].reduce(editorReducer, withServices('a', 'b', 'c', 'd')))).toEqual(['c', 'a', 'b', 'd']);
    const down = onServices((all) => moveRow(all, 'k-b', 1));
    expect(titles([down, down].reduce(editorReducer, withServices('a', 'b', 'c', 'd')))).toEqual(['a', 'c', 'd', 'b']);
  });

  it('a move past an end, or of a row removed meanwhile, changes nothing', () => {
    const s = withServices('a', 'b', 'c');
    expect(titles(editorReducer(s, onServices((all) => moveRow(all, 'k-a', -1))))).toEqual(['a', 'b', 'c']);
    expect(titles(editorReducer(s, onServices((all) => moveRow(all, 'k-c', 1))))).toEqual(['a', 'b', 'c']);
    const gone = [onServices((all) => removeRow(all, 'k-a')), onServices((all) => moveRow(all, 'k-a', 1))].reduce(editorReducer, s);
    expect(titles(gone)).toEqual(['b', 'c']);
  });

  it('typing lands on its own row after a row above it was removed, and nowhere once it is gone', () => {
    const s = withServices('a', 'b', 'c');
    const typed = [onServices((all) => removeRow(all, 'k-a')), onServices((all) => patchRow(all, 'k-c', { title: 'C' }))].reduce(editorReducer, s);
    expect(titles(typed)).toEqual(['b', 'C']);
    const lost = [onServices((all) => removeRow(all, 'k-b')), onServices((all) => patchRow(all, 'k-b', { title: 'B' }))].reduce(editorReducer, s);
    expect(titles(lost)).toEqual(['a', 'c']);
  });

  it('two "remove" taps on one contact row before a render keep the rows below it', () => {
    let s = run({ type: 'start', form: emptyProfileForm('09121234567'), profile: null, restoredAt: null });
    s = [addContact, addContact].reduce((st, fn) => editorReducer(st, { type: 'edit', fn, clear: ['social_network'] }), s);
    const key = s.form!.social_network[1].key;
    const remove: EditorAction = { type: 'edit', fn: (f) => ({ ...f, social_network: removeRow(f.social_network, key) }), clear: ['social_network'] };
    expect([remove, remove].reduce(editorReducer, s).form!.social_network.map((r) => r.type)).toEqual(['mobile', 'Whatsap']);
  });
});
