import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fa from './fa.json';
import en from './en.json';
import legalFa from './legal.fa.json';
import legalEn from './legal.en.json';
import deskFa from './desk.fa.json';
import deskEn from './desk.en.json';

function keys(o: unknown, prefix = ''): string[] {
  if (Array.isArray(o)) return [prefix];
  if (o && typeof o === 'object') return Object.entries(o).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
  return [prefix];
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.tsx?$/.test(f) && !f.endsWith('.test.ts') ? [p] : [];
  });
}

describe('catalogues', () => {
  it('fa and en have the same keys', () => {
    expect(keys(en).sort()).toEqual(keys(fa).sort());
    expect(keys(legalEn).sort()).toEqual(keys(legalFa).sort());
    expect(keys(deskEn).sort()).toEqual(keys(deskFa).sort());
  });
  it('the Desk texts, merged into the default namespace, replace nothing', () => {
    const main = new Set(keys(fa));
    expect(keys(deskFa).filter((k) => main.has(k))).toEqual([]);
  });
  it('no empty texts', () => {
    for (const cat of [fa, en, deskFa, deskEn]) {
      for (const k of keys(cat)) {
        const v = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown> | undefined)?.[p], cat);
        expect(typeof v === 'string' && v.trim().length > 0, k).toBe(true);
      }
    }
  });
  it('every literal key used in the code exists', () => {
    const known = new Set([...keys(fa), ...keys(legalFa), ...keys(deskFa)]);
    const prefixes = new Set([...known].flatMap((k) => k.split('.').map((_, i, a) => a.slice(0, i + 1).join('.'))));
    const missing: string[] = [];
    for (const file of sources(join(__dirname, '..'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\bt\(\s*'([a-zA-Z0-9_.]+)'/g)) if (!known.has(m[1])) missing.push(`${file}: ${m[1]}`);
      for (const m of text.matchAll(/\bt\(\s*`([a-zA-Z0-9_.]+)\.\$\{/g)) if (!prefixes.has(m[1])) missing.push(`${file}: ${m[1]}.*`);
    }
    expect(missing).toEqual([]);
  });
});
