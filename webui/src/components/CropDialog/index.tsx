import { useEffect, useState } from 'preact/hooks';
import Cropper from 'react-easy-crop';
import { useTranslation } from '../../i18n';
import { Dialog } from '../Dialog';
import { Icon } from '../Icon';
import { cropToJpeg, type Area } from '../../lib/cropImage';
import { localDigits } from '../../lib/digits';
import './crop.css';

export interface CropDialogProps {
  open: boolean;
  /** An object URL or address of the picture to crop. */
  src: string | null;
  /** Width / height of the result: 1 for pictures and logos, 16/9 for covers. */
  aspect: number;
  round?: boolean;
  title: string;
  /** Longer side of the result in pixels. */
  maxSize?: number;
  onCancel: () => void;
  onDone: (jpeg: Blob) => void | Promise<void>;
}

const MIN_ZOOM = 1;
const MAX_ZOOM = 4;

/** Crops a picture with zoom and rotation and hands back a JPEG (lazy: react-easy-crop loads with it). */
export default function CropDialog({ open, src, aspect, round, title, maxSize = 1600, onCancel, onDone }: CropDialogProps) {
  const { t, i18n } = useTranslation();
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [rotation, setRotation] = useState(0);
  const [area, setArea] = useState<Area | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  useEffect(() => {
    if (!open) return;
    setCrop({ x: 0, y: 0 });
    setZoom(1);
    setRotation(0);
    setArea(null);
    setError('');
    setBusy(false);
  }, [open, src]);

  const done = async () => {
    if (!src || !area) return;
    setBusy(true);
    setError('');
    try {
      const blob = await cropToJpeg(src, area, rotation, maxSize);
      await onDone(blob);
    } catch (e) {
      setError((e as Error)?.message && (e as Error).message !== 'image' && (e as Error).message !== 'encode' ? (e as Error).message : t('crop.failed'));
    } finally {
      setBusy(false);
    }
  };

  const turn = (deg: number) => setRotation((r) => (((r + deg) % 360) + 360) % 360);
  const pct = (v: number) => localDigits(String(Math.round(v)), i18n.language);

  return (
    <Dialog
      open={open}
      onClose={busy ? () => undefined : onCancel}
      title={title}
      class="crop-dialog"
      actions={
        <>
          <button type="button" class="btn btn-ghost" onClick={onCancel} disabled={busy}>
            {t('common.cancel')}
          </button>
          <button type="button" class="btn btn-primary" onClick={done} disabled={busy || !area}>
            {busy ? <span class="spinner" aria-hidden="true" /> : <Icon name="check" size={18} />}
            {t('crop.use')}
          </button>
        </>
      }
    >
      <div class="crop-area" dir="ltr">
        {src && (
          <Cropper
            image={src}
            crop={crop}
            zoom={zoom}
            rotation={rotation}
            aspect={aspect}
            minZoom={MIN_ZOOM}
            maxZoom={MAX_ZOOM}
            cropShape={round ? 'round' : 'rect'}
            showGrid={!round}
            onCropChange={setCrop}
            onZoomChange={setZoom}
            onRotationChange={setRotation}
            onCropComplete={(_, px) => setArea(px)}
            onMediaLoaded={() => setError('')}
            cropperProps={{ 'aria-label': t('crop.area') } as never}
            mediaProps={{ alt: '', onError: () => setError(t('crop.unreadable')) } as never}
          />
        )}
      </div>
      <p class="small muted crop-hint">{t('crop.hint')}</p>
      <div class="crop-controls">
        <div class="crop-row">
          <label for="crop-zoom">
            {t('crop.zoom')} <span class="muted">{pct(zoom * 100)}
            {i18n.language === 'fa' ? '٪' : '%'}</span>
          </label>
          <div class="crop-slider">
            <button type="button" class="icon-btn" aria-label={t('crop.zoomOut')} onClick={() => setZoom((z) => Math.max(MIN_ZOOM, +(z - 0.2).toFixed(2)))}>
              <Icon name="minus" size={18} />
            </button>
            <input id="crop-zoom" type="range" min={MIN_ZOOM} max={MAX_ZOOM} step={0.05} value={zoom} onInput={(e) => setZoom(Number((e.target as HTMLInputElement).value))} />
            <button type="button" class="icon-btn" aria-label={t('crop.zoomIn')} onClick={() => setZoom((z) => Math.min(MAX_ZOOM, +(z + 0.2).toFixed(2)))}>
              <Icon name="plus" size={18} />
            </button>
          </div>
        </div>
        <div class="crop-row">
          <label for="crop-rotate">
            {t('crop.rotate')} <span class="muted">{pct(rotation)}°</span>
          </label>
          <div class="crop-slider">
            <button type="button" class="icon-btn" aria-label={t('crop.rotateLeft')} onClick={() => turn(-90)}>
              <Icon name="rotateLeft" size={18} />
            </button>
            <input id="crop-rotate" type="range" min={0} max={359} step={1} value={rotation} onInput={(e) => setRotation(Number((e.target as HTMLInputElement).value))} />
            <button type="button" class="icon-btn" aria-label={t('crop.rotateRight')} onClick={() => turn(90)}>
              <Icon name="rotateRight" size={18} />
            </button>
          </div>
        </div>
      </div>
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}
