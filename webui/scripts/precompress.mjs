// Brotli forms of the built app's text files, written beside them at build time (dist/x.js.br),
// so the server answers `Accept-Encoding: br` from memory without compressing on the fly. Brotli
// at quality 11 is too slow to run per request but costs nothing here; Node's zlib has it, so no
// dependency. A file whose Brotli form is not smaller is left alone, and index.html too: the
// server writes every page from it with that page's meta, so its plain form is all it reads.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url).pathname;
const text = /\.(js|mjs|css|svg|json|webmanifest|txt|xml)$/;

let before = 0;
let after = 0;
let files = 0;
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      walk(path);
      continue;
    }
    if (!text.test(name) || name === 'index.html' || path.includes('/.vite/')) continue;
    const body = readFileSync(path);
    if (body.length <= 512) continue;
    const br = brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
    if (br.length >= body.length) continue;
    writeFileSync(`${path}.br`, br);
    before += body.length;
    after += br.length;
    files++;
  }
}
walk(dist);
console.log(`precompress: ${files} files, ${before} B → ${after} B with Brotli (${relative(process.cwd(), dist)})`);
