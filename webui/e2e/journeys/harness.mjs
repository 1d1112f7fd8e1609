// The harness of the browser journeys: one world per journey file, made of the already built
// `kardan` binary serving a fresh data directory on a free loopback port (reference data seeded, an
// admin account, SMS codes written to a file, moderation before publishing), a tiny local tile
// server answering a blank PNG, and Debian's Chromium driven through playwright-core.
//
// It builds nothing: run `make web build` first (or set KARDAN_BIN). Everything it starts is
// stopped at the end whatever happens: `stop()` from the journey's `after` hook, and the process
// exit and signal handlers below for a journey that dies on the way.
import { spawn, execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const webui = resolve(here, '..', '..');
export const resultsDir = join(webui, 'e2e-results');
export const KARDAN = process.env.KARDAN_BIN ? resolve(process.env.KARDAN_BIN) : resolve(webui, '..', 'kardan');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const AXE = join(webui, 'node_modules', 'axe-core', 'axe.min.js');

/** How long one browser action or wait may take before the journey fails (the CI machine is slow). */
export const ACTION_TIMEOUT = 20_000;
/** How long one journey may take. */
export const JOURNEY_TIMEOUT = 180_000;

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1366, height: 768 };

// ---------------------------------------------------------------------------------------------
// Clean-up of everything started, whatever happens.

const processes = new Set();
const tempDirs = new Set();

function cleanupNow() {
  for (const p of processes) {
    if (p.exitCode === null && p.signalCode === null) {
      try {
        p.kill('SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }
  processes.clear();
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
  tempDirs.clear();
}

process.on('exit', cleanupNow);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    cleanupNow();
    process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGTERM' ? 15 : 1));
  });
}

// ---------------------------------------------------------------------------------------------
// The web app's catalogues, so journeys look for the texts a person reads, in both languages.

function merge(into, from) {
  for (const [k, v] of Object.entries(from)) {
    if (v && typeof v === 'object' && into[k] && typeof into[k] === 'object') merge(into[k], v);
    else into[k] = v;
  }
  return into;
}

// The Desk's texts are merged into the default namespace when the Desk loads, as the app does.
const catalogue = (lang) => {
  const read = (name) => JSON.parse(readFileSync(join(webui, 'src', 'i18n', `${name}.json`), 'utf8'));
  const main = read(lang);
  return existsSync(join(webui, 'src', 'i18n', `desk.${lang}.json`)) ? merge(main, read(`desk.${lang}`)) : main;
};
const catalogues = { fa: catalogue('fa'), en: catalogue('en') };

/** A catalogue text with its {{placeholders}} filled, as i18next renders it. */
export function t(lang, key, vars = {}) {
  let v = catalogues[lang];
  const parts = key.split('.');
  // A numeric count picks the plural form as i18next does (key_one beside key).
  if (typeof vars.count === 'number' && new Intl.PluralRules(lang).select(vars.count) === 'one') parts.push(`${parts.pop()}_one`);
  for (const part of parts) v = v?.[part];
  if (typeof v !== 'string' && parts.at(-1).endsWith('_one')) return t(lang, key, { ...vars, count: String(vars.count) });
  if (typeof v !== 'string') throw new Error(`no ${lang} text for ${key}`);
  return v.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k) => (k in vars ? String(vars[k]) : `{{${k}}}`));
}

const FA_DIGITS = '۰۱۲۳۴۵۶۷۸۹';
/** Latin digits as the app writes them in a language: Persian digits in fa. */
export function digits(s, lang) {
  return lang === 'fa' ? String(s).replace(/[0-9]/g, (d) => FA_DIGITS[Number(d)]) : String(s);
}

/** A number with thousands separators as the app formats it (Intl, fa-IR or en-US). */
export function number(n, lang) {
  return new Intl.NumberFormat(lang === 'en' ? 'en-US' : 'fa-IR', { maximumFractionDigits: 1 }).format(n);
}

