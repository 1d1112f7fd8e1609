/** The verified badge and claiming: the owner's and the claimant's calls, and the admins'. */
import { get, post, put } from './client';
import type { CodeSent } from './index';
import type { ProfilePayload } from './desk';
import type { Profile } from './types';

export type VerifyStatus = 'none' | 'sent' | 'confirmed' | 'verified';

/** A profile's verification as its owner and admins see it. */
export interface Verification {
  user_technical_id: number;
  profile_name: string;
  slug: string;
  status: VerifyStatus;
  numberPhone: string;
  create_at: string | null;
  confirm_at: string | null;
  verified_at: string | null;
}

export type ClaimStatus = 'Pending' | 'Accepted' | 'Rejected';

export interface Claim {
  id: number;
  user_technical_id: number;
  profile_name: string;
  slug: string;
  user_id: number;
  user_name: string;
  /** The claimant's sign-in number: admins only. */
  numberPhone: string;
  /** The listed number the claimant proved (masked for the claimant). */
  phone: string;
  description: string;
  status: ClaimStatus;
  register_admin?: { description?: string };
  create_at: string;
}

export const getVerification = (id: number) => get<Verification>(`/v1/user-technical/${id}/verification`);
export const confirmVerification = (id: number, otpCode: string) =>
  post<Verification>(`/v1/user-technical/${id}/verification/confirm`, { otpCode });
export const startVerification = (id: number, numberPhone?: string) =>
  post<CodeSent>(`/v1/admin/user-technical/${id}/verification/start`, numberPhone ? { numberPhone } : {});
export const setVerified = (id: number, verified: boolean, description: string) =>
  put<Profile>(`/v1/admin/user-technical/${id}/verification`, { verified, description });
export const adminVerifications = async () => (await get<{ verifications: Verification[]; count: number }>('/v1/admin/verification')) ?? { verifications: [], count: 0 };

export const createListing = (body: ProfilePayload) => post<Profile>('/v1/admin/user-technical/createListing', body);
export const sendClaimCode = (id: number) => post<CodeSent>('/v1/send-sms/sendSmsForClaim', { user_technical_id: id });
export const addClaim = (id: number, otpCode: string, description: string) =>
  post<Claim>('/v1/claim/add', { user_technical_id: id, otpCode, description });
export const myClaims = async () => (await get<{ claims: Claim[]; count: number }>('/v1/claim/mine')) ?? { claims: [], count: 0 };
export const adminClaims = async (status: string) =>
  (await get<{ claims: Claim[]; count: number }>(`/v1/admin/claim?status=${encodeURIComponent(status)}`)) ?? { claims: [], count: 0 };
export const decideClaim = (id: number, status: 'Accepted' | 'Rejected', description: string) =>
  put<Claim>(`/v1/admin/claim/${id}/status`, { status, description });
