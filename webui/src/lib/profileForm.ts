import type { Named, Profile } from '../api/types';
import type { HoursOfWork } from './hours';
import { latLng } from './links';
import { toLatinDigits } from './digits';
import { canonicalType, checkLink, linkKind } from './contactCheck';
import { defaultWeek, validateWeek, weekForServer } from './weekHours';

/** The tabs of the profile form, in the order of the stages. */
export const TABS = ['basics', 'place', 'services', 'hours', 'contact', 'pictures'] as const;
export type TabId = (typeof TABS)[number];

/** Every form field by the name the server uses for it, and the tab that holds it. */
export const FIELD_TAB: Record<string, TabId> = {
  profile_name: 'basics',
  range_worker: 'basics',
  category_list: 'basics',
  work_history_years: 'basics',
  descriotion: 'basics',
  province_id: 'place',
  city_id: 'place',
  location: 'place',
  address: 'place',
  area_working: 'place',
  services: 'services',
  hours_of_work: 'hours',
  social_network: 'contact',
  profile_image: 'pictures',
  logo: 'pictures',
  portfolio_images: 'pictures',
};
export const PROFILE_FIELDS = Object.keys(FIELD_TAB);

/** The tab of a field, row fields included ("services.2.title" → services). */
export function tabOf(field: string): TabId | null {
  return FIELD_TAB[field.split('.')[0]] ?? null;
}

/** The first tab (in stage order) that has an error. */
export function firstErrorTab(errors: Record<string, string | undefined>): TabId | null {
  const tabs = new Set(Object.keys(errors).filter((k) => errors[k]).map(tabOf));
  return TABS.find((t) => tabs.has(t)) ?? null;
}

export interface ServiceRow {
  key: string;
  title: string;
  price: number | null;
  free: boolean;
  description: string;
}

export interface ContactRow {
  key: string;
  type: string;
  link: string;
}

export interface ProfileFormState {
  profile_name: string;
  range_worker: number | null;
  category_list: number[];
  work_history_years: string;
  descriotion: string;
  province: Named | null;
  city: Named | null;
  location: { lat: number; long: number } | null;
  address: string;
  area_working: string[];
  services: ServiceRow[];
  hours_of_work: HoursOfWork;
  social_network: ContactRow[];
  profile_image: string;
  logo: string;
  portfolio_images: string[];
  /** Kept as loaded so that saving does not erase them. */
  option: string[];
  list_object: unknown[];
}

let seq = 0;
export function rowKey(): string {
  seq += 1;
  return `r${Date.now().toString(36)}${seq}`;
}

export function emptyService(): ServiceRow {
  return { key: rowKey(), title: '', price: null, free: false, description: '' };
}

/** The most service rows a profile takes. */
export const MAX_SERVICES = 50;

/**
 * The form with one more, empty, service row (none past MAX_SERVICES). Like addContact it reads
 * the rows it is given, so as a functional update every tap adds a row, even two before a render.
 */
export function addService(f: ProfileFormState): ProfileFormState {
  if (f.services.length >= MAX_SERVICES) return f;
  return { ...f, services: [...f.services, emptyService()] };
}

export function emptyContact(type = 'mobile'): ContactRow {
  return { key: rowKey(), type, link: '' };
}

/** The most contact rows a profile takes. */
export const MAX_LINKS = 30;

/** The order new contact rows take their type in: the next one not used yet, then "other". */
const NEXT_CONTACT_TYPES = ['mobile', 'phone', 'Whatsap', 'Telegram', 'Instagram', 'Eitaa', 'Bale', 'Site', 'Email'];

/**
 * The form with one more, empty, contact row (none past MAX_LINKS). It reads the rows it is
 * given, so as a functional update every tap adds a row, even two taps before a render.
 */
export function addContact(f: ProfileFormState): ProfileFormState {
  if (f.social_network.length >= MAX_LINKS) return f;
  const used = new Set(f.social_network.map((r) => r.type));
  const type = NEXT_CONTACT_TYPES.find((x) => !used.has(x)) ?? 'Ather';
  return { ...f, social_network: [...f.social_network, emptyContact(type)] };
}

/** The list with items i and i+d swapped; the list itself when either lies outside it. */
export function move<T>(list: T[], i: number, d: number): T[] {
  const j = i + d;
  if (i < 0 || i >= list.length || j < 0 || j >= list.length) return list;
  const out = [...list];
  [out[i], out[j]] = [out[j], out[i]];
  return out;
}

// The row helpers below find the row by its key in the rows they are given, never by the index it
// had when drawn: as functional updates, two taps handled before a redraw would otherwise act on
// the row that moved into that index (a second "remove" deleting the row below).

