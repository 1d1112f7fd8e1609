// Screenshots of the main screens in fa/light and en/dark, on a phone (390×844) and a desktop
// (1366×768), written to docs/screenshots/. Uses Debian's Chromium through playwright-core.
//
//   node e2e/screenshots.mjs                      # builds nothing: serves dist with `vite preview` and the mock API
//   node e2e/screenshots.mjs --base http://127.0.0.1:8080   # a running `kardan serve`
//   node e2e/screenshots.mjs --api http://127.0.0.1:8080          # dist via `vite preview`, API of a running server
//   node e2e/screenshots.mjs --only home,profile --out /tmp/shots --full
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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
process.on('exit', () => children.forEach((c) => c.kill()));
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
try {
  for (const size of sizes) {
    for (const variant of variants) {
      const [lang, theme] = variant.split('-');
      const ctx = await browser.newContext({
        viewport: SIZES[size],
        deviceScaleFactor: 1,
        locale: lang === 'fa' ? 'fa-IR' : 'en-US',
        timezoneId: 'Asia/Tehran',
        serviceWorkers: 'block',
        colorScheme: theme,
      });
      await ctx.addInitScript(
        ([l, t]) => {
          localStorage.setItem('lang', l);
          localStorage.setItem('theme', t);
        },
        [lang, theme],
      );
      const page = await ctx.newPage();
      page.on('pageerror', (e) => {
        failures++;
        console.error(`page error on ${page.url()}: ${e.message}`);
      });
      for (const s of SCREENS) {
        if (only.length && !only.includes(s.name)) continue;
        if (s.phoneOnly && size !== 'phone') continue;
        await page.goto(base + s.path, { waitUntil: 'networkidle' });
        if (s.wait) await page.waitForSelector(s.wait, { timeout: 10000 }).catch(() => console.error(`no ${s.wait} on ${s.name}`));
        if (s.click) {
          await page.click(s.click);
          await page.waitForTimeout(400);
        }
        await page.evaluate(() => document.fonts.ready);
        await page.waitForTimeout(250);
        const file = join(outDir, `${s.name}-${variant}-${size}.png`);
        await page.screenshot({ path: file, fullPage: flag('full') });
        console.log(file);
      }
      await ctx.close();
    }
  }
} finally {
  await browser.close();
  for (const c of children) c.kill();
}
if (failures) {
  console.error(`${failures} page errors`);
  process.exit(1);
}
