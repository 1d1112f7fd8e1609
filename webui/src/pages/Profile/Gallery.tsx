import './pictures.css';
import { useState } from 'preact/hooks';
import { useTranslation } from '../../i18n';
import { PhotoViewer } from '../../components/PhotoViewer';
import { localDigits } from '../../lib/digits';

/** A grid of photos that open full-screen. `thumbs` (same order) are shown in the grid when given. */
export function Gallery({ images, name, thumbs, small }: { images: string[]; name: string; thumbs?: string[]; small?: boolean }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState<number | null>(null);
  const n = images.length;
  const label = (i: number) => t('profile.photoOf', { name, n: localDigits(i + 1, i18n.language), total: localDigits(n, i18n.language) });
  return (
    <>
      <ul class={`gallery ${small ? 'gallery-small' : ''}`} role="list">
        {images.map((src, i) => (
          <li key={src + i}>
            <button type="button" class="gallery-item" onClick={() => setOpen(i)} aria-label={label(i)} aria-haspopup="dialog">
              <img src={thumbs?.[i] || src} alt="" loading="lazy" decoding="async" width={small ? 96 : 300} height={small ? 96 : 225} />
            </button>
          </li>
        ))}
      </ul>
      <PhotoViewer images={images} index={open} onIndex={setOpen} onClose={() => setOpen(null)} label={label} />
    </>
  );
}