/** A regular expression matching a text exactly (after trimming), for Playwright's name/hasText. */
export function exact(text) {
  return new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
}

// ---------------------------------------------------------------------------------------------
// Processes.

function run(cmd, args, opts = {}) {
  return new Promise((res, rej) => {
    execFile(cmd, args, { timeout: 60_000, maxBuffer: 8 << 20, ...opts }, (err, stdout, stderr) => {
      if (err) {
        err.message += `\n${cmd} ${args.join(' ')}\nstdout: ${stdout}\nstderr: ${stderr}`;
        rej(err);
      } else res({ stdout, stderr });
    });
  });
}

/** A server that answers every tile with the same blank PNG. */
async function startTileServer() {
  const png = blankPng();
  let served = 0;
  const server = createServer((_req, res) => {
    served++;
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length, 'access-control-allow-origin': '*', 'cache-control': 'max-age=3600' });
    res.end(png);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  server.unref();
  const { port } = server.address();
  return {
    template: `http://127.0.0.1:${port}/{z}/{x}/{y}.png`,
    served: () => served,
    closeConnections: () => server.closeAllConnections(),
    close: () => new Promise((r) => server.close(() => r())),
  };
}

// A 1×1 light grey PNG: Leaflet stretches every tile image to the tile size.
function blankPng() {
  return Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGN49+4FAAWSAsUs0TWTAAAAAElFTkSuQmCC', 'base64');
}

