import type { HoursOfWork, OpenStatus } from '../lib/hours';

export interface Envelope<T> {
  payload: T;
  message: string | string[] | null;
}

export interface Province {
  id: number;
  farsi_name: string;
  english_name: string;
}

export interface City {
  id: number;
  farsi_name: string;
  english_name: string;
  slag: string;
  province_id?: number;
  lat?: number;
  long?: number;
  /** The province's capital (listed first in the picker). */
  capital?: boolean;
  /** The county's seat. */
  seat?: boolean;
  /** Former names (a renamed city is found by them). */
  aliases?: string[];
}

export interface CategoryNode {
  id: number;
  farsi_name: string;
  english_name: string;
  slag: string;
  favourite?: boolean;
  parent_id?: number | null;
  /** Other words people search the category by, Persian and English. */
  synonyms?: string[];
  children?: CategoryNode[];
}

export interface Named {
  id: number;
  farsi_name: string;
  english_name: string;
  slag?: string;
}

export interface Service {
  title: string;
  price: number;
  description?: string;
}

export interface SocialLink {
  type: string;
  link: string;
}

export type AccountStatus = 'Pending' | 'Rejected' | 'Accepted' | 'Blocked' | 'Deleted';

export interface Profile {
  id: number;
  delete_at?: string | null;
  active?: boolean;
  /** Display status: visible to others. */
  display?: boolean;
  option?: string[];
  register_admin?: { adminRegisterId?: number; description?: string } | null;
  /**
   * The owner's edit of an accepted profile waiting for review (or rejected with the admin's
   * note): only in the owner's and admins' views. Visitors see the accepted version meanwhile.
   */
  pending_edit?: PendingProfileEdit | null;
  user_id?: { userId: number; name: string; numberPhone?: string; profileImage?: string } | null;
  range_worker?: (Named & { parent_ids?: number[] }) | null;
  category_list?: Named[];
  profile_image?: string;
  profile_name: string;
  key_word?: string;
  work_history_years?: number;
  descriotion?: string;
  level_score?: number;
  count_scorer?: number;
  score?: number;
  location?: [number, number] | number[] | null;
  area_working?: string[];
  address?: string;
  account_status?: AccountStatus;
  portfolio_images?: string[];
  create_at?: string;
  update_at?: string;
  list_object?: unknown[];
  social_network?: SocialLink[];
  services?: Service[];
  hours_of_work?: HoursOfWork;
  logo?: string;
  slug: string;
  province?: Named | null;
  city?: Named | null;
  open_status?: OpenStatus;
  /** When the open status next changes (within 8 days), as the server's schedule says. */
  next_change?: NextChange | null;
  special_days?: SpecialDay[];
  open_on_holidays?: boolean;
  /** The verified badge: an admin checked the business (its number answered a code). */
  verified?: boolean;
  verified_at?: string | null;
  /** An admin listed this business for it: the business can claim it. */
  claimable?: boolean;
  distance?: number;
}

export interface NextChange {
  at: string;
  status: OpenStatus;
}

export interface SpecialDay {
  date: string;
  closed: boolean;
  boarding: boolean;
  time: { open: number; close: number }[] | null;
  note: string;
}

export interface Paged<K extends string, T> {
  count: number;
  items: T[];
  key: K;
}

export interface ProfileList {
  profiles: Profile[];
  count: number;
  /** Set when nothing matched every word: what the answer shows instead. */
  fallback?: SearchFallback;
  did_you_mean?: string;
}

export interface PlaceName {
  slag: string;
  farsi_name: string;
  english_name: string;
}

export interface SearchFallback {
  category: PlaceName | null;
  city: PlaceName | null;
  message: string;
}

export interface Suggestions {
  categories: PlaceName[];
  cities: PlaceName[];
  profiles: { id: number; profile_name: string; slug: string; city: PlaceName | null; profile_image: string; logo: string }[];
}

export interface CommentItem {
  id: number;
  description: string;
  score: number;
  create_at: string;
  user: { id: number; name: string; profileImage?: string } | null;
  reply: { description: string; create_at: string } | null;
  /** Up to three photos the reviewer attached (upload paths). */
  images?: string[];
}

export interface CommentList {
  comments: CommentItem[];
  count: number;
  /** Our addition to comment/get: how many visible comments gave 1…5 stars (index 0: the 1s). */
  scores?: number[];
  /** Our addition to comment/get: how many of those comments carry a photo. */
  with_photos_count?: number;
}

/** The orders comment/get takes (our addition); newest is the default. */
export type CommentSort = 'newest' | 'highest' | 'lowest';

export interface Blog {
  id: number;
  /** The writer's rewrite of a published article waiting for review (or rejected): writer and admins only. */
  pending_edit?: {
    status: 'Pending' | 'Rejected';
    register_admin?: { adminRegisterId?: number | null; description?: string };
    create_at: string;
    title: string;
    content?: string;
    summary: string;
    image_url: string;
    tag: string[] | null;
  } | null;
  writer_id?: number | { id?: number; userId?: number; name?: string; profileImage?: string } | null;
  writer?: { id?: number; name?: string; profileImage?: string } | null;
  category_list?: (Named | number)[];
  title: string;
  slug: string;
  content?: string;
  summary?: string;
  image_url?: string;
  tag?: string[] | string | null;
  status?: string;
  release_at?: string;
  create_at?: string;
  update_at?: string;
  register_admin?: { adminRegisterId?: number; description?: string } | null;
  isDraft?: boolean;
  /** Our addition to blog/get: the writer's public business page, absent when there is none. */
  writer_profile?: { id: number; slug: string; profile_name: string; profile_image?: string; mobile?: string };
}

export interface BlogList {
  blogs: Blog[];
  count: number;
}

export interface LoginAnswer {
  token: string;
  id: number | string;
  userTechnical: unknown[] | null;
  isAdmin?: boolean;
}

export interface User {
  id: number;
  numberPhone?: string;
  name: string;
  profileImage?: string;
  isAdmin?: boolean;
}

export interface AppConfig {
  tiles: string;
  base_url?: string;
  moderation?: string;
}

export interface Critic {
  name: string;
  email: string;
  number_phone: string;
  subject: string;
  message: string;
}

/** A profile as its owner sent it (the createProfile/update body), as kept for review. */
export interface ProfileInput {
  profile_name?: string;
  work_history_years?: number;
  descriotion?: string;
  city_id?: number;
  province_id?: number;
  range_worker?: number;
  category_list?: number[] | null;
  location?: { lat: number; long: number } | null;
  area_working?: string[] | null;
  address?: string;
  services?: { title: string; price: number; description: string }[] | null;
  hours_of_work?: Profile['hours_of_work'];
  social_network?: { type: string; link: string }[] | null;
  profile_image?: string;
  logo?: string;
  portfolio_images?: string[] | null;
  option?: string[] | null;
}

export interface PendingProfileEdit {
  status: 'Pending' | 'Rejected';
  register_admin?: { adminRegisterId?: number | null; description?: string };
  create_at: string;
  profile: ProfileInput;
}
