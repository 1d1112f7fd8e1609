// Screenshots of the main screens in fa/light and en/dark, on a phone (390×844) and a desktop
// (1366×768), written to docs/screenshots/. Uses Debian's Chromium through playwright-core.
//
//   node e2e/screenshots.mjs                      # builds nothing: serves dist with `vite preview` and the mock API
//   node e2e/screenshots.mjs --base http://127.0.0.1:8080   # a running `kardan serve`
//   node e2e/screenshots.mjs --api http://127.0.0.1:8080          # dist via `vite preview`, API of a running server
//   node e2e/screenshots.mjs --only home,profile --out /tmp/shots --full
//   node e2e/screenshots.mjs --set desk         # only the Desk (signed in as the mock's owner and admin)
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodePng } from '../scripts/png.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const webui = resolve(here, '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const flag = (name) => args.includes(`--${name}`);

const outDir = resolve(opt('out', join(webui, '..', 'docs', 'screenshots')));
const only = opt('only', '')
  .split(',')
  .filter(Boolean);
const variants = opt('variants', 'fa-light,en-dark').split(',');
const sizes = opt('sizes', 'phone,desktop').split(',');

export const SCREENS = [
  { name: 'home', path: '/' },
  { name: 'search', path: '/search/iran' },
  { name: 'map', path: '/map', wait: '.leaflet-marker-icon' },
  { name: 'profile', path: '/profile/omid-plumbing' },
  { name: 'share', path: '/profile/omid-plumbing', click: '.share-btn' },
  { name: 'blog', path: '/blog' },
  { name: 'blog-post', path: '/blog/hidden-leak-signs' },
  { name: 'contact', path: '/contact' },
  { name: 'about', path: '/about' },
  { name: 'terms', path: '/terms' },
  { name: 'login', path: '/login' },
  { name: 'register', path: '/register' },
  { name: 'not-found', path: '/no-such-page' },
  { name: 'menu', path: '/', click: '.menu-btn', phoneOnly: true },
];
const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1366, height: 768 } };
const set = opt('set', 'all');

// A picture to crop: a warm sky over hills, drawn here so the run needs no files.
const photo = join(mkdtempSync(join(tmpdir(), 'kardan-shots-')), 'photo.png');
writeFileSync(
  photo,
  encodePng(960, 640, (x, y) => {
    const hill = y > 420 + 60 * Math.sin(x / 110) ? 1 : 0;
    const sun = (x - 650) ** 2 + (y - 230) ** 2 < 70 ** 2;
    if (sun) return [255, 214, 120, 255];
    if (hill) return [40 + (y - 420) / 6, 110 - (y - 420) / 8, 90, 255];
    return [250 - y / 4, 170 - y / 8, 120 + y / 6, 255];
  }),
);

/** Scrolls so the profile form's stage tabs sit under the header, then waits for the map if any. */
async function toTabs(page) {
  await page.evaluate(() => {
    const el = document.getElementById('pf-tabs');
    if (el) window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 72);
  });
}

/** The Desk, signed in as the mock API's user 1 (an owner and an admin). */
export const DESK_SCREENS = [
  { name: 'desk-profiles', path: '/dashboard' },
  { name: 'form-basics', path: '/dashboard/profiles/1', run: toTabs },
  ...['place', 'services', 'hours', 'contact', 'pictures'].map((tab) => ({
    name: `form-${tab}`,
    path: '/dashboard/profiles/1',
    run: async (page) => {
      await page.click(`#pf-tab-${tab}`);
      if (tab === 'place') await page.waitForSelector('.pin-map .leaflet-marker-icon', { timeout: 10000 }).catch(() => undefined);
      await page.waitForTimeout(300);
      await toTabs(page);
    },
  })),
  {
    name: 'crop',
    path: '/dashboard/profiles/1',
    run: async (page) => {
      await page.click('#pf-tab-pictures');
      await page.setInputFiles('#pf-logo', photo);
      await page.waitForSelector('.crop-dialog .reactEasyCrop_Image, .crop-dialog img', { timeout: 10000 });
      await page.fill('#crop-zoom', '1.6');
      await page.fill('#crop-rotate', '12');
      await page.waitForTimeout(400);
    },
  },
  { name: 'blog-editor', path: '/dashboard/blogs/11' },
  { name: 'admin-queue', path: '/dashboard/admin/profiles' },
];