/** Starts `kardan serve` and resolves with its URL once it prints "Kardan is running at …". */
function startKardan(args, logFile) {
  const p = spawn(KARDAN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  processes.add(p);
  p.on('exit', () => processes.delete(p));
  let log = '';
  const keep = (d) => {
    log += d.toString();
    if (log.length > 1 << 20) log = log.slice(-(1 << 19));
  };
  p.stderr.on('data', keep);
  return new Promise((res, rej) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error('kardan serve did not say where it runs within 30 s')), 30_000);
    const fail = (e) => {
      clearTimeout(timer);
      p.kill('SIGKILL');
      rej(new Error(`${e.message}\n${log.slice(-4000)}`));
    };
    p.on('error', fail);
    p.on('exit', (code, sig) => fail(new Error(`kardan serve exited (${code ?? sig}) before it was ready`)));
    p.stdout.on('data', (d) => {
      keep(d);
      out += d.toString();
      const m = out.match(/Kardan is running at (http:\/\/127\.0\.0\.1:\d+)/);
      if (m) {
        clearTimeout(timer);
        p.removeAllListeners('exit');
        p.on('exit', () => processes.delete(p));
        res({ process: p, url: m[1], log: () => log, writeLog: () => writeFileSync(logFile, log) });
      }
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The world.

export class World {
  /**
   * Starts a fresh kardan with seeded reference data and an admin, the tile server and Chromium.
   * clock (a Date) starts the server's clock there, for a journey whose browser clock is fixed
   * too: open statuses are the server's.
   */
  static async start({ name = 'journey', moderation = 'pre', clock } = {}) {
    assert.ok(existsSync(KARDAN), `no kardan binary at ${KARDAN}: run \`make web build\` first (or set KARDAN_BIN)`);
    assert.ok(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}: apt-get install -y chromium`);
    mkdirSync(resultsDir, { recursive: true });
    const w = new World();
    w.name = name;
    w.dir = mkdtempSync(join(tmpdir(), 'kardan-e2e-'));
    tempDirs.add(w.dir);
    w.data = join(w.dir, 'data');
    w.smsFile = join(w.dir, 'sms.txt');
    try {
      await w.cli('seed');
      w.admin = { phone: '09120000900', name: 'مدیر کاردان', password: 'admin-password-1' };
      await w.cli('user', 'create', '--phone', w.admin.phone, '--name', w.admin.name, '--password', w.admin.password, '--admin');
      w.tiles = await startTileServer();
      w.server = await startKardan(
        ['serve', '--data', w.data, '--addr', '127.0.0.1:0', '--sms', `file:${w.smsFile}`, '--moderation', moderation, '--tiles', w.tiles.template, '--log-level', 'warn']
          .concat(clock ? ['--clock', clock.toISOString()] : []),
        join(resultsDir, `${name}.server.log`),
      );
      w.base = w.server.url;
      const home = await (await fetch(`${w.base}/`)).text();
      assert.match(home, /<script type="module"/, `${KARDAN} embeds no built web app: run \`make web build\` first`);
      w.browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      });
    } catch (e) {
      // The journey's `after` hook never sees a world that failed to start: stop what did start.
      await w.stop().catch(() => undefined);
      throw e;
    }
    return w;
  }

  /** Stops the browser, kardan (SIGTERM, then SIGKILL after 15 s) and the tile server; removes the data. */
  async stop() {
    const errors = [];
    if (this.browser) await this.browser.close().catch((e) => errors.push(e));
    if (this.server) {
      const p = this.server.process;
      if (p.exitCode === null && p.signalCode === null) {
        // SIGTERM stops kardan gracefully: it must exit 0 within its shutdown timeout.
        const gone = new Promise((r) => p.once('exit', (code, sig) => r({ code, sig })));
        p.kill('SIGTERM');
        let killed = false;
        const timer = setTimeout(() => {
          killed = true;
          p.kill('SIGKILL');
        }, 15_000);
        const { code, sig } = await gone;
        clearTimeout(timer);
        if (killed) errors.push(new Error('kardan serve did not stop within 15 s of SIGTERM'));
        else if (code !== 0) errors.push(new Error(`kardan serve answered SIGTERM with exit ${code ?? sig}`));
      }
      this.server.writeLog();
    }
    if (this.tiles) {
      this.tiles.closeConnections();
      await this.tiles.close();
    }
    if (this.dir) {
      rmSync(this.dir, { recursive: true, force: true });
      tempDirs.delete(this.dir);
    }
    if (errors.length) throw errors[0];
  }

  /** Runs a kardan command on this world's data directory. */
  async cli(...args) {
    const { stdout } = await run(KARDAN, [...args, '--data', this.data]);
    return stdout;
  }

  /** One API call from outside the browser: {status, payload, message}. */
  async api(method, path, body, { token, lang = 'fa' } = {}) {
    const headers = { 'accept-language': lang };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(this.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, payload: json?.payload, message: json?.message, text };
  }

  /** Like api(), but fails the journey unless the answer is 200. */
  async ok(method, path, body, opts) {
    const a = await this.api(method, path, body, opts);
    assert.equal(a.status, 200, `${method} ${path} ${JSON.stringify(body)} answered ${a.status}: ${a.text}`);
    return a.payload;
  }

  /** Makes an account with the CLI (no SMS) and signs it in through the API. */
  async user(phone, name, password, { admin = false } = {}) {
    const args = ['user', 'create', '--phone', phone, '--name', name, '--password', password];
    if (admin) args.push('--admin');
    await this.cli(...args);
    return this.login(phone, password);
  }

  /** POST /v1/user/login: {token, id, userTechnical, isAdmin}. */
  login(phone, password) {
    return this.ok('POST', '/v1/user/login', { numberPhone: phone, password });
  }

  /** The admin's token (signed in once). */
  async adminToken() {
    this._adminToken ??= (await this.login(this.admin.phone, this.admin.password)).token;
    return this._adminToken;
  }

  /** The last sign-up code written to the SMS file for a number, waiting for it to arrive. */
  async smsCode(phone, { after = 0 } = {}) {
    const until = Date.now() + ACTION_TIMEOUT;
    for (;;) {
      const lines = existsSync(this.smsFile) ? readFileSync(this.smsFile, 'utf8').split('\n').filter(Boolean) : [];
      const mine = lines.slice(after).filter((l) => l.split(/\s+/)[0] === phone);
      if (mine.length) return mine.at(-1).split(/\s+/)[1];
      if (Date.now() > until) throw new Error(`no SMS code for ${phone} in ${this.smsFile}: ${lines.join(' | ')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Lines in the SMS file so far (to wait for a newer code than those). */
  smsCount() {
    return existsSync(this.smsFile) ? readFileSync(this.smsFile, 'utf8').split('\n').filter(Boolean).length : 0;
  }

  /** Creates a profile through the API and, unless told otherwise, accepts it as the admin. */
  async profile(token, body, { accept = true } = {}) {
    const p = await this.ok('POST', '/v1/user-technical/createProfile', body, { token });
    if (accept) await this.ok('PUT', `/v1/admin/user-technical/${p.id}/status`, { status: 'Accepted', description: '' }, { token: await this.adminToken() });
    return p;
  }

  /** Waits until a public search finds what `found` looks for (the index follows the database within a second). */
  async searchable(body, found, what) {
    const until = Date.now() + ACTION_TIMEOUT;
    for (;;) {
      const r = await this.ok('POST', '/v1/user-technical/searchUser', body);
      if (found(r)) return r;
      if (Date.now() > until) throw new Error(`search ${JSON.stringify(body)} never found ${what}: ${JSON.stringify(r).slice(0, 500)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /**
   * A fresh browser context (own cookies, storage and cache): `lang` and `theme` are stored before
   * the app starts unless `store: false`; service workers are blocked unless `serviceWorkers: true`;
   * the server's Content-Security-Policy holds unless `bypassCSP: true` (to inject axe-core);
   * `geolocation: {latitude, longitude}` is where the browser says it is (permission granted).
   */
  async context({ lang = 'fa', theme = 'light', viewport = DESKTOP, serviceWorkers = false, store = true, clock, bypassCSP = false, geolocation } = {}) {
    const ctx = await this.browser.newContext({
      baseURL: this.base,
      viewport,
      deviceScaleFactor: 1,
      locale: lang === 'fa' ? 'fa-IR' : 'en-US',
      timezoneId: 'Asia/Tehran',
      serviceWorkers: serviceWorkers ? 'allow' : 'block',
      permissions: ['clipboard-read', 'clipboard-write', ...(geolocation ? ['geolocation'] : [])],
      geolocation,
      reducedMotion: 'reduce',
      bypassCSP,
    });
    ctx.setDefaultTimeout(ACTION_TIMEOUT);
    ctx.setDefaultNavigationTimeout(ACTION_TIMEOUT * 2);
    if (store) {
      await ctx.addInitScript(
        ([l, th]) => {
          if (!localStorage.getItem('kardan.e2e.init')) {
            localStorage.setItem('kardan.e2e.init', '1');
            localStorage.setItem('lang', l);
            localStorage.setItem('theme', th);
          }
        },
        [lang, theme],
      );
    }
    if (clock) await ctx.clock.setFixedTime(clock);
    return ctx;
  }

  /**
   * Runs one journey in a fresh context and page. Whatever happens it leaves
   * e2e-results/<shot>.png (the page as it was at the end), and it fails on any uncaught error
   * in the page.
   */
  async journey(shot, opts, fn) {
    const ctx = await this.context(opts);
    const page = await ctx.newPage();
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(`${page.url()}: ${e.message}`));
    try {
      await fn(page, ctx);
    } finally {
      await this.shot(page, shot).catch(() => undefined);
      await ctx.close().catch(() => undefined);
    }
    if (!opts?.allowPageErrors) assert.deepEqual(pageErrors, [], 'uncaught errors in the page');
  }

  /** A screenshot under webui/e2e-results/. */
  async shot(page, name) {
    await page.screenshot({ path: join(resultsDir, `${name}.png`), fullPage: false, timeout: 10_000 });
  }
}

// ---------------------------------------------------------------------------------------------
// Browser helpers shared by the journeys.

/** Signs in through /login and waits for the page it sends the person to. */
export async function signIn(page, lang, phone, password, { next } = {}) {
  await page.goto(next ? `/login?next=${encodeURIComponent(next)}` : '/login');
  await page.locator('#l-mobile').fill(phone);
  await page.locator('#l-password').fill(password);
  await page.locator('form').getByRole('button', { name: t(lang, 'nav.login') }).click();
  await page.waitForURL((u) => u.pathname !== '/login');
}

/** Waits until a toast shows exactly this text. */
export async function toast(page, text) {
  await page.locator('.toasts .toast p').filter({ hasText: exact(text) }).first().waitFor();
}

/** Runs axe-core in the page and fails on serious or critical violations (needs a context with `bypassCSP`). */
export async function axeCheck(page, what) {
  await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} :: ${n.failureSummary?.split('\n').slice(0, 3).join(' ')}`),
    }));
  });
  const bad = result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  writeFileSync(join(resultsDir, `axe-${what}.json`), JSON.stringify(result, null, 2));
  assert.deepEqual(
    bad.map((v) => `${v.impact} ${v.id}: ${v.help}\n    ${v.nodes.join('\n    ')}`),
    [],
    `axe-core found serious or critical violations on ${what}`,
  );
  return result;
}

/** A Tehran plumber as the web app sends it; `over` replaces fields. */
export function plumber(over = {}) {
  const day = (...slots) => ({ boarding: false, closed: false, time: slots.map(([o, c]) => ({ open: o * 3600, close: c * 3600 })) });
  return {
    profile_name: 'لوله‌کشی امید',
    work_history_years: 12,
    descriotion: 'باز کردن گرفتگی لوله، نشت‌یابی و تعمیر آبگرمکن در تهران.',
    city_id: 1,
    province_id: 1,
    range_worker: 1,
    category_list: [101],
    location: { lat: 35.7, long: 51.4 },
    area_working: ['منطقه ۶', 'منطقه ۷'],
    address: 'تهران، خیابان ولیعصر، کوچه بهار، پلاک ۱۲',
    services: [
      { title: 'باز کردن گرفتگی لوله', price: 350000, description: 'با فنر برقی' },
      { title: 'مشاوره تلفنی', price: 0, description: '' },
    ],
    hours_of_work: {
      saturday: day([9, 13], [16, 20]),
      sunday: day([9, 13], [16, 20]),
      monday: day([9, 13], [16, 20]),
      tuesday: day([9, 13], [16, 20]),
      wednesday: day([9, 13], [16, 20]),
      thursday: day([9, 13]),
      friday: { boarding: false, closed: true, time: [] },
    },
    social_network: [
      { type: 'mobile', link: '09121234567' },
      { type: 'Telegram', link: '@omid_plumbing' },
    ],
    ...over,
  };
}

/** A JPEG photo drawn in the page (a gradient with a few shapes), for upload inputs. */
export async function photo(page, { width = 900, height = 600, name = 'photo.jpg' } = {}) {
  const data = await page.evaluate(
    ([w, h]) => {
      const c = document.createElement('canvas');
      c.width = w;
      c.height = h;
      const g = c.getContext('2d');
      const grad = g.createLinearGradient(0, 0, w, h);
      grad.addColorStop(0, '#0b6e69');
      grad.addColorStop(1, '#f2b84b');
      g.fillStyle = grad;
      g.fillRect(0, 0, w, h);
      g.fillStyle = '#ffffff';
      g.beginPath();
      g.arc(w / 2, h / 2, Math.min(w, h) / 4, 0, Math.PI * 2);
      g.fill();
      g.fillStyle = '#c0392b';
      g.fillRect(w / 10, h / 10, w / 5, h / 5);
      return c.toDataURL('image/jpeg', 0.9).split(',')[1];
    },
    [width, height],
  );
  return { name, mimeType: 'image/jpeg', buffer: Buffer.from(data, 'base64') };
}
