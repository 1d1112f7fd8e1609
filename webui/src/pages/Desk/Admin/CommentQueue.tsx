import { useTranslation } from '../../../i18n';
import { Icon } from '../../../components/Icon';
import { Stars } from '../../../components/Stars';
import { adminComments, setCommentStatus, type AdminComment } from '../../../api/desk';
import { formatDate } from '../../../lib/format';
import { toast } from '../../../state/toast';
import { StatusBadge } from '../StatusBadge';
import { ModerationQueue, type QueueControl } from './ModerationQueue';
import { Gallery } from '../../Profile/Gallery';

const STATUSES = ['Visible', 'Hidden'];

function profileOf(c: AdminComment): { name?: string; slug?: string } | null {
  return c.user_technical ? { name: c.user_technical.profile_name, slug: c.user_technical.slug } : null;
}

export default function CommentQueue() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;

  const ask = (q: QueueControl<AdminComment>, c: AdminComment, to: 'Hidden' | 'Visible') =>
    q.ask({
      title: t(to === 'Hidden' ? 'deskAdmin.hideTitle' : 'deskAdmin.showTitle'),
      subject: c.description,
      confirm: t(to === 'Hidden' ? 'deskAdmin.do.Hide' : 'deskAdmin.do.Show'),
      danger: to === 'Hidden',
      noteHint: t(to === 'Hidden' ? 'deskAdmin.noteHide' : 'deskAdmin.noteAccept'),
      run: async (note) => {
        await setCommentStatus(c.id, to, note);
        toast(t('deskAdmin.done'), 'success');
        q.patch((items) => items.filter((x) => x.id !== c.id));
      },
    });

  return (
    <ModerationQueue<AdminComment>
      load={(s, skip, take) => adminComments(s, skip, take).then((r) => ({ items: r.comments, count: r.count }))}
      filters={STATUSES.map((s) => ({ value: s, label: t(`desk.status.${s}`) }))}
      defaultStatus="Visible"
      keyOf={(c) => c.id}
      empty={{ icon: 'comment', title: t('deskAdmin.emptyQueue') }}
      renderItem={(c, q) => {
        const s = c.status ?? q.status;
        const p = profileOf(c);
        return (
          <div class="item-body">
            <div class="item-meta">
              <StatusBadge status={s} />
              {c.score ? <Stars score={c.score} bare /> : null}
              {c.user?.name && <span dir="auto">{c.user.name}</span>}
              {c.create_at && <span>{formatDate(c.create_at, lang)}</span>}
            </div>
            <p class="item-text" dir="auto">
              {c.description}
            </p>
            {(c.images ?? []).length > 0 && <Gallery images={c.images ?? []} name={c.user?.name ?? ''} small />}
            {p?.name && (
              <p class="small muted">
                {t('deskAdmin.onProfile')}{' '}
                {p.slug ? (
                  <a href={`/profile/${encodeURIComponent(p.slug)}`} dir="auto">
                    {p.name}
                  </a>
                ) : (
                  <span dir="auto">{p.name}</span>
                )}
              </p>
            )}
            <div class="item-actions">
              {s === 'Hidden' ? (
                <button type="button" class="btn btn-sm btn-primary" onClick={() => ask(q, c, 'Visible')}>
                  <Icon name="eye" size={16} />
                  {t('deskAdmin.do.Show')}
                </button>
              ) : (
                <button type="button" class="btn btn-sm btn-outline danger-text" onClick={() => ask(q, c, 'Hidden')}>
                  <Icon name="close" size={16} />
                  {t('deskAdmin.do.Hide')}
                </button>
              )}
            </div>
          </div>
        );
      }}
    />
  );
}
