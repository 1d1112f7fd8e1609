// make check-html: the Nu HTML checker (vnu.jar 26.9.27, run with the machine's Java 17) over the
// main pages as the real binary serves them with demo data: home, search, category in a city, a
// profile, an article, a missing page (404), and each one's /en address. The binary is started on
// a fresh data directory, seeded with demo profiles and one article posted through the API.
// Exit 1 on any error or warning the checker reports.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;
const bin = join(root, 'kardan');
const jar = join(root, 'tools/check-html/node_modules/vnu-jar/build/dist/vnu.jar');
const data = mkdtempSync(join(tmpdir(), 'kardan-check-html-'));
const pages = mkdtempSync(join(tmpdir(), 'kardan-pages-'));

function run(args) {
  const r = spawnSync(bin, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`kardan ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

async function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

let server;
try {
  run(['seed', '--data', data, '--demo', '30']);
  run(['user', 'create', '--data', data, '--phone', '09120000099', '--name', 'Editor', '--password', 'check html pages', '--admin']);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  server = spawn(bin, ['serve', '--data', data, '--addr', `127.0.0.1:${port}`, '--base-url', base], { stdio: 'ignore' });
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {}
    if (i > 300) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const api = async (method, path, body, token) => {
    const res = await fetch(base + path, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body && JSON.stringify(body),
    });
    const j = await res.json();
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(j)}`);
    return j.payload;
  };
  // An article needs a category: the first trade of the first field.
  const fields = await api('GET', '/v1/work_category/getTreeById?id=0');
  const field = (Array.isArray(fields) ? fields : fields.children ?? [])[0];
  const category = field?.children?.[0]?.id ?? field?.id;
  const { token } = await api('POST', '/v1/user/login', { numberPhone: '09120000099', password: 'check html pages' });
  const blog = await api(
    'POST',
    '/v1/blog/add',
    {
      title: 'راهنمای انتخاب لوله‌کش',
      summary: 'چند نکته پیش از تماس',
      content: '<p>پیش از <strong>تماس</strong> این‌ها را بپرسید:</p><ul><li>قیمت</li><li>زمان</li></ul>',
      category_list: [category],
      isDraft: false,
    },
    token,
  );
  if (blog.status === 'Pending') await api('PUT', `/v1/admin/blog/${blog.id}/status`, { status: 'Accepted' }, token);

  // A profile, and its category in its city from the profile page's breadcrumbs.
  const sitemap = await (await fetch(`${base}/sitemap-profiles-1.xml`)).text();
  const profilePath = new URL(sitemap.match(/<loc>([^<]*\/profile\/[^<]*)<\/loc>/)[1]).pathname;
  const profilePage = await (await fetch(base + profilePath)).text();
  const crumb = profilePage.match(/"item":"([^"]*\/search\/[^"/]+\/[^"]+)"/);
  const categoryPath = crumb ? new URL(crumb[1]).pathname : '/search/tehran';
  const paths = ['/', '/search/iran', categoryPath, profilePath, `/blog/${blog.slug}`, '/no-such-page'];
  const files = [];
  for (const p of paths.flatMap((p) => [p, p === '/' ? '/en' : `/en${p}`])) {
    const res = await fetch(base + p);
    const want = p.endsWith('/no-such-page') ? 404 : 200;
    if (res.status !== want) throw new Error(`${p}: ${res.status}, want ${want}`);
    const file = join(pages, `${files.length}.html`);
    writeFileSync(file, await res.text());
    files.push({ file, path: decodeURIComponent(p) });
  }
  const check = spawnSync('java', ['-jar', jar, '--format', 'gnu', '--verbose', ...files.map((f) => f.file)], { encoding: 'utf8' });
  const out = `${check.stdout}${check.stderr}`;
  const lines = out.split('\n').filter((l) => l.trim() && !l.includes('Checking file'));
  for (const f of files) console.log(`checked ${f.path}`);
  if (check.status !== 0 || lines.some((l) => /error|warning/i.test(l))) {
    console.log(files.reduce((s, f) => s.replaceAll(`file:${f.file}`, f.path).replaceAll(f.file, f.path), out));
    console.log(`check-html: the Nu HTML checker found problems in ${files.length} pages`);
    process.exitCode = 1;
  } else {
    console.log(`check-html: ${files.length} pages, 0 errors, 0 warnings (Nu HTML checker, vnu.jar 26.9.27)`);
  }
} finally {
  server?.kill('SIGTERM');
  rmSync(data, { recursive: true, force: true });
  rmSync(pages, { recursive: true, force: true });
}
