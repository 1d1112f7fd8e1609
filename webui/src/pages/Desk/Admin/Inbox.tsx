import { useState } from 'preact/hooks';
import { useTranslation } from '../../../i18n';
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
  const list = useList<CriticItem>((s, skip, take) => getCritics(skip, take, s === 'unread' ? false : undefined).then((r) => ({ items: r.critics, count: r.count })), 'all');
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

  const filters = (
    <div class="filters" role="group" aria-label={t('deskAdmin.filterStatus')}>
      {['all', 'unread'].map((s) => (
        <button key={s} type="button" class="filter-chip" aria-pressed={list.status === s} onClick={() => list.setStatus(s)}>
          {t(`deskAdmin.inboxFilter.${s}`)}
        </button>
      ))}
    </div>
  );
  if (list.error) return <ErrorState message={list.error} onRetry={list.reload} />;
  if (!list.data) return <Loading />;
  if (!list.data.items.length)
    return (
      <div>
        {filters}
        <EmptyState icon="inbox" title={t('deskAdmin.inboxEmpty')} />
      </div>
    );
  return (
    <div>
      {filters}
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
