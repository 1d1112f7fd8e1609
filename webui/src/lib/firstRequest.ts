import { filtersFromUrl, searchBody, urlFromFilters, type SearchBody } from './searchUrl';

/**
 * The first API request of the page the app starts on, which main.tsx asks before the page's code
 * has loaded. The server reads the same addresses the same way (api/embed_answer.go) to write the
 * answer into the page for a visitor; api/testdata/first_answer_urls.json holds the cases both
 * test suites check, so a change on one side that the other does not follow fails a test instead
 * of silently costing the round trip the embedded answer saves.
 */
export type FirstRequest = { page: 'profile'; body: { slug: string } } | { page: 'search'; body: SearchBody; url: string };

const PROFILE_PAGE = /^\/profile\/([^/]+)\/?$/;
const SEARCH_PAGE = /^\/search\/[^/]+(\/[^/]+)?\/?$/;

/** The request the page at `pathname` (percent-encoded, as in location) and `search` asks first, or null. */
export function firstRequestOf(pathname: string, search: string): FirstRequest | null {
  const profile = PROFILE_PAGE.exec(pathname);
  if (profile) {
    try {
      return { page: 'profile', body: { slug: decodeURIComponent(profile[1]) } };
    } catch {
      return null; // a malformed address: the page itself answers it
    }
  }
  if (SEARCH_PAGE.test(pathname)) {
    const f = filtersFromUrl(pathname, search);
    return { page: 'search', body: searchBody(f), url: urlFromFilters(f) };
  }
  return null;
}
