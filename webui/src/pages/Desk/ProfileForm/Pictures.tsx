import { useEffect, useRef, useState } from 'preact/hooks';
import { useTranslation } from '../../../i18n';
import { Icon } from '../../../components/Icon';
import { ImagePicker } from '../../../components/ImagePicker';
import { MAX_UPLOAD, uploadFile } from '../../../api/desk';
import { localDigits } from '../../../lib/digits';
import { move } from '../../../lib/profileForm';
import type { TabProps } from './shared';

const MAX_PORTFOLIO = 30;

interface Upload {
  key: string;
  name: string;
  preview: string;
  progress: number;
  error?: string;
  file: File;
}

let seq = 0;

export default function Pictures({ form, update, err }: TabProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const input = useRef<HTMLInputElement>(null);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const list = form.portfolio_images;

  // The previews still showing when the form closes are released then: a ref, because the
  // cleanup must see the uploads of that moment, not those of the first render.
  const live = useRef(uploads);
  live.current = uploads;
  useEffect(
    () => () => {
      for (const u of live.current) URL.revokeObjectURL(u.preview);
    },
    [],
  );

  const patch = (key: string, p: Partial<Upload>) => setUploads((us) => us.map((u) => (u.key === key ? { ...u, ...p } : u)));

  const send = async (u: Upload) => {
    patch(u.key, { error: undefined, progress: 0 });
    try {
      const r = await uploadFile('userTechnical', u.file, u.name, (p) => patch(u.key, { progress: p }));
      update((f) => ({ ...f, portfolio_images: [...f.portfolio_images, r.address].slice(0, MAX_PORTFOLIO) }), ['portfolio_images']);
      setUploads((us) => us.filter((x) => x.key !== u.key));
      URL.revokeObjectURL(u.preview);
    } catch (e) {
      patch(u.key, { error: (e as Error).message });
    }
  };

  const add = async (files: FileList | null) => {
    if (!files?.length) return;
    const room = MAX_PORTFOLIO - list.length - uploads.length;
    const chosen = Array.from(files).slice(0, Math.max(0, room));
    const fresh: Upload[] = [];
    for (const f of chosen) {
      const u: Upload = { key: `u${++seq}`, name: f.name, preview: URL.createObjectURL(f), progress: 0, file: f };
      if (!f.type.startsWith('image/')) u.error = t('upload.notImage');
      else if (f.size > MAX_UPLOAD) u.error = t('upload.tooLarge', { mb: localDigits(10, lang) });
      fresh.push(u);
    }
    setUploads((us) => [...us, ...fresh]);
    if (input.current) input.current.value = '';
    // Two at a time: enough to keep the line busy without starving a phone.
    const queue = fresh.filter((u) => !u.error);
    const worker = async () => {
      for (let u = queue.shift(); u; u = queue.shift()) await send(u);
    };
    await Promise.all([worker(), worker()]);
  };

  const full = list.length + uploads.length >= MAX_PORTFOLIO;

  return (
    <div class="pf-grid">
      <ImagePicker
        id="pf-profile_image"
        label={t('deskForm.labels.profile_image')}
        value={form.profile_image}
        onChange={(a) => update((f) => ({ ...f, profile_image: a }), ['profile_image'])}
        uploadKey="userTechnical"
        aspect={1}
        round
        shape="round"
        cropTitle={t('crop.titlePicture')}
        hint={t('deskForm.hints.picture')}
        error={err('profile_image')}
      />
      <ImagePicker
        id="pf-logo"
        label={t('deskForm.labels.logo')}
        value={form.logo}
        onChange={(a) => update((f) => ({ ...f, logo: a }), ['logo'])}
        uploadKey="userTechnical"
        aspect={1}
        cropTitle={t('crop.titleLogo')}
        hint={t('deskForm.hints.logo')}
        error={err('logo')}
      />
      <div class="field span-2">
        <span class="field-label" id="pf-portfolio-label">
          {t('deskForm.labels.portfolio_images')}
        </span>
        <span class="field-hint">{t('deskForm.hints.portfolio', { max: localDigits(MAX_PORTFOLIO, lang) })}</span>
        <ul class="gallery-edit" role="list" aria-labelledby="pf-portfolio-label">
          {/* The buttons find their picture by its address (unique, the item's key) in the list
              they update, not by the index it was drawn at: two taps handled before a redraw
              would otherwise act on the picture that moved into that place. */}
          {list.map((a, i) => {
            const n = localDigits(i + 1, lang);
            return (
              <li key={a} class="g-item">
                <img src={a} alt={t('deskForm.pictures.photo', { n })} loading="lazy" />
                <div class="g-tools">
                  <button type="button" class="icon-btn" aria-label={t('deskForm.pictures.earlier', { n })} disabled={i === 0} onClick={() => update((f) => ({ ...f, portfolio_images: move(f.portfolio_images, f.portfolio_images.indexOf(a), -1) }))}>
                    <Icon name="chevron" size={18} class="flip-back" />
                  </button>
                  <button type="button" class="icon-btn" aria-label={t('deskForm.pictures.remove', { n })} onClick={() => update((f) => ({ ...f, portfolio_images: f.portfolio_images.filter((x) => x !== a) }), ['portfolio_images'])}>
                    <Icon name="trash" size={18} />
                  </button>
                  <button type="button" class="icon-btn" aria-label={t('deskForm.pictures.later', { n })} disabled={i === list.length - 1} onClick={() => update((f) => ({ ...f, portfolio_images: move(f.portfolio_images, f.portfolio_images.indexOf(a), 1) }))}>
                    <Icon name="chevron" size={18} class="flip-rtl" />
                  </button>
                </div>
              </li>
            );
          })}
          {uploads.map((u) => (
            <li key={u.key} class={`g-item is-uploading${u.error ? ' has-error' : ''}`}>
              <img src={u.preview} alt="" />
              {u.error ? (
                <div class="g-error" role="alert">
                  <span>{u.error}</span>
                  <div>
                    {u.file.type.startsWith('image/') && u.file.size <= MAX_UPLOAD && (
                      <button type="button" class="btn btn-sm btn-outline" onClick={() => send(u)}>
                        {t('common.tryAgain')}
                      </button>
                    )}
                    <button
                      type="button"
                      class="btn btn-sm btn-ghost"
                      onClick={() => {
                        URL.revokeObjectURL(u.preview);
                        setUploads((us) => us.filter((x) => x.key !== u.key));
                      }}
                    >
                      {t('upload.remove')}
                    </button>
                  </div>
                </div>
              ) : (
                <div class="up-progress" role="progressbar" aria-label={t('upload.uploadingName', { name: u.name })} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(u.progress * 100)}>
                  <span style={{ inlineSize: `${Math.round(u.progress * 100)}%` }} />
                </div>
              )}
            </li>
          ))}
          {!full && (
            <li class="g-add">
              <input ref={input} id="pf-portfolio_images" type="file" multiple accept="image/jpeg,image/png,image/webp,image/gif" class="visually-hidden" onChange={(e) => add((e.target as HTMLInputElement).files)} aria-labelledby="pf-portfolio-label pf-portfolio-add" />
              <button id="pf-portfolio-add" type="button" class="g-add-btn" onClick={() => input.current?.click()} aria-invalid={!!err('portfolio_images')}>
                <Icon name="upload" size={26} />
                <span>{t('deskForm.pictures.add')}</span>
              </button>
            </li>
          )}
        </ul>
        {err('portfolio_images') && <span class="field-error">{err('portfolio_images')}</span>}
      </div>
    </div>
  );
}
