import { useRef, useState } from 'preact/hooks';
import { MAX_UPLOAD, type UploadResult, uploadFile } from '../api/desk';
import { useTranslation } from '../i18n';
import { localDigits } from '../lib/digits';
import { Icon } from './Icon';

/** How many photos one review may carry (the server's limit). */
export const MAX_REVIEW_PHOTOS = 3;

/**
 * Up to three photos for a review, each uploaded as soon as it is chosen (uploadKey "comment",
 * the server's size, pixel and hourly limits apply) and shown as a thumbnail that can be removed.
 * A request for a price uses it too, with its own `max` (2) and `label`, and signed out its own
 * `upload` (the lead pass's route).
 */
export function ReviewPhotosInput({
  id,
  value,
  onChange,
  max = MAX_REVIEW_PHOTOS,
  label,
  upload = (file, name) => uploadFile('comment', file, name),
}: {
  id: string;
  value: string[];
  onChange: (v: string[]) => void;
  max?: number;
  label?: string;
  upload?: (file: Blob, name: string) => Promise<UploadResult>;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(0);
  const [err, setErr] = useState('');
  const left = max - value.length - busy;

  const pick = async (files: FileList | null) => {
    setErr('');
    const chosen = [...(files ?? [])];
    if (input.current) input.current.value = '';
    if (chosen.length > left) setErr(t('reviewPhotos.tooMany', { max: localDigits(max, lang) }));
    let added = [...value];
    for (const file of chosen.slice(0, Math.max(0, left))) {
      if (!file.type.startsWith('image/')) {
        setErr(t('reviewPhotos.notImage'));
        continue;
      }
      if (file.size > MAX_UPLOAD) {
        setErr(t('reviewPhotos.tooLarge', { mb: localDigits(10, lang) }));
        continue;
      }
      setBusy((n) => n + 1);
      try {
        const r = await upload(file, file.name || 'photo.jpg');
        added = [...added, r.address];
        onChange(added);
      } catch (e) {
        setErr((e as Error).message);
      } finally {
        setBusy((n) => n - 1);
      }
    }
  };

  return (
    <div class="field review-photos">
      <span class="field-label" id={`${id}-label`}>
        {label ?? t('reviewPhotos.label', { max: localDigits(max, lang) })}
      </span>
      <ul class="review-photos-list" role="list" aria-labelledby={`${id}-label`}>
        {value.map((src, i) => (
          <li key={src}>
            <img src={src} alt={t('reviewPhotos.photoN', { n: localDigits(i + 1, lang) })} width={72} height={72} />
            <button
              type="button"
              class="icon-btn review-photo-remove"
              aria-label={t('reviewPhotos.remove', { n: localDigits(i + 1, lang) })}
              onClick={() => onChange(value.filter((x) => x !== src))}
            >
              <Icon name="close" size={16} />
            </button>
          </li>
        ))}
        {busy > 0 && (
          <li class="review-photo-busy" role="status">
            <span class="spinner" aria-hidden="true" />
            <span class="visually-hidden">{t('reviewPhotos.uploading')}</span>
          </li>
        )}
      </ul>
      {left > 0 && (
        <label class="btn btn-outline btn-sm review-photos-add">
          <Icon name="camera" size={16} />
          {t('reviewPhotos.add')}
          <input
            ref={input}
            id={`${id}-photos`}
            type="file"
            accept="image/*"
            multiple
            class="visually-hidden"
            onChange={(e) => pick((e.target as HTMLInputElement).files)}
          />
        </label>
      )}
      {err && (
        <span class="field-error" role="alert">
          {err}
        </span>
      )}
    </div>
  );
}
