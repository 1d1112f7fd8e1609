import { useState } from 'preact/hooks';
import { Link, useLocation } from 'react-router-dom';
import { useTranslation } from '../../i18n';
import { ReportDialog } from '../../components/dialogs';
import { addComment, editComment, getComments, getMyComments, replyComment, ApiError, type CommentItem, type CommentSort, type Profile } from '../../api';
import { useLoad } from '../../lib/useLoad';
import { useAuth } from '../../state/auth';
import { toast } from '../../state/toast';
import { Stars } from '../../components/Stars';
import { Icon } from '../../components/Icon';
import { ErrorState } from '../../components/StateViews';
import { formatDate, formatNumber } from '../../lib/format';
import { pageCount, skipFor, TAKE } from '../../lib/paging';
import { localDigits } from '../../lib/digits';
import { ReviewPhotosInput } from '../../components/ReviewPhotosInput';
import { Gallery } from './Gallery';

/** A review as the form sends it. */
type ReviewValue = { score: number; description: string; images: string[] };

/**
 * Five radio stars in the reading order: the first star (on the right in Persian, the left in
 * English) is 1, and the chosen ones fill from that side, as every displayed rating does.
 */
function ScoreInput({ value, onChange, id, error }: { value: number; onChange: (n: number) => void; id: string; error?: string }) {
  const { t, i18n } = useTranslation();
  return (
    <fieldset class="score-input" id={id} aria-describedby={error ? `${id}-score-error` : undefined}>
      <legend class="field-label">{t('comments.score')}</legend>
      <div class="score-stars">
        {[1, 2, 3, 4, 5].map((n) => (
          <label key={n} class={n <= value ? 'on' : ''} title={t('comments.scoreN', { n: localDigits(n, i18n.language) })}>
            <input type="radio" name={`${id}-score`} value={n} checked={value === n} onChange={() => onChange(n)} />
            <Icon name="star" size={30} />
            <span class="visually-hidden">{t('comments.scoreN', { n: localDigits(n, i18n.language) })}</span>
          </label>
        ))}
      </div>
      {error && (
        <p class="field-error" id={`${id}-score-error`} role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

function CommentForm({
  initial,
  onSubmit,
  onCancel,
  submitLabel,
  cancelLabel,
}: {
  initial?: { score: number; description: string; images?: string[] };
  onSubmit: (v: ReviewValue) => Promise<void>;
  onCancel?: () => void;
  submitLabel: string;
  cancelLabel?: string;
}) {
  const { t } = useTranslation();
  const [score, setScore] = useState(initial?.score ?? 0);
  const [text, setText] = useState(initial?.description ?? '');
  const [images, setImages] = useState<string[]>(initial?.images ?? []);
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<{ score?: string; text?: string; form?: string }>({});
  const id = initial ? 'edit-comment' : 'new-comment';
  const submit = async (e: Event) => {
    e.preventDefault();
    const next: typeof err = {};
    if (score < 1 || score > 5) next.score = t('errors.enter', { des: t('comments.scoreWord') });
    if (!text.trim()) next.text = t('errors.enter', { des: t('comments.textWord') });
    setErr(next);
    if (next.score || next.text) return;
    setBusy(true);
    try {
      await onSubmit({ score, description: text.trim(), images });
    } catch (x) {
      setErr({ form: (x as Error).message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="comment-form" onSubmit={submit} noValidate>
      <ScoreInput
        value={score}
        onChange={(n) => {
          setScore(n);
          setErr((e) => ({ ...e, score: undefined }));
        }}
        id={id}
        error={err.score}
      />
      <div class="field">
        <label for={`${id}-text`}>{t('comments.text')}</label>
        <textarea
          id={`${id}-text`}
          class="textarea"
          value={text}
          maxLength={1000}
          aria-invalid={!!err.text}
          placeholder={t('comments.placeholder')}
          onInput={(e) => {
            setText((e.target as HTMLTextAreaElement).value);
            if (err.text) setErr((x) => ({ ...x, text: undefined }));
          }}
        />
        {err.text && <span class="field-error">{err.text}</span>}
      </div>
      <ReviewPhotosInput id={id} value={images} onChange={setImages} />
      {err.form && (
        <p class="form-error" role="alert">
          {err.form}
        </p>
      )}
      <div class="form-actions">
        <button type="submit" class="btn btn-primary" disabled={busy}>
          {busy && <span class="spinner" aria-hidden="true" />}
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" class="btn btn-ghost" onClick={onCancel}>
            {cancelLabel ?? t('common.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}

/** The profile owner's answer to one comment: a new reply, or the existing one to change. */
function ReplyForm({ comment, onSaved, onCancel }: { comment: CommentItem; onSaved: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(comment.reply?.description ?? '');
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState('');
  const id = `reply-${comment.id}`;
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!text.trim()) {
      setErr(t('errors.enter', { des: t('comments.replyWord') }));
      return;
    }
    setErr('');
    setBusy(true);
    try {
      await replyComment({ id: comment.id, description: text.trim() });
      onSaved();
    } catch (x) {
      // The server's own words, in the page's language (a length refusal names the field).
      setErr((x instanceof ApiError && x.fields.description) || (x as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="comment-form reply-form" onSubmit={submit} noValidate>
      <div class="field">
        <label for={`${id}-text`}>{t('comments.replyText')}</label>
        <textarea
          id={`${id}-text`}
          class="textarea"
          value={text}
          maxLength={1000}
          aria-invalid={!!err}
          aria-describedby={err ? `${id}-error` : undefined}
          placeholder={t('comments.replyPlaceholder')}
          onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        />
        {err && (
          <span class="field-error" id={`${id}-error`} role="alert">
            {err}
          </span>
        )}
      </div>
      <div class="form-actions">
        <button type="submit" class="btn btn-primary" disabled={busy}>
          {busy && <span class="spinner" aria-hidden="true" />}
          {t('comments.replySend')}
        </button>
        <button type="button" class="btn btn-ghost" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}

function Avatar({ name, src }: { name: string; src?: string }) {
  if (src) return <img class="c-avatar" src={src} alt="" width={40} height={40} loading="lazy" />;
  return (
    <span class="c-avatar c-initial" aria-hidden="true">
      {[...(name || '?')][0]}
    </span>
  );
}

/** The share of each score, 5★ down to 1★: each bar a button keeping that score's comments. */
function Histogram({ scores, chosen, onChoose }: { scores: number[]; chosen: number; onChoose: (n: number) => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const total = scores.reduce((a, b) => a + b, 0);
  return (
    <ul class="histogram" role="list" aria-label={t('comments.histogram')}>
      {[5, 4, 3, 2, 1].map((n) => {
        const c = scores[n - 1] ?? 0;
        return (
          <li key={n}>
            <button
              type="button"
              class={`hist-row${chosen === n ? ' on' : ''}`}
              aria-pressed={chosen === n}
              disabled={c === 0 && chosen !== n}
              data-score={n}
              onClick={() => onChoose(chosen === n ? 0 : n)}
              aria-label={t('comments.histRow', { n: localDigits(n, lang), count: c, c: formatNumber(c, lang) })}
            >
              <span class="hist-n" aria-hidden="true">
                {localDigits(n, lang)}
                <Icon name="star" size={14} />
              </span>
              <span class="hist-bar" aria-hidden="true">
                <span style={{ inlineSize: `${total ? (c / total) * 100 : 0}%` }} />
              </span>
              <span class="hist-c small muted" aria-hidden="true">
                {formatNumber(c, lang)}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** The mean of a histogram, rounded to a tenth as the server rounds a profile's score. */
function meanOf(scores: number[]): { score: number; count: number } {
  const count = scores.reduce((a, b) => a + b, 0);
  const sum = scores.reduce((a, b, i) => a + b * (i + 1), 0);
  return { score: count ? Math.round((sum / count) * 10) / 10 : 0, count };
}

export function Comments({ profile, onScored }: { profile: Profile; onScored?: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const auth = useAuth();
  const loc = useLocation();
  const [page, setPage] = useState(1);
  const [score, setScore] = useState(0);
  const [sort, setSort] = useState<CommentSort>('newest');
  const [withPhotos, setWithPhotos] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const [editingMine, setEditingMine] = useState(false);
  const [replying, setReplying] = useState<number | null>(null);
  const [reporting, setReporting] = useState<CommentItem | null>(null);
  // A review refused because one exists already (another tab, another device): the text typed
  // stays in the form, which then offers to replace the earlier review with it.
  const [conflict, setConflict] = useState<{ earlier: CommentItem | null } | null>(null);
  const categories = (profile.category_list ?? []).map((c) => c.id);
  const list = useLoad(
    () =>
      getComments({
        category: profile.range_worker?.id,
        user_technical_id: profile.id,
        skip: skipFor(page),
        take: TAKE,
        score,
        sort,
        // Sent only when on, so a server without the filter answers the plain list.
        ...(withPhotos ? { with_photos: true } : {}),
      }),
    [profile.id, page, score, sort, withPhotos],
  );
  const isOwner = auth.userId !== null && profile.user_id?.userId === auth.userId;
  // The signed-in reader's own review, wherever the list's order or filter puts it.
  const myLoad = useLoad(
    () =>
      getMyComments({ category: profile.range_worker?.id, user_technical_id: profile.id, skip: 0, take: 1 }).then(
        (r) => r?.comment ?? r?.comments?.[0] ?? null,
      ),
    [profile.id, auth.userId],
    { enabled: auth.loggedIn && !isOwner, progress: false },
  );
  const comments: CommentItem[] = list.data?.comments ?? [];
  const count = list.data?.count ?? 0;
  const scores = list.data?.scores;
  const photoCount = list.data?.with_photos_count ?? 0;
  const listed = comments.find((c) => auth.userId !== null && c.user?.id === auth.userId);
  const mine = myLoad.data ?? listed ?? null;
  const summary = scores ? meanOf(scores) : { score: profile.score ?? 0, count: profile.count_scorer ?? 0 };

  const changed = () => {
    list.reload();
    myLoad.reload();
    onScored?.();
  };

  const add = async (v: ReviewValue) => {
    try {
      await addComment({ category_list: categories, description: v.description, score: v.score, user_technical_id: profile.id, images: v.images });
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) {
        const earlier = await getMyComments({ category: profile.range_worker?.id, user_technical_id: profile.id, skip: 0, take: 1 })
          .then((r) => r?.comment ?? r?.comments?.[0] ?? null)
          .catch(() => null);
        setConflict({ earlier });
        list.reload();
      }
      throw e;
    }
    toast(t('comments.thanks'), 'success');
    changed();
  };

  const edit = async (c: CommentItem, v: ReviewValue) => {
    await editComment({ category_list: categories, description: v.description, score: v.score, id: c.id, images: v.images });
    toast(t('comments.updated'), 'success');
    setEditing(null);
    setEditingMine(false);
    changed();
  };

  const earlier = conflict ? (conflict.earlier ?? mine ?? null) : null;
  const replace = async (v: ReviewValue) => {
    await edit(earlier!, v);
    setConflict(null);
  };
  const keepEarlier = () => {
    setConflict(null);
    myLoad.reload();
  };

  const replied = () => {
    toast(t('comments.replySaved'), 'success');
    setReplying(null);
    list.reload();
  };

  const total = pageCount(count);
  const chooseScore = (n: number) => {
    setScore(n);
    setPage(1);
  };

  return (
    <section class="card card-pad p-section" aria-labelledby="comments-title" id="comments">
      <div class="section-head">
        <h2 id="comments-title">
          {t('comments.title')}
          {summary.count > 0 && <span class="muted small"> ({formatNumber(summary.count, lang)})</span>}
        </h2>
        <span id="comments-summary">
          <Stars score={summary.score} count={summary.count} />
        </span>
      </div>

      {scores && summary.count > 0 && <Histogram scores={scores} chosen={score} onChoose={chooseScore} />}

      {!auth.loggedIn ? (
        <p class="notice">
          <Icon name="info" size={18} />
          <span>{t('comments.loginFirst')}</span>
          <Link to={`/login?next=${encodeURIComponent(`${loc.pathname}#comments`)}`} class="btn btn-primary btn-sm">
            <Icon name="login" size={16} />
            {t('nav.login')}
          </Link>
        </p>
      ) : isOwner ? (
        <p class="notice">
          <Icon name="info" size={18} />
          <span>{t('comments.ownProfile')}</span>
        </p>
      ) : mine && editingMine && !conflict ? (
        <CommentForm
          key={`mine-${mine.id}`}
          initial={{ score: mine.score, description: mine.description }}
          onSubmit={(v) => edit(mine, v)}
          onCancel={() => setEditingMine(false)}
          submitLabel={t('common.save')}
        />
      ) : mine && !conflict ? (
        <div class="notice" id="my-comment-notice">
          <Icon name="check" size={18} />
          <span>{t('comments.already', { score: localDigits(mine.score, lang) })}</span>
          <button type="button" class="btn btn-outline btn-sm" onClick={() => setEditingMine(true)}>
            <Icon name="edit" size={16} />
            {t('comments.editMine')}
          </button>
        </div>
      ) : myLoad.status === 'loading' && !conflict ? null : (
        <>
          {earlier && (
            <p class="notice" id="comment-conflict">
              <Icon name="info" size={18} />
              <span>{t('comments.conflict')}</span>
            </p>
          )}
          <CommentForm
            key="new"
            onSubmit={earlier ? replace : add}
            submitLabel={earlier ? t('comments.replaceMine') : t('comments.submit')}
            onCancel={earlier ? keepEarlier : undefined}
            cancelLabel={t('comments.keepMine')}
          />
        </>
      )}

      {(summary.count > 1 || score > 0 || withPhotos) && (
        <div class="comment-tools">
          <label for="comment-sort" class="small">
            {t('comments.sort')}
          </label>
          <select
            id="comment-sort"
            class="select"
            value={sort}
            onChange={(e) => {
              setSort((e.target as HTMLSelectElement).value as CommentSort);
              setPage(1);
            }}
          >
            <option value="newest">{t('comments.sortNewest')}</option>
            <option value="highest">{t('comments.sortHighest')}</option>
            <option value="lowest">{t('comments.sortLowest')}</option>
          </select>
          {score > 0 && (
            <button type="button" class="chip" onClick={() => chooseScore(0)} id="comment-score-clear">
              {t('comments.onlyScore', { n: localDigits(score, lang) })}
              <Icon name="close" size={14} />
              <span class="visually-hidden">{t('comments.showAll')}</span>
            </button>
          )}
          {/* Offered only when it keeps some reviews and drops others; once on, it stays to be
              turned off. */}
          {(withPhotos || (photoCount > 0 && photoCount < summary.count)) && (
            <button
              type="button"
              class="chip filter-toggle"
              id="comment-with-photos"
              aria-pressed={withPhotos}
              title={t('comments.withPhotosLabel')}
              onClick={() => {
                setWithPhotos(!withPhotos);
                setPage(1);
              }}
            >
              <Icon name="image" size={14} />
              {t('comments.withPhotos', { c: formatNumber(photoCount, lang) })}
            </button>
          )}
        </div>
      )}

      {list.status === 'error' ? (
        <ErrorState message={list.error?.message} onRetry={list.reload} />
      ) : list.status === 'success' && comments.length === 0 ? (
        <p class="muted">{withPhotos ? t('comments.noneWithPhotos') : score > 0 ? t('comments.noneWithScore') : t('comments.none')}</p>
      ) : (
        <ul class="comment-list" role="list">
          {comments.map((c) => (
            <li key={c.id} class="comment" data-score={c.score}>
              <div class="comment-head">
                <Avatar name={c.user?.name ?? ''} src={c.user?.profileImage} />
                <div>
                  <strong dir="auto">{c.user?.name || t('comments.anonymous')}</strong>
                  <div class="small muted">{formatDate(c.create_at, lang)}</div>
                </div>
                <Stars score={c.score} size={14} bare />
              </div>
              {editing === c.id ? (
                <CommentForm
                  initial={{ score: c.score, description: c.description, images: c.images }}
                  onSubmit={(v) => edit(c, v)}
                  onCancel={() => setEditing(null)}
                  submitLabel={t('common.save')}
                />
              ) : (
                <>
                  <p class="comment-text" dir="auto">
                    {c.description}
                  </p>
                  {(c.images ?? []).length > 0 && (
                    <Gallery images={c.images ?? []} name={c.user?.name || t('comments.anonymous')} small />
                  )}
                </>
              )}
              {isOwner && replying === c.id ? (
                <ReplyForm comment={c} onSaved={replied} onCancel={() => setReplying(null)} />
              ) : (
                c.reply && (
                  <div class="comment-reply">
                    <strong class="small">{t('comments.reply')}</strong>
                    <p dir="auto">{c.reply.description}</p>
                    <span class="small muted">{formatDate(c.reply.create_at, lang)}</span>
                  </div>
                )
              )}
              {isOwner && replying !== c.id && (
                <button type="button" class="btn btn-ghost btn-sm" onClick={() => setReplying(c.id)}>
                  <Icon name={c.reply ? 'edit' : 'comment'} size={16} />
                  {c.reply ? t('comments.editReply') : t('comments.replyAction')}
                </button>
              )}
              {mine?.id !== c.id && (
                <button type="button" class="btn btn-ghost btn-sm report-comment" onPointerEnter={ReportDialog.warm} onFocus={ReportDialog.warm} onClick={() => setReporting(c)}>
                  <Icon name="alert" size={16} />
                  {t('report.action')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}

      {total > 1 && (
        <nav class="pager" aria-label={t('pager.label')}>
          <button type="button" class="btn btn-outline btn-sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {t('pager.prev')}
          </button>
          <span aria-current="page">
            {formatNumber(page, lang)} / {formatNumber(total, lang)}
          </span>
          <button type="button" class="btn btn-outline btn-sm" disabled={page >= total} onClick={() => setPage(page + 1)}>
            {t('pager.next')}
          </button>
        </nav>
      )}
      {reporting && <ReportDialog open onClose={() => setReporting(null)} entity="comment" id={reporting.id} subject={reporting.description} />}
    </section>
  );
}
