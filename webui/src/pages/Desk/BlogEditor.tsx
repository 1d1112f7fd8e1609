import { useEffect, useMemo, useState } from 'preact/hooks';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from '../../i18n';
import { Icon } from '../../components/Icon';
import { FormField } from '../../components/FormField';
import { TreePicker } from '../../components/TreePicker';
import { ChipsInput } from '../../components/ChipsInput';
import { ImagePicker } from '../../components/ImagePicker';
import { JalaliDatePicker } from '../../components/JalaliDatePicker';
import { RichTextEditor } from '../../components/RichTextEditor';
import { ErrorState, Loading } from '../../components/StateViews';
import { blogTags } from '../../components/BlogCard';
import { getCategoryTree, type Blog } from '../../api';
import { addBlog, editBlog, getMyBlog, getMyProfiles, MAX_UPLOAD, uploadFile, type BlogPayload } from '../../api/desk';
import { clearDraft, draftKey, draftWriter, loadDraft } from '../../lib/draft';
import { jalaliOf, jalaliToDate, minutesOf, type JDate } from '../../lib/jalali';
import { mapServerErrors } from '../../lib/serverErrors';
import { htmlText } from '../../lib/richText';
import { formatDate } from '../../lib/format';
import { formatClock, quarterHourChoices } from '../../lib/hours';
import { localDigits } from '../../lib/digits';
import { useLoad } from '../../lib/useLoad';
import { useAuth } from '../../state/auth';
import { toast } from '../../state/toast';
import { StatusBadge } from './StatusBadge';
import { blogStatus } from './MyBlogs';
import { useDesk } from './context';
import './blog-editor.css';

interface BlogForm {
  title: string;
  summary: string;
  content: string;
  categories: number[];
  tags: string[];
  image_url: string;
  release: JDate | null;
  /** Minutes after midnight, Tehran time. */
  minutes: number;
}

const FIELDS = ['title', 'slug', 'content', 'summary', 'image_url', 'tag', 'category_list', 'release_at'];
export const MAX_TITLE = 150;
export const MAX_SUMMARY = 300;
export const MIN_TITLE = 3;

// A new article is released now by default (the minute it was opened, so an article accepted at
// once shows at once); the select steps by quarter hours only for the times a writer picks.
function nowForm(): BlogForm {
  const now = new Date();
  return { title: '', summary: '', content: '', categories: [], tags: [], image_url: '', release: jalaliOf(now), minutes: minutesOf(now) };
}

/** The editor's form of b; a rewrite waiting for review is what the writer goes on from. */
function fromBlog(b: Blog): BlogForm {
  const at = b.release_at ? new Date(b.release_at) : null;
  const ok = at && !Number.isNaN(at.getTime());
  const e = b.pending_edit;
  if (e) {
    return { ...fromBlog({ ...b, pending_edit: null }), title: e.title, summary: e.summary ?? '', content: e.content ?? '', tags: e.tag ?? [], image_url: e.image_url ?? '' };
  }
  return {
    title: b.title ?? '',
    summary: b.summary ?? '',
    content: b.content ?? '',
    categories: (b.category_list ?? []).map((c) => (typeof c === 'number' ? c : c.id)).filter((x) => Number.isFinite(x)),
    tags: blogTags(b),
    image_url: b.image_url ?? '',
    release: ok ? jalaliOf(at!) : null,
    minutes: ok ? minutesOf(at!) : 540,
  };
}

function body(f: BlogForm, isDraft: boolean): BlogPayload {
  return {
    title: f.title.trim(),
    summary: f.summary.trim(),
    content: f.content,
    category_list: f.categories,
    tag: f.tags,
    image_url: f.image_url,
    release_at: f.release ? jalaliToDate(f.release, f.minutes).toISOString().replace('.000Z', 'Z') : new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    isDraft,
  };
}

