/** The bell: the signed-in user's notifications and which of them also come by SMS. */
import { get, put } from './client';

export type NotificationKind = 'new_review' | 'review_reply' | 'moderation' | 'new_lead' | 'lead_answer';

export interface NotificationItem {
  id: number;
  kind: NotificationKind;
  entity: string;
  entity_id: number;
  title: string;
  status: string;
  note: string;
  create_at: string;
  read: boolean;
}

export interface NotificationList {
  notifications: NotificationItem[];
  unread: number;
}

export interface SmsPrefs {
  sms: Record<'new_lead' | 'moderation', boolean>;
  per_day: number;
}

export const getNotifications = (signal?: AbortSignal) => get<NotificationList>('/v1/notification/list?take=20', { signal });
/** Marks the given notifications read, or all of them without ids; answers the unread count left. */
export const markNotificationsRead = (ids?: number[]) => put<{ unread: number }>('/v1/notification/read', ids ? { ids } : {});
export const getSmsPrefs = (signal?: AbortSignal) => get<SmsPrefs>('/v1/notification/sms', { signal });
export const setSmsPref = (kind: 'new_lead' | 'moderation', enabled: boolean) => put<SmsPrefs>('/v1/notification/sms', { kind, enabled });
