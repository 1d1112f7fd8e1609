import { useState } from 'preact/hooks';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/Icon';
import { Pager } from '../../../components/Pager';
import { EmptyState, ErrorState, Loading } from '../../../components/StateViews';
import { getCritics, setCriticRead, type CriticItem } from '../../../api/desk';
import { formatDate } from '../../../lib/format';
import { toast } from '../../../state/toast';
import { useList } from './useList';

/** Critics and suggestions sent through the contact form, with read flags. */
export default function Inbox() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const list = useList<CriticItem>((_s, skip, take) => getCritics(skip, take).then((r) => ({ items: r.critics, count: r.count })), '');
  const [busy, setBusy] = useState(0);

  const mark = async (c: CriticItem, read: boolean) => {
    setBusy(c.id);
    list.patch((items) => items.map((x) => (x.id === c.id ? { ...x, read } : x)));
    try {
      await setCriticRead(c.id, read);
    } catch (e) {
      list.patch((items) => items.map((x) => (x.id === c.id ? { ...x, read: !read } : x)));
      toast((e as Error).message, 'error');
    } finally {
      setBusy(0);
    }
  };

  if (list.error) return <ErrorState message={list.error} onRetry={list.reload} />;
  if (!list.data) return <Loading />;
  if (!list.data.items.length) return <EmptyState icon="inbox" title={t('deskAdmin.inboxEmpty')} />;
  const unread = list.data.items.filter((c) => !c.read).length;
  return (
    <div>
      <p class="small muted">{t('deskAdmin.inboxIntro', { n: unread.toLocaleString(lang === 'fa' ? 'fa-IR' : 'en-US') })}</p>
      <ul class="item-list" role="list">
        {list.data.items.map((c) => (
          <li key={c.id} class={`card item-card critic${c.read ? '' : ' unread'}`}>
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
                <button type="button" class="btn btn-sm btn-outline" aria-pressed={!!c.read} onClick={() => mark(c, !c.read)} disabled={busy === c.id}>
                  <Icon name={c.read ? 'mail' : 'check'} size={16} />
                  {t(c.read ? 'deskAdmin.markUnread' : 'deskAdmin.markRead')}
                </button>
              </div>
            </div>
          </li>
        ))}
      </ul>
      <Pager page={list.page} count={list.data.count} href={(n) => list.href(n)} />
    </div>
  );
}
