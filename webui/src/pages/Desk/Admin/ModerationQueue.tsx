import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { useTranslation } from '../../../i18n';
import { Icon } from '../../../components/Icon';
import { Pager } from '../../../components/Pager';
import { EmptyState, Loaded } from '../../../components/StateViews';
import { skipFor, TAKE } from '../../../lib/paging';
import { useLoad } from '../../../lib/useLoad';
import { ActionDialog, type PendingAction } from './ActionDialog';

/** One page of a queue and the number of items in its status. */
export interface QueuePage<T> {
  items: T[];
  count: number;
}

/** What an item's card can do to the queue. */
export interface QueueControl<T> {
  /** The status the queue shows (the chosen filter). */
  status: string;
  /** Asks for confirmation and a note in the action dialog, then runs the action. */
  ask: (action: PendingAction) => void;
  /** Changes the items shown in place (an item moved out of this status, or changed). */
  patch: (fn: (items: T[]) => T[]) => void;
  /** Loads the page again. */
  reload: () => void;
}

export interface ModerationQueueProps<T> {
  /** Reads one page of the items in a status ('' when the queue has no filters). */
  load: (status: string, skip: number, take: number, signal: AbortSignal) => Promise<QueuePage<T>>;
  /** The status chips, in order; none for a plain list. */
  filters?: { value: string; label: string }[];
  /** The status shown when the address names none. */
  defaultStatus?: string;
  keyOf: (item: T) => number | string;
  /** The inside of an item's card: its text, its badges and its action buttons. */
  renderItem: (item: T, q: QueueControl<T>) => ComponentChildren;
  /** Extra classes of an item's card (an unread message, a deleted profile). */
  itemClass?: (item: T) => string;
  /** A line above the list, given the number of items in the status. */
  summary?: (count: number) => ComponentChildren;
  empty: { icon: string; title?: string };
}

/**
 * A list of items waiting for an admin, with status chips, paging and a confirm-with-note dialog:
 * the profiles, articles and comments queues, the inbox and the full profile list are all this
 * component with their own cards. The status and the page live in the address (?status=&page=), so
 * a reload or a shared link shows the same page. A new queue (reports, leads) gives a loader, its
 * statuses and a card; the moves themselves stay in the card, which knows what the item allows.
 */
export function ModerationQueue<T>({ load, filters = [], defaultStatus = '', keyOf, renderItem, itemClass, summary, empty }: ModerationQueueProps<T>) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const { pathname } = useLocation();
  const status = params.get('status') ?? defaultStatus;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = useLoad((signal) => load(status, skipFor(page), TAKE, signal), [status, page], { clearOnChange: true });
  const [action, setAction] = useState<PendingAction | null>(null);

  const control: QueueControl<T> = {
    status,
    ask: setAction,
    patch: (fn) => list.mutate((d) => ({ ...d, items: fn(d.items) })),
    reload: list.reload,
  };
  const href = (n: number) => {
    const q = new URLSearchParams();
    if (status !== defaultStatus) q.set('status', status);
    if (n > 1) q.set('page', String(n));
    const s = q.toString();
    return `${pathname}${s ? `?${s}` : ''}`;
  };

  return (
    <div>
      {filters.length > 0 && (
        <div class="filters" role="group" aria-label={t('deskAdmin.filterStatus')}>
          {filters.map((f) => (
            <button key={f.value} type="button" class="filter-chip" aria-pressed={status === f.value} onClick={() => setParams(f.value === defaultStatus ? {} : { status: f.value })}>
              {f.label}
            </button>
          ))}
        </div>
      )}
      <Loaded load={list} isEmpty={(d) => d.items.length === 0} empty={<EmptyState icon={empty.icon} title={empty.title} />}>
        {(d) => (
          <>
            {summary?.(d.count)}
            <ul class="item-list" role="list">
              {d.items.map((item) => {
                const extra = itemClass?.(item);
                return (
                  <li key={keyOf(item)} class={`card item-card${extra ? ` ${extra}` : ''}`}>
                    {renderItem(item, control)}
                  </li>
                );
              })}
            </ul>
            <Pager page={page} count={d.count} href={href} />
          </>
        )}
      </Loaded>
      <ActionDialog action={action} onClose={() => setAction(null)} />
    </div>
  );
}

/** The public page of an item, from its card. */
export function ViewLink({ to }: { to: string }) {
  const { t } = useTranslation();
  return (
    <Link to={to} class="btn btn-ghost btn-sm">
      <Icon name="eye" size={16} />
      {t('desk.view')}
    </Link>
  );
}

/** A moderation move's button: accepting is the main action, the others are warnings. */
export function MoveButton({ to, unblock, onClick }: { to: string; unblock?: boolean; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <button type="button" class={`btn btn-sm ${to === 'Accepted' ? 'btn-primary' : 'btn-outline danger-text'}`} onClick={onClick}>
      <Icon name={to === 'Accepted' ? 'check' : to === 'Blocked' ? 'lock' : 'close'} size={16} />
      {t(`deskAdmin.do.${to === 'Accepted' && unblock ? 'Unblock' : to}`)}
    </button>
  );
}
