// Fails when the JavaScript a first visit must load exceeds the budget: the entry scripts of
// dist/index.html plus every chunk they import statically (lazy `import()` chunks are not counted).
// Usage: node scripts/bundle-budget.mjs [--limit-kib 80] [--dist dist]
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = resolve(root, opt('dist', 'dist'));
const limit = Number(opt('limit-kib', 80)) * 1024;

const indexPath = join(dist, 'index.html');
if (!existsSync(indexPath)) {
  console.error(`bundle-budget: ${indexPath} is missing; run npm run build first`);
  process.exit(2);
}
const html = readFileSync(indexPath, 'utf8');

/** Script URLs that index.html loads at once: module scripts, classic scripts and module preloads. */
const entries = new Set();
for (const m of html.matchAll(/<script\b[^>]*\bsrc=["']([^"']+)["'][^>]*>/g)) entries.add(m[1]);
for (const m of html.matchAll(/<link\b[^>]*\brel=["']modulepreload["'][^>]*\bhref=["']([^"']+)["'][^>]*>/g)) entries.add(m[1]);

if (!entries.size) {
  console.error('bundle-budget: dist/index.html loads no script; is it the unbuilt placeholder? run npm run build');
  process.exit(2);
}

/** Static imports and re-exports of a built module: `import x from"./a.js"`, `import"./b.js"`, `export{y}from"./c.js"`. */
const STATIC = /(?:^|[^\w$.])(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+)["']/g;

function toFile(url, fromUrl) {
  if (/^https?:/.test(url)) return null;
  const abs = url.startsWith('/') ? url : posix.join(posix.dirname(fromUrl), url);
  return abs;
}

const seen = new Map();
function visit(url) {
  if (seen.has(url)) return;
  const file = join(dist, url);
  if (!existsSync(file)) {
    console.error(`bundle-budget: ${url} referenced but not found in dist`);
    process.exit(2);
  }
  const code = readFileSync(file);
  seen.set(url, gzipSync(code, { level: 9 }).length);
  if (!url.endsWith('.js')) return;
  for (const m of code.toString('utf8').matchAll(STATIC)) {
    const next = toFile(m[1], url);
    if (next?.endsWith('.js')) visit(next);
  }
}
for (const e of entries) {
  const f = toFile(e, '/index.html');
  if (f) visit(f);
}

let total = 0;
for (const [url, size] of [...seen].sort((a, b) => b[1] - a[1])) {
  total += size;
  console.log(`${(size / 1024).toFixed(1).padStart(7)} KiB  ${url}`);
}
const verdict = total <= limit ? 'ok' : 'OVER BUDGET';
console.log(`initial JavaScript: ${(total / 1024).toFixed(1)} KiB gzip of ${(limit / 1024).toFixed(0)} KiB — ${verdict}`);
process.exit(total <= limit ? 0 : 1);
