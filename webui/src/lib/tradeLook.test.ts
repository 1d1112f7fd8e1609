import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hasIcon } from '../components/Icon';
import { FIELD_LOOKS, tradeLook } from './tradeLook';

const fields: { slug: string; english_name: string }[] = JSON.parse(
  readFileSync(new URL('../../../admin/refdata/categories.json', import.meta.url), 'utf8'),
);

describe('tradeLook', () => {
  it('has a look of its own for every shipped field, with an icon that exists', () => {
    expect(fields.length).toBeGreaterThanOrEqual(40);
    for (const f of fields) {
      expect(FIELD_LOOKS[f.slug], f.slug).toBeDefined();
      expect(hasIcon(FIELD_LOOKS[f.slug].icon), FIELD_LOOKS[f.slug].icon).toBe(true);
    }
  });
  it('gives neighbouring fields told apart a different icon or colour', () => {
    const seen = new Set<string>();
    for (const f of fields) {
      const l = FIELD_LOOKS[f.slug];
      const key = `${l.icon}/${l.hue}`;
      expect(seen.has(key), f.slug).toBe(false);
      seen.add(key);
    }
  });
  it('guesses an unknown field from its name, with a steady colour', () => {
    const a = tradeLook({ slag: 'solar-panels', english_name: 'Solar panels' });
    expect(a.icon).toBe('bolt');
    expect(tradeLook({ slag: 'solar-panels', english_name: 'Solar panels' }).hue).toBe(a.hue);
    expect(tradeLook(null).icon).toBe('briefcase');
  });
});