/** The rows without the row `key` (unchanged when it is gone already). */
export function removeRow<T extends { key: string }>(rows: T[], key: string): T[] {
  return rows.filter((r) => r.key !== key);
}

/** The rows with the row `key` moved `d` places (-1 up, 1 down); unchanged at an end or when gone. */
export function moveRow<T extends { key: string }>(rows: T[], key: string, d: number): T[] {
  return move(rows, rows.findIndex((r) => r.key === key), d);
}

/** The rows with `patch` applied to the row `key` (unchanged when it is gone). */
export function patchRow<T extends { key: string }>(rows: T[], key: string, patch: Partial<T>): T[] {
  return rows.map((r) => (r.key === key ? { ...r, ...patch } : r));
}

/** A new profile's form; `mobile` (the account's verified number) fills its first contact. */
export function emptyProfileForm(mobile = ''): ProfileFormState {
  return {
    profile_name: '',
    range_worker: null,
    category_list: [],
    work_history_years: '',
    descriotion: '',
    province: null,
    city: null,
    location: null,
    address: '',
    area_working: [],
    services: [emptyService()],
    hours_of_work: defaultWeek(),
    social_network: [{ ...emptyContact('mobile'), link: mobile }],
    profile_image: '',
    logo: '',
    portfolio_images: [],
    option: [],
    list_object: [],
  };
}

/** The form filled from a profile's read form. */
export function fromProfile(p: Profile): ProfileFormState {
  const pos = latLng(p.location);
  return {
    profile_name: p.profile_name ?? '',
    range_worker: p.range_worker?.id ?? null,
    category_list: (p.category_list ?? []).map((c) => c.id),
    work_history_years: p.work_history_years ? String(p.work_history_years) : '',
    descriotion: p.descriotion ?? '',
    province: p.province ?? null,
    city: p.city ?? null,
    location: pos ? { lat: pos.lat, long: pos.lng } : null,
    address: p.address ?? '',
    area_working: [...(p.area_working ?? [])],
    services: (p.services ?? []).map((s) => ({ key: rowKey(), title: s.title ?? '', price: Number(s.price) || 0, free: !Number(s.price), description: s.description ?? '' })),
    hours_of_work: p.hours_of_work ?? {},
    social_network: (p.social_network ?? []).map((l) => ({ key: rowKey(), type: canonicalType(l.type) ?? l.type, link: l.link ?? '' })),
    profile_image: p.profile_image ?? '',
    logo: p.logo ?? '',
    portfolio_images: [...(p.portfolio_images ?? [])],
    option: [...(p.option ?? [])],
    list_object: Array.isArray(p.list_object) ? p.list_object : [],
  };
}

/**
 * The form of a profile whose owner's edit waits for review: the owner goes on from what they
 * sent, not from the public version. The city and province stay the public ones: the edit holds
 * only their ids, and the form needs their names (a move to another city is shown in the notice).
 */
export function fromPendingEdit(p: Profile): ProfileFormState {
  const base = fromProfile(p);
  const e = p.pending_edit?.profile;
  if (!e) return base;
  return {
    ...base,
    profile_name: e.profile_name ?? base.profile_name,
    range_worker: e.range_worker ?? base.range_worker,
    category_list: e.category_list ?? base.category_list,
    work_history_years: e.work_history_years ? String(e.work_history_years) : '',
    descriotion: e.descriotion ?? '',
    location: e.location ? { lat: e.location.lat, long: e.location.long } : base.location,
    address: e.address ?? '',
    area_working: [...(e.area_working ?? [])],
    services: (e.services ?? []).map((s) => ({ key: rowKey(), title: s.title ?? '', price: Number(s.price) || 0, free: !Number(s.price), description: s.description ?? '' })),
    hours_of_work: e.hours_of_work ?? base.hours_of_work,
    social_network: (e.social_network ?? []).map((l) => ({ key: rowKey(), type: canonicalType(l.type) ?? l.type, link: l.link ?? '' })),
    profile_image: e.profile_image ?? '',
    logo: e.logo ?? '',
    portfolio_images: [...(e.portfolio_images ?? [])],
    option: [...(e.option ?? base.option)],
  };
}

export interface NameLookup {
  byId(id: number | null | undefined): Named | null;
}

/** The spec's key_word: the profile's name with the Persian and English names of its city, province, field and categories. */
export function buildKeyWord(f: ProfileFormState, tree?: NameLookup): string {
  const named: (Named | null | undefined)[] = [f.city, f.province];
  if (tree) named.push(tree.byId(f.range_worker), ...f.category_list.map((id) => tree.byId(id)));
  return [f.profile_name.trim(), ...named.flatMap((n) => (n ? [n.farsi_name, n.english_name] : []))].filter(Boolean).join(' ');
}