export default function BlogEditor() {
  const { id } = useParams();
  const bid = id && /^\d+$/.test(id) ? Number(id) : null;
  const isNew = !id;
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const auth = useAuth();
  const navigate = useNavigate();
  const key = draftKey(auth.userId, 'blog', bid);
  const writer = useMemo(() => draftWriter<BlogForm>(key), [key]);
  const [form, setForm] = useState<BlogForm | null>(null);
  const [saved, setSaved] = useState('');
  // The article (null for a new one): the form starts from it, with a draft kept on this device laid over it.
  const loaded = useLoad<Blog | null>(
    () => (isNew ? Promise.resolve(null) : bid ? getMyBlog(bid) : Promise.reject(new Error(t('errors.itemNotFound')))),
    [bid, isNew],
    { initial: () => (isNew ? null : undefined), clearOnChange: true },
  );
  const blog = loaded.data ?? null;
  const tree = useLoad(() => getCategoryTree().then((x) => x ?? []), [], { progress: false });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState<'' | 'draft' | 'submit'>('');
  const [restoredAt, setRestoredAt] = useState<number | null>(null);
  // Experts write in their fields: a writer (not an admin) may file articles only under the fields of their accepted pages.
  const desk = useDesk();
  const mine = useLoad(() => getMyProfiles(auth.userId!), [auth.userId], { enabled: !desk.admin && !!auth.userId, progress: false });
  const myFields = useMemo(
    () =>
      mine.data
        ? [...new Set(mine.data.profiles.filter((p) => p.account_status === 'Accepted' && !p.delete_at && p.range_worker).map((p) => p.range_worker!.id))]
        : null,
    [mine.data],
  );

  useEffect(() => {
    if (loaded.data === undefined) return;
    const base = loaded.data ? fromBlog(loaded.data) : nowForm();
    const d = loadDraft<BlogForm>(key);
    setSaved(JSON.stringify(base));
    if (d && JSON.stringify({ ...base, ...d.data }) !== JSON.stringify(base)) {
      setForm({ ...base, ...d.data });
      setRestoredAt(d.at);
    } else {
      setForm(base);
      setRestoredAt(null);
    }
  }, [loaded.data, key]);

  const dirty = !!form && JSON.stringify(form) !== saved;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the writer and the draft key are made once per article; the draft follows the form
  useEffect(() => {
    if (!form) return;
    if (dirty) writer.write(form);
    else {
      writer.cancel();
      clearDraft(key);
    }
  }, [form, dirty]);
  useEffect(() => () => writer.flush(), [writer]);

  const set = <K extends keyof BlogForm>(k: K, v: BlogForm[K], field: string = k) => {
    setForm((f) => (f ? { ...f, [k]: v } : f));
    if (errors[field]) setErrors(({ [field]: _, ...rest }) => rest);
  };

  const uploadImage = async (file: File, onProgress: (f: number) => void) => {
    if (!file.type.startsWith('image/')) throw new Error(t('upload.notImage'));
    if (file.size > MAX_UPLOAD) throw new Error(t('upload.tooLarge', { mb: localDigits(10, lang) }));
    return (await uploadFile('userTechnical', file, file.name, onProgress)).address;
  };

  const save = async (isDraft: boolean) => {
    if (!form) return;
    const e: Record<string, string> = {};
    if (!form.title.trim()) e.title = t('errors.enter', { des: t('deskBlog.labels.title') });
    else if ([...form.title.trim()].length < MIN_TITLE) e.title = t('deskBlog.titleShort', { n: localDigits(MIN_TITLE, lang) });
    if (!isDraft) {
      if (!htmlText(form.content).trim() && !/<img/.test(form.content)) e.content = t('errors.enter', { des: t('deskBlog.labels.content') });
      if (!form.release) e.release_at = t('errors.enter', { des: t('deskBlog.labels.release') });
      if (!form.categories.length) e.category_list = t('errors.enter', { des: t('deskBlog.labels.categories') });
    }
    setErrors(e);
    setFormError(null);
    if (Object.keys(e).length) {
      setTimeout(() => document.querySelector<HTMLElement>('.blog-editor [aria-invalid="true"]')?.focus(), 30);
      return;
    }
    setSaving(isDraft ? 'draft' : 'submit');
    try {
      const b = body(form, isDraft);
      if (isNew) await addBlog(b);
      else await editBlog({ ...b, id: bid! });
      writer.cancel();
      clearDraft(key);
      setSaved(JSON.stringify(form));
      toast(t(isDraft ? 'deskBlog.savedDraft' : 'deskBlog.submitted'), 'success');
      navigate('/dashboard/blogs');
    } catch (err) {
      const m = mapServerErrors(err, FIELDS, { statusFields: { 403: 'category_list' } });
      setErrors(m.fields);
      setFormError(m.form);
      setTimeout(() => document.querySelector<HTMLElement>('.blog-editor [aria-invalid="true"], .blog-editor .form-error')?.focus(), 30);
    } finally {
      setSaving('');
    }
  };

  if (loaded.status === 'error') return <ErrorState message={loaded.error?.message} onRetry={loaded.reload} />;
  if (!form || loaded.data === undefined) return <Loading />;

  const status = blog ? blogStatus(blog) : null;
  const quarterHours = quarterHourChoices(form.minutes);

  return (
    <section class="blog-editor" aria-labelledby="be-title">
      <header class="desk-head">
        <div>
          <Link to="/dashboard/blogs" class="back-link">
            <Icon name="chevron" size={16} class="flip-back" />
            {t('deskBlog.title')}
          </Link>
          <h1 id="be-title">{isNew ? t('deskBlog.newTitle') : t('deskBlog.editTitle')}</h1>
        </div>
        {status && <StatusBadge status={status} />}
      </header>
      {restoredAt && (
        <div class="notice notice-info" role="status">
          <Icon name="draft" size={20} />
          <p>{t('deskForm.restored', { time: formatDate(restoredAt, lang, true) })}</p>
          <button
            type="button"
            class="btn btn-ghost btn-sm"
            onClick={() => {
              writer.cancel();
              clearDraft(key);
              setRestoredAt(null);
              setForm(blog ? fromBlog(blog) : nowForm());
            }}
          >
            {t('deskForm.discardDraft')}
          </button>
        </div>
      )}
      {blog?.pending_edit && (
        <div class={`notice ${blog.pending_edit.status === 'Rejected' ? 'notice-bad' : 'notice-info'}`} role="status" data-testid="pending-edit">
          <Icon name={blog.pending_edit.status === 'Rejected' ? 'alert' : 'clock'} size={20} />
          <div>
            <p>
              {blog.pending_edit.status === 'Rejected'
                ? t('deskBlog.editRejected', { date: formatDate(blog.pending_edit.create_at, lang) })
                : t('deskBlog.editPending', { date: formatDate(blog.pending_edit.create_at, lang) })}
            </p>
            <p dir="auto" class="small">
              {t('deskBlog.waitingTitle')}: {blog.pending_edit.title}
            </p>
            {blog.pending_edit.register_admin?.description && (
              <p dir="auto">
                <strong>{t('desk.adminNote')}: </strong>
                {blog.pending_edit.register_admin.description}
              </p>
            )}
          </div>
        </div>
      )}
      {blog?.register_admin?.description && (status === 'Rejected' || status === 'Blocked') && (
        <div class="notice notice-bad">
          <Icon name="alert" size={20} />
          <p dir="auto">
            <strong>{t('desk.adminNote')}: </strong>
            {blog.register_admin.description}
          </p>
        </div>
      )}
      {formError && (
        <p class="form-error" role="alert" tabIndex={-1}>
          {formError}
        </p>
      )}
      <div class="be-layout">
        <div class="card card-pad be-main">
          <FormField id="be-title-input" label={t('deskBlog.labels.title')} value={form.title} onInput={(v) => set('title', v)} error={errors.title} maxLength={MAX_TITLE} required />
          <FormField
            id="be-summary"
            label={t('deskBlog.labels.summary')}
            value={form.summary}
            onInput={(v) => set('summary', v)}
            error={errors.summary}
            textarea
            rows={3}
            maxLength={MAX_SUMMARY}
            counter
            hint={t('deskBlog.hints.summary')}
          />
          <RichTextEditor
            id="be-content"
            label={t('deskBlog.labels.content')}
            value={form.content}
            onChange={(v) => set('content', v)}
            uploadImage={uploadImage}
            error={errors.content}
            placeholder={t('deskBlog.hints.content')}
          />
        </div>
        <aside class="be-side">
          <div class="card card-pad">
            <h2 class="be-side-title">{t('deskBlog.publishing')}</h2>
            <JalaliDatePicker id="be-release" label={t('deskBlog.labels.release')} value={form.release} onChange={(d) => set('release', d, 'release_at')} error={errors.release_at} hint={t('deskBlog.hints.release')} />
            <div class="field">
              <label for="be-time">{t('deskBlog.labels.time')}</label>
              <select id="be-time" class="select" value={form.minutes} onChange={(e) => set('minutes', Number((e.target as HTMLSelectElement).value), 'release_at')}>
                {quarterHours.map((m) => (
                  <option key={m} value={m}>
                    {localDigits(formatClock(m * 60), lang)}
                  </option>
                ))}
              </select>
            </div>
            <div class="be-buttons">
              <button type="button" class="btn btn-primary btn-block" onClick={() => save(false)} disabled={!!saving}>
                {saving === 'submit' ? <span class="spinner" aria-hidden="true" /> : <Icon name="send" size={18} />}
                {t('deskBlog.submit')}
              </button>
              <button type="button" class="btn btn-outline btn-block" onClick={() => save(true)} disabled={!!saving}>
                {saving === 'draft' ? <span class="spinner" aria-hidden="true" /> : <Icon name="draft" size={18} />}
                {t('deskBlog.saveDraft')}
              </button>
              <p class="small muted">{t('deskBlog.reviewNote')}</p>
              {dirty && (
                <p class="small muted">
                  <Icon name="draft" size={14} class="inline-icon" /> {t('deskForm.unsaved')}
                </p>
              )}
            </div>
          </div>
          <div class="card card-pad">
            <ImagePicker
              id="be-cover"
              label={t('deskBlog.labels.cover')}
              value={form.image_url}
              onChange={(a) => set('image_url', a)}
              uploadKey="userTechnical"
              aspect={16 / 9}
              shape="wide"
              cropTitle={t('crop.titleCover')}
              error={errors.image_url}
            />
            <TreePicker
              id="be-categories"
              label={t('deskBlog.labels.categories')}
              mode="any"
              max={5}
              tree={tree.data ?? null}
              loadError={tree.error?.message ?? ''}
              value={{ field: null, categories: form.categories }}
              onChange={(v) => set('categories', v.categories, 'category_list')}
              error={errors.category_list}
              onlyFields={myFields}
              hint={myFields ? t(myFields.length ? 'deskBlog.hints.fields' : 'deskBlog.hints.noFields') : undefined}
            />
            <ChipsInput
              id="be-tags"
              label={t('deskBlog.labels.tags')}
              values={form.tags}
              onChange={(v) => set('tags', v, 'tag')}
              placeholder={t('deskBlog.hints.tagPlaceholder')}
              hint={t('deskBlog.hints.tags')}
              error={errors.tag}
              max={10}
              maxLength={40}
            />
          </div>
        </aside>
      </div>
    </section>
  );
}
