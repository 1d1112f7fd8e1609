import { lazy, Suspense } from 'preact/compat';
import './forms.css';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useTranslation } from '../i18n';
import { Icon } from './Icon';
import { MAX_UPLOAD, uploadFile, type UploadKey } from '../api/desk';
import { localDigits } from '../lib/digits';

const CropDialog = lazy(() => import('./CropDialog'));

interface Props {
  id: string;
  label: string;
  value: string;
  onChange: (address: string) => void;
  uploadKey: UploadKey;
  aspect: number;
  round?: boolean;
  cropTitle: string;
  hint?: string;
  error?: string;
  /** Shape of the preview: a square tile or a wide cover. */
  shape?: 'square' | 'round' | 'wide';
}

/** Choose a picture → crop it (zoom, rotate) in a lazy dialog → upload it as JPEG with progress. */
export function ImagePicker({ id, label, value, onChange, uploadKey, aspect, round, cropTitle, hint, error, shape = 'square' }: Props) {
  const { t, i18n } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [src, setSrc] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [err, setErr] = useState('');

  useEffect(() => () => {
    if (src) URL.revokeObjectURL(src);
  }, [src]);

  const pick = (file: File | undefined) => {
    if (!file) return;
    setErr('');
    if (!file.type.startsWith('image/')) return setErr(t('upload.notImage'));
    if (file.size > MAX_UPLOAD) return setErr(t('upload.tooLarge', { mb: localDigits(10, i18n.language) }));
    setSrc(URL.createObjectURL(file));
  };

  const close = () => {
    setSrc(null);
    if (input.current) input.current.value = '';
  };

  const send = async (jpeg: Blob) => {
    setProgress(0);
    try {
      const r = await uploadFile(uploadKey, jpeg, `${id}.jpg`, setProgress);
      onChange(r.address);
      close();
    } finally {
      setProgress(null);
    }
  };

  const shownError = err || error;
  return (
    <div class="field image-field">
      <span class="field-label" id={`${id}-label`}>
        {label}
      </span>
      <div class={`image-pick image-pick-${shape}`}>
        <div class="image-preview">
          {value ? <img src={value} alt={t('upload.current', { name: label })} loading="lazy" /> : <Icon name="image" size={32} />}
          {progress !== null && (
            <div class="image-progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(progress * 100)} aria-label={t('upload.uploading')}>
              <span style={{ inlineSize: `${Math.round(progress * 100)}%` }} />
            </div>
          )}
        </div>
        <div class="image-actions">
          <input
            ref={input}
            id={id}
            type="file"
            accept="image/jpeg,image/png,image/webp,image/gif"
            class="visually-hidden"
            aria-labelledby={`${id}-label ${id}-btn`}
            onChange={(e) => pick((e.target as HTMLInputElement).files?.[0])}
          />
          <button id={`${id}-btn`} type="button" class="btn btn-outline btn-sm" onClick={() => input.current?.click()} disabled={progress !== null}>
            <Icon name="upload" size={18} />
            {value ? t('upload.change') : t('upload.choose')}
          </button>
          {value && (
            <button type="button" class="btn btn-ghost btn-sm" onClick={() => onChange('')} disabled={progress !== null}>
              <Icon name="trash" size={18} />
              {t('upload.remove')}
            </button>
          )}
          {hint && <span class="field-hint">{hint}</span>}
        </div>
      </div>
      {shownError && (
        <span class="field-error" role="alert">
          {shownError}
        </span>
      )}
      {src && (
        <Suspense fallback={null}>
          <CropDialog open={!!src} src={src} aspect={aspect} round={round} title={cropTitle} onCancel={close} onDone={send} />
        </Suspense>
      )}
    </div>
  );
}