/** The body of createProfile / update: the profile "as sent" (SPEC §3). */
export function toPayload(f: ProfileFormState, tree?: NameLookup) {
  const years = Number(toLatinDigits(f.work_history_years).replace(/\D/g, '')) || 0;
  return {
    profile_name: f.profile_name.trim(),
    key_word: buildKeyWord(f, tree),
    work_history_years: years,
    descriotion: f.descriotion.trim(),
    city_id: f.city?.id ?? 0,
    province_id: f.province?.id ?? 0,
    range_worker: f.range_worker ?? 0,
    category_list: f.category_list,
    location: f.location ? { lat: f.location.lat, long: f.location.long } : null,
    area_working: f.area_working.map((a) => a.trim()).filter(Boolean),
    address: f.address.trim(),
    services: f.services
      .filter((s) => s.title.trim() || s.description.trim() || s.price)
      .map((s) => ({ title: s.title.trim(), price: s.free ? 0 : Math.max(0, Math.round(s.price ?? 0)), description: s.description.trim() })),
    hours_of_work: weekForServer(f.hours_of_work),
    // Numbers go in Latin digits, as the spec's API takes them (a draft from before the input
    // kept them so may still hold Persian ones).
    social_network: f.social_network
      .filter((l) => l.link.trim())
      .map((l) => {
        const kind = linkKind(l.type);
        return { type: l.type, link: kind === 'mobile' || kind === 'phone' ? toLatinDigits(l.link.trim()) : l.link.trim() };
      }),
    profile_image: f.profile_image,
    logo: f.logo,
    portfolio_images: f.portfolio_images,
    option: f.option,
    list_object: f.list_object,
  };
}

/** A problem found before saving, as a catalogue key (and the field label it names, if any). */
export interface LocalError {
  key: string;
  label?: string;
  args?: Record<string, unknown>;
}

export const MAX_NAME = 100;
export const MAX_DESCRIPTION = 5000;
export const MAX_ADDRESS = 300;
export const MAX_YEARS = 80;

/** Checks the fields of one tab (or all) the way the server will, so errors show before saving. */
export function validateProfile(f: ProfileFormState, only?: TabId): Record<string, LocalError> {
  const e: Record<string, LocalError> = {};
  const want = (t: TabId) => !only || only === t;
  if (want('basics')) {
    if (!f.profile_name.trim()) e.profile_name = { key: 'errors.enter', label: 'profile_name' };
    else if ([...f.profile_name.trim()].length > MAX_NAME) e.profile_name = { key: 'deskForm.errors.tooLong', label: 'profile_name', args: { max: MAX_NAME } };
    if (!f.range_worker) e.range_worker = { key: 'errors.enter', label: 'range_worker' };
    if (!f.category_list.length) e.category_list = { key: 'errors.enter', label: 'category_list' };
    const y = toLatinDigits(f.work_history_years.trim());
    if (y && (!/^\d+$/.test(y) || Number(y) > MAX_YEARS)) e.work_history_years = { key: 'deskForm.errors.years', args: { max: MAX_YEARS } };
    if ([...f.descriotion].length > MAX_DESCRIPTION) e.descriotion = { key: 'deskForm.errors.tooLong', label: 'descriotion', args: { max: MAX_DESCRIPTION } };
  }
  if (want('place')) {
    if (!f.province) e.province_id = { key: 'errors.enter', label: 'province_id' };
    if (!f.city) e.city_id = { key: 'errors.enter', label: 'city_id' };
    if ([...f.address].length > MAX_ADDRESS) e.address = { key: 'deskForm.errors.tooLong', label: 'address', args: { max: MAX_ADDRESS } };
  }
  if (want('services')) {
    f.services.forEach((s, i) => {
      const blank = !s.title.trim() && !s.description.trim() && !s.price && !s.free;
      if (blank && f.services.length === 1) return;
      if (!s.title.trim()) e[`services.${i}.title`] = { key: 'errors.enter', label: 'serviceTitle' };
      if (!s.free && (s.price === null || s.price <= 0)) e[`services.${i}.price`] = { key: 'deskForm.errors.price' };
    });
  }
  if (want('hours')) {
    if (validateWeek(f.hours_of_work).length) e.hours_of_work = { key: 'deskForm.errors.hours' };
  }
  if (want('contact')) {
    f.social_network.forEach((l, i) => {
      if (!l.link.trim() && f.social_network.length === 1) return;
      const bad = checkLink(l.type, l.link);
      if (bad) e[`social_network.${i}.link`] = { key: bad === 'empty' ? 'errors.enter' : `deskForm.linkErrors.${bad}`, label: 'linkValue' };
    });
  }
  return e;
}
