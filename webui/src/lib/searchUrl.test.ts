import { describe, expect, it } from 'vitest';
import { filtersFromUrl, searchBody, urlFromFilters, type SearchFilters } from './searchUrl';

describe('URL ⇄ search filters', () => {
  it('reads the all-Iran search', () => {
    expect(filtersFromUrl('/search/iran', '')).toEqual({ city: 'iran', page: 1 });
  });
  it('reads city, category and the query string', () => {
    expect(filtersFromUrl('/search/tehran/plumber', '?q=%D9%84%D9%88%D9%84%D9%87&province=8&min_score=4&order=best&page=3')).toEqual({
      city: 'tehran',
      category: 'plumber',
      q: 'لوله',
      province: 8,
      min_score: 4,
      order: 'best',
      page: 3,
    });
  });
  it('ignores bad values', () => {
    expect(filtersFromUrl('/search/iran', '?page=-2&order=cheapest&min_score=9&province=x')).toEqual({ city: 'iran', page: 1 });
  });
  it('decodes Persian slugs', () => {
    expect(filtersFromUrl(`/search/${encodeURIComponent('تهران')}/${encodeURIComponent('لوله-کش')}`, '')).toEqual({
      city: 'تهران',
      category: 'لوله-کش',
      page: 1,
    });
  });
  it('round-trips', () => {
    const cases: SearchFilters[] = [
      { city: 'iran', page: 1 },
      { city: 'shiraz', category: 'dentist', page: 2 },
      { city: 'iran', category: 'lawyer', q: 'طلاق', province: 3, min_score: 3.5, order: 'reviews', page: 4 },
    ];
    for (const f of cases) {
      const url = urlFromFilters(f);
      const [path, qs = ''] = url.split('?');
      expect(filtersFromUrl(path, qs ? `?${qs}` : '')).toEqual(f);
    }
  });
  it('writes short URLs', () => {
    expect(urlFromFilters({ city: 'iran', page: 1 })).toBe('/search/iran');
    expect(urlFromFilters({ city: 'tehran', category: 'plumber', page: 1, q: '  ' })).toBe('/search/tehran/plumber');
  });
  it('builds the searchUser body', () => {
    expect(searchBody({ city: 'iran', page: 1 })).toEqual({ take: 20, skip: 0 });
    expect(searchBody({ city: 'tehran', category: 'plumber', q: 'x', province: 8, min_score: 4, order: 'best', page: 3 })).toEqual({
      take: 20,
      skip: 40,
      category_slag: 'plumber',
      city_slag: 'tehran',
      province_id: 8,
      min_score: 4,
      search_txt: 'x',
      order: 'best',
    });
  });
});

describe('open now and nearest in the address', () => {
  it('round-trips open and near, and sends them', () => {
    const f = filtersFromUrl('/search/tehran', '?open=1&near=35.7001,51.4002&order=nearest');
    expect(f.open).toBe(true);
    expect(f.near).toEqual({ lat: 35.7001, long: 51.4002 });
    expect(urlFromFilters(f)).toBe('/search/tehran?order=nearest&open=1&near=35.7001%2C51.4002');
    const body = searchBody(f);
    expect(body.open_now).toBe(true);
    expect(body.lat).toBe(35.7001);
    expect(body.long).toBe(51.4002);
  });
  it('ignores a bad point', () => {
    expect(filtersFromUrl('/search/tehran', '?near=95,10').near).toBeUndefined();
    expect(filtersFromUrl('/search/tehran', '?near=x,y').near).toBeUndefined();
    expect(filtersFromUrl('/search/tehran', '?near=-33.5,-70.6').near).toEqual({ lat: -33.5, long: -70.6 });
  });
});

describe('distance and price range in the address', () => {
  it('keeps a radius only with its point and only from the choices offered', () => {
    const f = filtersFromUrl('/search/tehran', '?near=35.7,51.4&radius=10000');
    expect(f.radius).toBe(10000);
    expect(urlFromFilters(f)).toBe('/search/tehran?near=35.7000%2C51.4000&radius=10000');
    expect(searchBody(f)).toMatchObject({ lat: 35.7, long: 51.4, radius: 10000 });
    expect(filtersFromUrl('/search/tehran', '?radius=10000').radius).toBeUndefined();
    expect(filtersFromUrl('/search/tehran', '?near=35.7,51.4&radius=7000').radius).toBeUndefined();
    expect(filtersFromUrl('/search/tehran', '?near=35.7,51.4&radius=-1000').radius).toBeUndefined();
  });
  it('reads a price range, turning one upside down, and drops bad prices', () => {
    const f = filtersFromUrl('/search/iran', '?price_min=500000&price_max=100000');
    expect([f.price_min, f.price_max]).toEqual([100000, 500000]);
    expect(urlFromFilters(f)).toBe('/search/iran?price_min=100000&price_max=500000');
    expect(searchBody(f)).toMatchObject({ price_min: 100000, price_max: 500000 });
    const bad = filtersFromUrl('/search/iran', '?price_min=-5&price_max=9999999999999');
    expect([bad.price_min, bad.price_max]).toEqual([undefined, undefined]);
    expect(searchBody(bad).price_min).toBeUndefined();
  });
});
