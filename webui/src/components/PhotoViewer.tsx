import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useTranslation } from '../i18n';
import { localDigits } from '../lib/digits';
import { Icon } from './Icon';
import './photo-viewer.css';

const SWIPE_PX = 50;
const MAX_SCALE = 4;

interface Pointer {
  x: number;
  y: number;
}

/**
 * A full-screen photo viewer: swipe or the arrow keys for the next photo (in reading order, so
 * in Persian the next one is to the left), pinch, double-tap or +/− to zoom and drag to pan,
 * Escape, the close button or the phone's Back to close. It is a modal <dialog>: the page behind
 * is inert, so focus stays inside.
 */
export function PhotoViewer({
  images,
  index,
  onIndex,
  onClose,
  label,
}: {
  images: string[];
  /** The photo shown; null: closed. */
  index: number | null;
  onIndex: (i: number) => void;
  onClose: () => void;
  label: (i: number) => string;
}) {
  const { t, i18n } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const open = index !== null;
  const n = images.length;
  const [scale, setScale] = useState(1);
  const [shift, setShift] = useState({ x: 0, y: 0 });
  const [drag, setDrag] = useState(0);
  const pointers = useRef(new Map<number, Pointer>());
  const gesture = useRef<{ start: Pointer; shift: Pointer; dist: number; scale: number; lastTap: number }>({
    start: { x: 0, y: 0 },
    shift: { x: 0, y: 0 },
    dist: 0,
    scale: 1,
    lastTap: 0,
  });
  const pushed = useRef(false);
  const rtl = () => document.documentElement.dir === 'rtl';

  const reset = useCallback(() => {
    setScale(1);
    setShift({ x: 0, y: 0 });
    setDrag(0);
  }, []);
  const go = useCallback(
    (step: number) => {
      if (index === null || n < 2) return;
      reset();
      onIndex((index + step + n) % n);
    },
    [index, n, onIndex, reset],
  );
  // Closing by the button or Escape goes back past the history entry opening pushed; Back itself
  // (popstate) only closes.
  const close = useCallback(() => {
    if (pushed.current) {
      pushed.current = false;
      history.back();
    }
    onClose();
  }, [onClose]);

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      d.showModal();
      reset();
      history.pushState({ ...(history.state ?? {}), photoViewer: true }, '');
      pushed.current = true;
    }
    if (!open && d.open) d.close();
  }, [open, reset]);

  useEffect(() => {
    if (!open) return;
    const onPop = () => {
      if (!pushed.current) return;
      pushed.current = false;
      onClose();
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [open, onClose]);

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    const onCancel = (e: Event) => {
      e.preventDefault();
      close();
    };
    d.addEventListener('cancel', onCancel);
    return () => d.removeEventListener('cancel', onCancel);
  }, [close]);

  // Leaving the page with the viewer open must not leave its history entry behind to trap Back.
  useEffect(
    () => () => {
      if (pushed.current) {
        pushed.current = false;
        history.back();
      }
    },
    [],
  );

  const zoom = (to: number) => {
    const s = Math.min(MAX_SCALE, Math.max(1, to));
    setScale(s);
    if (s === 1) setShift({ x: 0, y: 0 });
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const next = rtl() ? 'ArrowLeft' : 'ArrowRight';
    const prev = rtl() ? 'ArrowRight' : 'ArrowLeft';
    if (e.key === next) go(1);
    else if (e.key === prev) go(-1);
    else if (e.key === '+' || e.key === '=') zoom(scale * 1.5);
    else if (e.key === '-') zoom(scale / 1.5);
    else return;
    e.preventDefault();
  };

  const onPointerDown = (e: PointerEvent) => {
    if ((e.target as Element).closest('button')) return;
    (e.currentTarget as Element).setPointerCapture?.(e.pointerId);
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const g = gesture.current;
    const ps = [...pointers.current.values()];
    if (ps.length === 1) {
      g.start = { x: e.clientX, y: e.clientY };
      g.shift = shift;
    } else if (ps.length === 2) {
      g.dist = Math.hypot(ps[0].x - ps[1].x, ps[0].y - ps[1].y);
      g.scale = scale;
      setDrag(0);
    }
  };
  const onPointerMove = (e: PointerEvent) => {
    if (!pointers.current.has(e.pointerId)) return;
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const g = gesture.current;
    const ps = [...pointers.current.values()];
    if (ps.length === 2 && g.dist > 0) {
      zoom((g.scale * Math.hypot(ps[0].x - ps[1].x, ps[0].y - ps[1].y)) / g.dist);
    } else if (ps.length === 1) {
      const dx = e.clientX - g.start.x;
      const dy = e.clientY - g.start.y;
      if (scale > 1) setShift({ x: g.shift.x + dx, y: g.shift.y + dy });
      else setDrag(dx);
    }
  };
  const onPointerUp = (e: PointerEvent) => {
    if (!pointers.current.has(e.pointerId)) return;
    const was = pointers.current.size;
    pointers.current.delete(e.pointerId);
    const g = gesture.current;
    if (was !== 1) return;
    const dx = e.clientX - g.start.x;
    const dy = e.clientY - g.start.y;
    if (scale === 1 && Math.abs(dx) > SWIPE_PX && Math.abs(dx) > Math.abs(dy)) {
      // The finger drags the photo: pulling it toward the reading direction's end brings the next.
      go((dx < 0) !== rtl() ? 1 : -1);
      return;
    }
    setDrag(0);
    if (Math.abs(dx) < 8 && Math.abs(dy) < 8) {
      const now = Date.now();
      if (now - g.lastTap < 300) {
        zoom(scale > 1 ? 1 : 2.5);
        g.lastTap = 0;
      } else g.lastTap = now;
    }
  };

  const lang = i18n.language;
  return (
    <dialog
      ref={ref}
      class="viewer"
      aria-label={open ? label(index) : ''}
      aria-roledescription={t('viewer.role')}
      onKeyDown={onKeyDown}
    >
      {open && (
        <>
          <div class="viewer-bar">
            <span class="viewer-count" aria-live="polite">
              {localDigits(index + 1, lang)} / {localDigits(n, lang)}
            </span>
            <div class="viewer-tools">
              <button type="button" class="viewer-btn" onClick={() => zoom(scale > 1 ? 1 : 2.5)} aria-label={t(scale > 1 ? 'viewer.zoomOut' : 'viewer.zoomIn')}>
                <Icon name={scale > 1 ? 'minus' : 'plus'} size={22} />
              </button>
              <button type="button" class="viewer-btn viewer-close" onClick={close} aria-label={t('common.close')}>
                <Icon name="close" size={24} />
              </button>
            </div>
          </div>
          <div
            class="viewer-stage"
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={onPointerUp}
          >
            <img
              key={images[index]}
              class="viewer-img"
              src={images[index]}
              alt={label(index)}
              draggable={false}
              style={{
                transform: `translate(${shift.x + drag}px, ${shift.y}px) scale(${scale})`,
                transition: drag || pointers.current.size ? 'none' : undefined,
              }}
            />
          </div>
          {n > 1 && (
            <>
              <button type="button" class="viewer-btn viewer-prev" onClick={() => go(-1)} aria-label={t('viewer.prev')}>
                <Icon name="chevron" size={28} class="flip-back" />
              </button>
              <button type="button" class="viewer-btn viewer-next" onClick={() => go(1)} aria-label={t('viewer.next')}>
                <Icon name="chevron" size={28} class="flip-rtl" />
              </button>
            </>
          )}
        </>
      )}
    </dialog>
  );
}
