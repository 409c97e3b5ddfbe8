/**
 * How a long referrer is shortened before it goes on the first hit (`r`), case by case. Each
 * expected value is what AppMeasurement 2.27.0's own shortening gives for the same referrer (run in
 * Node outside the repository): over 255 characters, a Google, Yahoo or Baidu referrer keeps its
 * origin, its search-term parameters first, and as much of its path as fits in 253 characters;
 * anything else is sent whole.
 *
 * Equivalent mutants of referrer.ts: in `referrerParam`, the fragment test (`hash < 0` → false or
 * `hash <= 0`): without a `#` the query is cut at its last character and given its `&` back, the
 * same text, and the query always starts with `&`, so a `#` is never at 0. In `shortenReferrer`:
 * `qAt <= 0` → `qAt < 0` (a referrer starting with `?` has no `/`, so the next test sends it whole);
 * `slash <= 0` → `slash < 0` (a `/` at 0 leaves an empty host, which names no search engine);
 * `parts.length > 1` → true or `>= 1` (one parameter is either a search term alone or not one:
 * both leave the query as it came); `eq > 0` → `eq >= 0` (an empty name is no search term);
 * `room > 0` → `room >= 0` (no room keeps no path either way).
 */
import { describe, expect, it } from 'vitest';
import { referrerParam, shortenReferrer } from '../../../src/worker-engine/analytics/referrer.ts';

const P = (n: number) => 'p'.repeat(n);
const G = (n: number) => 'g'.repeat(n);
/** A shortened referrer: its origin, `kept` characters of its path (`/ppp…`), then its query. */
const cut = (origin: string, kept: number, query: string) => `${origin}${kept ? `/${P(kept - 1)}` : ''}${query}`;

describe('a long search-engine referrer', () => {
  it.each([
    ['256 characters: shortened', `https://www.google.com/${P(256 - 'https://www.google.com/?q=a&b=c'.length)}?b=c&q=a`, cut('https://www.google.com', 226, '?q=a&b=c')],
    ['no scheme', `www.google.com/${P(300)}?b=1&q=a`, cut('www.google.com', 235, '?q=a&b=1')],
    ['an upper-case scheme and host, kept as written', `HTTPS://WWW.GOOGLE.COM/${P(300)}?b=1&q=a`, cut('HTTPS://WWW.GOOGLE.COM', 227, '?q=a&b=1')],
    ['http', `http://www.google.com/${P(300)}?b=1&q=a`, cut('http://www.google.com', 228, '?q=a&b=1')],
    ['a port', `https://www.google.com:8443/${P(300)}?b=1&q=a`, cut('https://www.google.com:8443', 222, '?q=a&b=1')],
    ['Yahoo (p, ei)', `https://search.yahoo.co.jp/${P(300)}?x=1&p=gloves&ei=UTF-8&q=no`, cut('https://search.yahoo.co.jp', 209, '?p=gloves&ei=UTF-8&x=1&q=no')],
    ['Baidu (wd, word)', `https://www.baidu.com/${P(300)}?x=1&wd=gloves&word=w&q=no`, cut('https://www.baidu.com', 215, '?wd=gloves&word=w&x=1&q=no')],
    ['every Google search term, in the order they came', `https://www.google.com/${P(300)}?cd=1&kw=2&word=3&search_key=4&start=5&ie=6&q=7&z=8`, cut('https://www.google.com', 184, '?cd=1&kw=2&word=3&search_key=4&start=5&ie=6&q=7&z=8')],
    ['one parameter, not a search term', `https://www.google.com/${P(300)}?b=1`, cut('https://www.google.com', 228, '?b=1')],
    ['one parameter, a search term', `https://www.google.com/${P(300)}?q=1`, cut('https://www.google.com', 228, '?q=1')],
    ['search terms only', `https://www.google.com/${P(300)}?q=1&ie=2&start=3`, cut('https://www.google.com', 215, '?q=1&ie=2&start=3')],
    ['no search term', `https://www.google.com/${P(300)}?x=1&y=2`, cut('https://www.google.com', 224, '?x=1&y=2')],
    ['a parameter without a name or without a value is no search term', `https://www.google.com/${P(300)}?=q&q&b=1&q=z`, cut('https://www.google.com', 227, '?q=z&=q&q&b=1')],
    ['a search term\'s name as a value does not count', `https://www.google.com/${P(300)}?b=q&q=b`, cut('https://www.google.com', 227, '?q=b&b=q')],
    ['search terms longer than the room: no path at all', `https://www.google.com/${P(30)}?q=${G(260)}&b=1`, cut('https://www.google.com', 0, `?q=${G(260)}&b=1`)],
    ['search terms that fill the room exactly: no path', `https://www.google.com/${P(300)}?q=${G(229)}&b=1`, cut('https://www.google.com', 0, `?q=${G(229)}&b=1`)],
    ['a parameter without = is no search term, even one whose name minus its last letter is', `https://www.google.com/${P(300)}?b=1&qx`, cut('https://www.google.com', 225, '?b=1&qx')],
  ])('%s', (_what, referrer, expected) => {
    expect(shortenReferrer(referrer)).toBe(expected);
  });
});

describe('a referrer sent whole', () => {
  it.each([
    ['255 characters', `https://www.google.com/${P(255 - 'https://www.google.com/?q=a'.length)}?q=a`],
    ['no query', `https://www.google.com/${P(300)}`],
    ['only a query', `?${'q=a&'.repeat(80)}`],
    ['no path before the query', `https://www.google.com?b=1&q=${P(300)}`],
    ['not a search engine', `https://www.bing.com/${P(300)}?x=1&q=gloves`],
    ['a search engine\'s name in the path only', `https://www.example.com/google/${P(300)}?q=1&b=2`],
    ['an empty query', `https://www.google.com/${P(300)}?`],
    ['a scheme other than http(s): the host is not found', `ftp://www.google.com/${P(300)}?b=1&q=a`],
  ])('%s', (_what, referrer) => {
    expect(shortenReferrer(referrer)).toBe(referrer);
  });
});

describe('adobe_mc_ref read from the page URL', () => {
  // Each value is what AppMeasurement 2.27.0's Util.getQueryParam('adobe_mc_ref', url, '&', true) answers.
  it.each([
    ['a URL without a query has none, even when its path holds the parameter', 'https://x.test/a&adobe_mc_ref=abc', ''],
    ['the parameter after others', 'https://x.test/?x=1&adobe_mc_ref=abc&y=2', 'abc'],
    ['a URL that is only a query', '?adobe_mc_ref=abc', 'abc'],
    ['the value ends at the fragment', 'https://x.test/?adobe_mc_ref=abc#frag', 'abc'],
    ['an empty value ended by the fragment is none', 'https://x.test/?adobe_mc_ref=#x', ''],
    ['a long query without the parameter', 'https://x.test/?x=1234567890123456&y=2', ''],
  ])('%s', (_what, url, expected) => {
    expect(referrerParam(url)).toBe(expected);
  });
});
