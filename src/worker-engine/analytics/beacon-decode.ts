/**
 * Reading a beacon back into named fields: the devtools feed, the local collector and
 * `offtag decode` all use this, so a beacon reads the same everywhere.
 */
import { unescapeValue } from './encoding.ts';

export type Nested = { [key: string]: string | Nested };

export interface DecodedBeacon {
  /** `t` for a page view, `tl` for a link hit (a `pe` parameter is present). */
  hitType: 't' | 'tl';
  rsid: string;
  /** `JS-2.27.0` or with its marker. */
  version: string;
  /** The random path segment (`s…`); identical segments mean the same beacon sent twice. */
  sid: string;
  method: 'GET' | 'POST';
  /** The `t` parameter (local time string). */
  time?: string;
  pageName?: string;
  pageURL?: string;
  referrer?: string;
  channel?: string;
  server?: string;
  pageType?: string;
  currencyCode?: string;
  events?: string;
  products?: string;
  purchaseID?: string;
  campaign?: string;
  linkType?: 'o' | 'd' | 'e';
  linkName?: string;
  linkUrl?: string;
  mid?: string;
  aid?: string;
  aamlh?: string;
  aamb?: string;
  mcorgid?: string;
  sdid?: string;
  fid?: string;
  [numbered: `eVar${number}` | `prop${number}` | `list${number}` | `hier${number}`]: string;
  /** Every `c.` block merged, nested (`{ cm: { ssf: '1' }, a: { activitymap: { … } } }`). */
  contextData: Nested;
  /** The `cid.` block: data source → `{ id, as }`. */
  customerIds: Nested;
  /** Every plain parameter; nested ones under their dotted path (`c.cm.ssf`). Repeats keep the last. */
  params: Record<string, string>;
  /** The parameters as they appear on the wire, decoded, nesting markers included. */
  raw: [string, string][];
}

const NAMED: Record<string, keyof DecodedBeacon> = {
  t: 'time', pageName: 'pageName', g: 'pageURL', r: 'referrer', ch: 'channel', server: 'server',
  pageType: 'pageType', cc: 'currencyCode', events: 'events', products: 'products',
  purchaseID: 'purchaseID', v0: 'campaign', pev1: 'linkUrl', pev2: 'linkName',
  mid: 'mid', aid: 'aid', aamlh: 'aamlh', aamb: 'aamb', mcorgid: 'mcorgid', sdid: 'sdid', fid: 'fid',
};
const NUMBERED: Record<string, string> = { c: 'prop', v: 'eVar', l: 'list', h: 'hier' };

function setNested(root: Nested, path: string[], value: string): void {
  let node = root;
  for (const p of path.slice(0, -1)) {
    const next = node[p];
    if (typeof next === 'object') node = next;
    else node = node[p] = {};
  }
  node[path[path.length - 1]!] = value;
}

/** Decodes a beacon URL (and the body of a POST beacon, which holds its query). */
export function decodeBeacon(url: string, body?: string): DecodedBeacon {
  const q = url.indexOf('?');
  const path = (q >= 0 ? url.slice(0, q) : url).replace(/^[a-z]+:\/\/[^/]+/i, '');
  const query = body !== undefined && body !== '' ? body : q >= 0 ? url.slice(q + 1) : '';
  const segs = path.split('/').filter((s) => s !== '');
  // /b/ss/<rsid>/<P>/<version>/<sid>
  const at = segs.indexOf('ss');
  const out: DecodedBeacon = {
    hitType: 't',
    rsid: at >= 0 ? unescapeValue(segs[at + 1] ?? '') : '',
    version: at >= 0 ? segs[at + 3] ?? '' : '',
    sid: at >= 0 ? segs[at + 4] ?? '' : '',
    method: body !== undefined && body !== '' ? 'POST' : 'GET',
    contextData: {},
    customerIds: {},
    params: {},
    raw: [],
  };
  const stack: string[] = [];
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = unescapeValue(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : unescapeValue(part.slice(eq + 1));
    out.raw.push([key, value]);
    if (eq < 0 && key.endsWith('.') && key.length > 1) {
      stack.push(key.slice(0, -1));
      continue;
    }
    if (eq < 0 && key.startsWith('.') && key.length > 1) {
      stack.pop();
      continue;
    }
    if (stack.length > 0) {
      out.params[[...stack, key].join('.')] = value;
      if (stack[0] === 'c') setNested(out.contextData, [...stack.slice(1), key], value);
      else if (stack[0] === 'cid') setNested(out.customerIds, [...stack.slice(1), key], value);
      continue;
    }
    out.params[key] = value;
    const named = NAMED[key];
    if (named) (out as unknown as Record<string, string>)[named] = value;
    const m = /^([cvlh])(\d+)$/.exec(key);
    if (m) out[`${NUMBERED[m[1]!]}${Number(m[2])}` as `eVar${number}`] = value;
    if (key === 'pe') {
      out.hitType = 'tl';
      const t = value.replace(/^lnk_/, '');
      if (t === 'o' || t === 'd' || t === 'e') out.linkType = t;
    }
  }
  // The page URL beyond 255 characters travels in `-g`.
  if (out.pageURL !== undefined && out.params['-g']) out.pageURL += out.params['-g'];
  return out;
}