function waitFor(url, ms = 30000) {
  const until = Date.now() + ms;
  return new Promise((res, rej) => {
    const tick = () =>
      fetch(url)
        .then(() => res())
        .catch(() => (Date.now() > until ? rej(new Error(`timeout waiting for ${url}`)) : setTimeout(tick, 300)));
    tick();
  });
}

const children = [];
function start(cmd, argv, env = {}) {
  const p = spawn(cmd, argv, { cwd: webui, env: { ...process.env, ...env }, stdio: 'ignore' });
  children.push(p);
  return p;
}

let base = opt('base', '');
if (!base) {
  const apiPort = 8090 + Math.floor(Math.random() * 500);
  const webPort = 4300 + Math.floor(Math.random() * 500);
  let api = opt('api', '');
  if (!api) {
    start(process.execPath, ['e2e/mock-api.mjs', String(apiPort)], { MOCK_TILES: `http://127.0.0.1:${apiPort}/tiles/{z}/{x}/{y}.png` });
    api = `http://127.0.0.1:${apiPort}`;
  }
  start(process.execPath, ['node_modules/vite/bin/vite.js', 'preview', '--port', String(webPort), '--strictPort', '--host', '127.0.0.1'], {
    KARDAN_API: api,
  });
  base = `http://127.0.0.1:${webPort}`;
  await waitFor(`${api}/healthz`);
}
process.on('exit', () => {
  for (const c of children) c.kill();
});
await waitFor(base);

// launch() gives every run a fresh, temporary user-data-dir.
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});

mkdirSync(outDir, { recursive: true });
let failures = 0;
const written = [];

async function shoot(size, variant, screens, signedIn) {
  const [lang, theme] = variant.split('-');
  const ctx = await browser.newContext({
    viewport: SIZES[size],
    deviceScaleFactor: 1,
    locale: lang === 'fa' ? 'fa-IR' : 'en-US',
    timezoneId: 'Asia/Tehran',
    serviceWorkers: 'block',
    colorScheme: theme,
  });
  if (signedIn) {
    await ctx.addCookies([
      { name: 'token', value: 'mock-token-0123456789abcdef', url: base },
      { name: 'id', value: '1', url: base },
    ]);
  }
  await ctx.addInitScript(
    ([l, t, desk]) => {
      localStorage.setItem('lang', l);
      localStorage.setItem('theme', t);
      if (desk) {
        localStorage.setItem('isAdmin', 'true');
        // The owner deleted profile 3 from this browser: the Desk offers Restore.
        localStorage.setItem('kardan.deleted.1', '[3]');
      }
    },
    [lang, theme, signedIn],
  );
  const page = await ctx.newPage();
  page.on('pageerror', (e) => {
    failures++;
    console.error(`page error on ${page.url()}: ${e.message}`);
  });
  for (const s of screens) {
    if (only.length && !only.includes(s.name)) continue;
    if (s.phoneOnly && size !== 'phone') continue;
    await page.goto(base + s.path, { waitUntil: 'networkidle' });
    if (s.wait) await page.waitForSelector(s.wait, { timeout: 10000 }).catch(() => console.error(`no ${s.wait} on ${s.name}`));
    if (s.click) {
      await page.click(s.click);
      await page.waitForTimeout(400);
    }
    if (s.run) await s.run(page);
    await page.evaluate(() => document.fonts.ready);
    await page.waitForTimeout(250);
    const file = join(outDir, `${s.name}-${variant}-${size}.png`);
    await page.screenshot({ path: file, fullPage: flag('full') });
    written.push(file);
    console.log(file);
  }
  await ctx.close();
}

try {
  for (const size of sizes) {
    for (const variant of variants) {
      if (set !== 'desk') await shoot(size, variant, SCREENS, false);
      if (set !== 'public') await shoot(size, variant, DESK_SCREENS, true);
    }
  }
} finally {
  await browser.close();
  for (const c of children) c.kill();
}

// Screenshots are committed: quantise them to 256 colours when ImageMagick is at hand (about a third of the size).
if (!flag('no-compress')) {
  try {
    for (const f of written) execFileSync('convert', [f, '-dither', 'None', '-colors', '256', `PNG8:${f}`]);
  } catch {
    console.error('convert (ImageMagick) not found: screenshots left uncompressed');
  }
}
if (failures) {
  console.error(`${failures} page errors`);
  process.exit(1);
}
