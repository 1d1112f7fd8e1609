/** Requests for a price (leads): the visitor's side and the professional's inbox. */
import { post, put, upload } from './client';
import type { UploadResult } from './desk';
import type { CodeSent } from './index';

export type LeadStatus = 'new' | 'seen' | 'answered' | 'declined' | 'done';

export interface LeadInput {
  user_technical_ids: number[];
  category_id?: number;
  city_id: number;
  lat?: number;
  long?: number;
  what: string;
  when: string;
  photos?: string[];
  /** Signed out only: the visitor's number and the code sent to it, or the pass of verifyLeadCode. */
  numberPhone?: string;
  otpCode?: string;
  leadToken?: string;
}

/** What answering the lead code gives: a pass for that number, good for half an hour. */
export interface LeadPass {
  leadToken: string;
  expire_at: string;
}

/** One professional's side of a request, as the visitor compares them. */
export interface LeadAnswer {
  user_technical_id: number;
  profile_name: string;
  slug: string;
  profile_image: string;
  score: number;
  count_scorer: number;
  /** Metres from the request's point, when both have one. */
  distance: number | null;
  status: LeadStatus;
  price: number | null;
  message: string;
  answer_at: string | null;
  /** The number to call, once they answered. */
  phone: string;
}

export interface VisitorLead {
  id: number;
  category_id: number | null;
  city_id: number;
  what: string;
  when: string;
  photos: string[];
  create_at: string;
  answers: LeadAnswer[];
}

/** A request as the professional sees it; `numberPhone` is empty until they answer. */
export interface OwnerLead {
  id: number;
  user_technical_id: number;
  profile_name: string;
  city_id: number;
  distance: number | null;
  /** The visitor's point as [longitude, latitude], when they put one. */
  location: number[] | null;
  what: string;
  when: string;
  photos: string[];
  create_at: string;
  status: LeadStatus;
  price: number | null;
  message: string;
  answer_at: string | null;
  numberPhone: string;
}

export const sendLeadCode = (numberPhone: string) => post<CodeSent>('/v1/send-sms/sendSmsForLead', { numberPhone });
/** Answers the lead code (used up) for a pass with which a signed-out visitor attaches photos. */
export const verifyLeadCode = (numberPhone: string, otpCode: string) => post<LeadPass>('/v1/lead/verify', { numberPhone, otpCode });
/** Sends a signed-out visitor's photo for their request (at most 2 per pass). */
export function uploadLeadPhoto(numberPhone: string, leadToken: string, file: Blob, name: string) {
  const form = new FormData();
  form.append('numberPhone', numberPhone);
  form.append('leadToken', leadToken);
  form.append('file', file, name);
  return upload<UploadResult>('/v1/lead/upload', form);
}
export const addLead = (body: LeadInput) => post<VisitorLead>('/v1/lead/add', body);
export const getMyLeads = (skip: number, take: number, signal?: AbortSignal) =>
  post<{ leads: VisitorLead[]; count: number }>('/v1/lead/getMine', { skip, take }, { signal });
export const getOwnerLeads = (skip: number, take: number, signal?: AbortSignal) =>
  post<{ leads: OwnerLead[]; count: number; unread: number }>('/v1/lead/getForProfile', { skip, take }, { signal });
export const answerLead = (l: OwnerLead, price: number, message: string) =>
  put<OwnerLead>(`/v1/lead/${l.id}/answer`, { price, message, user_technical_id: l.user_technical_id });
export const setLeadStatus = (l: OwnerLead, status: LeadStatus) =>
  put<OwnerLead>(`/v1/lead/${l.id}/status`, { status, user_technical_id: l.user_technical_id });
