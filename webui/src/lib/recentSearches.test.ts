import { describe, expect, it } from 'vitest';
import { MAX_RECENT, parseRecent, withRecent } from './recentSearches';

describe('recent searches', () => {
  it('puts the newest first and moves a repeated search up instead of repeating it', () => {
    let list: string[] = [];
    for (const q of ['لوله کش', 'برقکار', ' لوله کش ']) list = withRecent(list, q);
    expect(list).toEqual(['لوله کش', 'برقکار']);
  });
  it(`keeps at most ${MAX_RECENT}`, () => {
    let list: string[] = [];
    for (let i = 1; i <= MAX_RECENT + 2; i++) list = withRecent(list, `q${i}`);
    expect(list).toEqual(['q7', 'q6', 'q5', 'q4', 'q3']);
  });
  it('ignores an empty search and does not change the list it was given', () => {
    const list = ['a'];
    expect(withRecent(list, '   ')).toEqual(['a']);
    withRecent(list, 'b');
    expect(list).toEqual(['a']);
  });
  it('reads what it wrote, and anything else as no searches', () => {
    expect(parseRecent(JSON.stringify(withRecent(['a'], 'b')))).toEqual(['b', 'a']);
    expect(parseRecent(null)).toEqual([]);
    expect(parseRecent('not json')).toEqual([]);
    expect(parseRecent('{"q":"a"}')).toEqual([]);
    expect(parseRecent('["a", 3, null, "", "b"]')).toEqual(['a', 'b']);
    expect(parseRecent(JSON.stringify(['1', '2', '3', '4', '5', '6', '7']))).toHaveLength(MAX_RECENT);
  });
});
