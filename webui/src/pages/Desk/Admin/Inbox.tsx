import { useState } from 'preact/hooks';
import { useTranslation } from '../../../i18n';
import { Icon } from '../../../components/Icon';
import { getCritics, setCriticRead, type CriticItem } from '../../../api/desk';
import { formatDate } from '../../../lib/format';
import { toast } from '../../../state/toast';
import { ModerationQueue, type QueueControl } from './ModerationQueue';

/** Critics and suggestions sent through the contact form, with read flags. */
export default function Inbox() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [busy, setBusy] = useState(0);

  const mark = async (q: QueueControl<CriticItem>, c: CriticItem, read: boolean) => {
    setBusy(c.id);
    q.patch((items) => items.map((x) => (x.id === c.id ? { ...x, read } : x)));
    try {
      await setCriticRead(c.id, read);
    } catch (e) {
      q.patch((items) => items.map((x) => (x.id === c.id ? { ...x, read: !read } : x)));
      toast((e as Error).message, 'error');
    } finally {
      setBusy(0);
    }
  };

  return (
    <ModerationQueue<CriticItem>
      load={(s, skip, take) => getCritics(skip, take, s === 'unread' ? false : undefined).then((r) => ({ items: r.critics, count: r.count }))}
      filters={['all', 'unread'].map((s) => ({ value: s, label: t(`deskAdmin.inboxFilter.${s}`) }))}
      defaultStatus="all"
      keyOf={(c) => c.id}
      itemClass={(c) => `critic${c.read ? '' : ' unread'}`}
      empty={{ icon: 'inbox', title: t('deskAdmin.inboxEmpty') }}
      renderItem={(c, q) => (
        <>
          <span class="critic-dot" aria-hidden="true" />
          <div class="item-body">
            <h3 dir="auto">
              {!c.read && <span class="visually-hidden">{t('deskAdmin.unread')}: </span>}
              {c.subject}
            </h3>
            <div class="item-meta">
              <span dir="auto">{c.name}</span>
              {c.email && (
                <a href={`mailto:${c.email}`} dir="ltr">
                  {c.email}
                </a>
              )}
              {c.number_phone && (
                <a href={`tel:${c.number_phone}`} dir="ltr">
                  {c.number_phone}
                </a>
              )}
              {c.create_at && <span>{formatDate(c.create_at, lang, true)}</span>}
            </div>
            <p class="item-text pre" dir="auto">
              {c.message}
            </p>
            <div class="item-actions">
              <button type="button" class="btn btn-sm btn-outline" aria-pressed={!!c.read} onClick={() => mark(q, c, !c.read)} disabled={busy === c.id}>
                <Icon name={c.read ? 'mail' : 'check'} size={16} />
                {t(c.read ? 'deskAdmin.markUnread' : 'deskAdmin.markRead')}
              </button>
            </div>
          </div>
        </>
      )}
    />
  );
}
