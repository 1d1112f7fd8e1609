import { useEffect, useRef, useState } from 'preact/hooks';
import { Link, useLocation } from 'react-router-dom';
import { Icon } from './Icon';
import { useTranslation } from '../i18n';
import { useLoad } from '../lib/useLoad';
import { getNotifications, markNotificationsRead, type NotificationItem } from '../api/notifications';

/** How often the bell asks again while a page stays open: a new lead should not wait for a reload. */
const POLL_MS = 60_000;

/** Where an item leads: the owner's inbox for leads, the visitor's requests for answers, the Desk otherwise. */
function target(n: NotificationItem): string {
  switch (n.kind) {
    case 'new_lead':
      return '/dashboard/leads';
    case 'lead_answer':
      return '/requests';
    case 'moderation':
      return n.entity === 'blog' ? '/dashboard/blogs' : '/dashboard';
    default:
      return '/dashboard';
  }
}

/** The bell in the header: the unread count, and the newest notifications in a menu. */
export function NotificationBell() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [tick, setTick] = useState(0);
  const ref = useRef<HTMLDivElement>(null);
  const loc = useLocation();
  const list = useLoad((signal) => getNotifications(signal), [tick, loc.pathname], { progress: false });

  useEffect(() => {
    const id = window.setInterval(() => setTick((n) => n + 1), POLL_MS);
    return () => window.clearInterval(id);
  }, []);
  useEffect(() => setOpen(false), [loc.pathname]);
  useEffect(() => {
    if (!open) return;
    const onDoc = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onDoc);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDoc);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const unread = list.data?.unread ?? 0;
  const items = list.data?.notifications ?? [];
  const markRead = async (ids?: number[]) => {
    const ans = await markNotificationsRead(ids).catch(() => undefined);
    if (!ans) return;
    list.mutate((d) => ({
      unread: ans.unread,
      notifications: d.notifications.map((n) => (!ids || ids.includes(n.id) ? { ...n, read: true } : n)),
    }));
  };
  const label = unread > 0 ? t('bell.labelUnread', { count: unread }) : t('bell.label');

  return (
    <div class="account bell" ref={ref}>
      <button
        type="button"
        class="icon-btn bell-btn"
        aria-haspopup="true"
        aria-expanded={open}
        aria-label={label}
        title={label}
        onClick={() => setOpen(!open)}
      >
        <Icon name="bell" />
        {unread > 0 && (
          <span class="bell-count" data-testid="bell-count">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      {open && (
        <div class="account-menu card bell-menu">
          <div class="bell-head">
            <strong>{t('bell.title')}</strong>
            {unread > 0 && (
              <button type="button" class="btn btn-ghost btn-sm" onClick={() => markRead()}>
                {t('bell.readAll')}
              </button>
            )}
          </div>
          {items.length === 0 ? (
            <p class="bell-empty">{t('bell.empty')}</p>
          ) : (
            <ul class="bell-list">
              {items.map((n) => (
                <li key={n.id}>
                  <Link
                    to={target(n)}
                    class={n.read ? 'account-item bell-item' : 'account-item bell-item unread'}
                    onClick={() => !n.read && markRead([n.id])}
                  >
                    <span>
                      {t(`bell.kind.${n.kind}`, { title: n.title, status: n.status ? t(`bell.status.${n.status}`, { defaultValue: n.status }) : '' })}
                      {n.note && <span class="bell-note">{n.note}</span>}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
