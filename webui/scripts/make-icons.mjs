// Draws the app icons (the Kardan mark: a pin holding a check on a teal square) as PNG files in
// public/, so no image tool is needed. Run: node scripts/make-icons.mjs
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodePng } from './png.mjs';

const pub = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');
const TEAL = [11, 110, 105];
const WHITE = [255, 255, 255];

function segDist(px, py, ax, ay, bx, by) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}

function inTriangle(px, py, [ax, ay], [bx, by], [cx, cy]) {
  const s = (x1, y1, x2, y2, x3, y3) => (x1 - x3) * (y2 - y3) - (x2 - x3) * (y1 - y3);
  const d1 = s(px, py, ax, ay, bx, by);
  const d2 = s(px, py, bx, by, cx, cy);
  const d3 = s(px, py, cx, cy, ax, ay);
  return !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
}

/** Colour at a point of the 48×48 design; null outside the background. */
function design(x, y, { rounded, scale }) {
  // Shrink the mark toward the centre (maskable icons keep it inside the safe zone).
  const mx = 24 + (x - 24) / scale;
  const my = 24 + (y - 24) / scale;
  if (rounded) {
    const r = 14;
    const qx = Math.max(r - x, x - (48 - r), 0);
    const qy = Math.max(r - y, y - (48 - r), 0);
    if (Math.hypot(qx, qy) > r) return null;
  }
  const check = Math.min(segDist(mx, my, 18.5, 20.5, 22.5, 24.5), segDist(mx, my, 22.5, 24.5, 30, 17));
  if (check < 1.7) return TEAL;
  const inPin = Math.hypot(mx - 24, my - 20.5) < 11.6 || inTriangle(mx, my, [13.6, 25], [34.4, 25], [24, 39.5]);
  return inPin ? WHITE : TEAL;
}

function icon(size, opts) {
  const ss = 4;
  return encodePng(size, size, (px, py) => {
    let r = 0;
    let g = 0;
    let b = 0;
    let a = 0;
    for (let i = 0; i < ss; i++) {
      for (let j = 0; j < ss; j++) {
        const x = ((px + (i + 0.5) / ss) / size) * 48;
        const y = ((py + (j + 0.5) / ss) / size) * 48;
        const c = design(x, y, opts);
        if (!c) continue;
        r += c[0];
        g += c[1];
        b += c[2];
        a += 1;
      }
    }
    if (!a) return [0, 0, 0, 0];
    return [Math.round(r / a), Math.round(g / a), Math.round(b / a), Math.round((255 * a) / (ss * ss))];
  });
}

mkdirSync(join(pub, 'icons'), { recursive: true });
mkdirSync(join(pub, 'images'), { recursive: true });
const out = [
  ['icons/icon-192.png', 192, { rounded: true, scale: 1 }],
  ['icons/icon-512.png', 512, { rounded: true, scale: 1 }],
  ['icons/maskable-512.png', 512, { rounded: false, scale: 0.8 }],
  ['icons/apple-touch-icon.png', 180, { rounded: false, scale: 0.9 }],
  ['images/logo.png', 256, { rounded: true, scale: 1 }],
];
for (const [file, size, opts] of out) {
  writeFileSync(join(pub, file), icon(size, opts));
  console.log(file);
}
