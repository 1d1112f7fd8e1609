/** Pixels of the source image to keep (react-easy-crop's croppedAreaPixels, relative to the rotated image's bounding box). */
export interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.decoding = 'async';
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('image'));
    img.src = src;
  });
}

/** Size of the box that holds a w×h image rotated by `deg` degrees. */
export function rotatedSize(w: number, h: number, deg: number): { width: number; height: number } {
  const r = (deg * Math.PI) / 180;
  const s = Math.abs(Math.sin(r));
  const c = Math.abs(Math.cos(r));
  return { width: w * c + h * s, height: w * s + h * c };
}

/** Output side length: at most `max` on the longer side, never enlarged. */
export function outputSize(area: Area, max: number): { width: number; height: number; scale: number } {
  const scale = Math.min(1, max / Math.max(area.width, area.height));
  return { width: Math.max(1, Math.round(area.width * scale)), height: Math.max(1, Math.round(area.height * scale)), scale };
}

/**
 * Draws the chosen part of the image, rotated, onto a canvas and encodes it as JPEG. JPEG has no
 * transparency, so the background is painted with the given colour first.
 */
export async function cropToJpeg(src: string, area: Area, rotation: number, max = 1600, quality = 0.88, background = 'white'): Promise<Blob> {
  const img = await loadImage(src);
  const box = rotatedSize(img.naturalWidth, img.naturalHeight, rotation);
  const out = outputSize(area, max);
  const canvas = document.createElement('canvas');
  canvas.width = out.width;
  canvas.height = out.height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('canvas');
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.imageSmoothingQuality = 'high';
  ctx.scale(out.scale, out.scale);
  ctx.translate(-area.x, -area.y);
  ctx.translate(box.width / 2, box.height / 2);
  ctx.rotate((rotation * Math.PI) / 180);
  ctx.translate(-img.naturalWidth / 2, -img.naturalHeight / 2);
  ctx.drawImage(img, 0, 0);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('encode'))), 'image/jpeg', quality));
}
