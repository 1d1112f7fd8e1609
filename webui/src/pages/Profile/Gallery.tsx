import { useState } from 'preact/hooks';
import { useTranslation } from '../../i18n';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { localDigits } from '../../lib/digits';

export function Gallery({ images, name }: { images: string[]; name: string }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState<number | null>(null);
  const n = images.length;
  const label = (i: number) => t('profile.photoOf', { name, n: localDigits(i + 1, i18n.language), total: localDigits(n, i18n.language) });
  return (
    <>
      <ul class="gallery" role="list">
        {images.map((src, i) => (
          <li key={src + i}>
            <button type="button" class="gallery-item" onClick={() => setOpen(i)} aria-label={label(i)}>
              <img src={src} alt="" loading="lazy" decoding="async" width={300} height={225} />
            </button>
          </li>
        ))}
      </ul>
      <Dialog open={open !== null} onClose={() => setOpen(null)} title={open !== null ? label(open) : ''} class="lightbox">
        {open !== null && (
          <div class="lightbox-body">
            <img src={images[open]} alt={label(open)} />
            {n > 1 && (
              <div class="lightbox-nav">
                <button type="button" class="btn btn-outline" onClick={() => setOpen((open - 1 + n) % n)}>
                  <Icon name="chevron" size={18} class="flip-back" />
                  {t('pager.prev')}
                </button>
                <button type="button" class="btn btn-outline" onClick={() => setOpen((open + 1) % n)}>
                  {t('pager.next')}
                  <Icon name="chevron" size={18} class="flip-rtl" />
                </button>
              </div>
            )}
          </div>
        )}
      </Dialog>
    </>
  );
}
