import { describe, expect, it } from 'vitest';
import { pagePath, underEnglish } from './langPath';

describe('langPath', () => {
  it('reads English addresses', () => {
    expect(underEnglish('/en')).toBe(true);
    expect(underEnglish('/en/profile/x')).toBe(true);
    expect(underEnglish('/enamel')).toBe(false);
    expect(underEnglish('/profile/en')).toBe(false);
    expect(pagePath('/en')).toBe('/');
    expect(pagePath('/en/search/tehran')).toBe('/search/tehran');
    expect(pagePath('/search/tehran')).toBe('/search/tehran');
  });
});
