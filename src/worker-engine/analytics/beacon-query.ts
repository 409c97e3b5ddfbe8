/**
 * The query string of a beacon, in AppMeasurement's parameter order and encoding
 * (AppMeasurement 2.27.0: beacon URL and parameters): `AQB=1&ndh=1&pf=1&[callback=…&et=1&]t=…&<cid.>&<d.>&<rest>&AQE=1`.
 */
import type { PageInfo, Snapshot } from '../../protocol.ts';
import { escapeValue } from './encoding.ts';
import { EVAR_COUNT, HIER_COUNT, LIST_COUNT, PAGE_URL_SPLIT, PROP_COUNT } from './variables.ts';

/** Context data values as AppMeasurement accepts them: booleans become `true`/`false`; 0 and '' are dropped. */
export type ContextValue = string | number | boolean | undefined;
export type ContextData = Record<string, ContextValue>;

export interface CustomerId {
  id: string;
  authState: number;
}

export interface BeaconParams {
  /** The `t` value (time-string.ts), unescaped. */
  t: string;
  /** Plain parameters by query key (`mid`, `pageName`, `v1`, `pe`, `bw`, …); `g` is the whole page URL. */
  params: Record<string, string | undefined>;
  /** The `c.` block. */
  contextData?: ContextData;
  /** The `h.` block: the browser's high-entropy client hints (`collectHighEntropyUserAgentHints`). */
  clientHints?: ContextData;
  /** The `cid.` block: data source → id and authenticated state. */
  customerIds?: Record<string, CustomerId>;
  /** The ActivityMap block after `pev3`, keyed as context data (`a.activitymap.page`). */
  activityMap?: ContextData;
  /** Click data already encoded (a click's ActivityMap block and ClickMap fields), right after it. */
  clickData?: string;
  /** Postbacks: the tracker's index in `s_c_il`, named by `callback=` right after `pf=1`. */
  callbackIndex?: number;
  /** The `d.` block after `cid.`: the Audience Manager module's event call parameters. */
  audienceManager?: ContextData;
}

/** Parameters before the context data, in order. */
const HEAD_KEYS = ['sdid', 'ts', 'D', 'vid', 'mid', 'aid', 'aamlh', 'as', 'fid', 'vmt', 'vmf', 'ce', 'ns', 'cdp', 'cl', 'pageName', 'g', 'cp', 'r'] as const;
/** Parameters between the context data and the numbered variables. */
const MIDDLE_KEYS = ['cc', 'purchaseID', 'vvp', 'ch', 'server', 'pageType', 'xact', 'v0', 'state', 'zip', 'events', 'products', 'aamb', 'tnt'] as const;
const LINK_KEYS = ['pe', 'pev1', 'pev2', 'pev3'] as const;
const TAIL_KEYS = ['lat', 'lon', 's', 'c', 'j', 'v', 'k', 'bw', 'bh', 'ct', 'hp', '-g', 'mcorgid', 'ms_a', 'lrt'] as const;

/** `c1,v1,h1,l1,c2,v2,…,c75,v75,v76,…,v250`: the numbered variables interleaved by index. */
export const NUMBERED_KEYS: readonly string[] = (() => {
  const keys: string[] = [];
  for (let i = 1; i <= EVAR_COUNT; i++) {
    if (i <= PROP_COUNT) keys.push(`c${i}`);
    keys.push(`v${i}`);
    if (i <= HIER_COUNT) keys.push(`h${i}`);
    if (i <= LIST_COUNT) keys.push(`l${i}`);
  }
  return keys;
})();

/** Every plain parameter in wire order; `c.` and ActivityMap sit where `@c.` and `@am` are. */
export const PARAM_ORDER: readonly string[] = [...HEAD_KEYS, '@c.', '@h.', ...MIDDLE_KEYS, ...NUMBERED_KEYS, ...LINK_KEYS, '@am', ...TAIL_KEYS];

function pair(key: string, value: string): string {
  return `&${escapeValue(key)}=${escapeValue(value)}`;
}

interface Node {
  value?: string;
  children: Map<string, Node>;
}

function contextString(v: ContextValue): string | undefined {
  if (v === undefined || v === '' || v === 0) return undefined;
  // Booleans become `true`/`false`, which is what String() gives them.
  return String(v);
}

/**
 * A nested block: keys `a.b.k` become `&a.&b.&k=v&.b&.a` inside `&<name>.`…`&.<name>`,
 * siblings kept in the order they first appear. Empty when nothing survives.
 */
export function nestedBlock(name: string, data: ContextData): string {
  const root: Node = { children: new Map() };
  for (const [key, raw] of Object.entries(data)) {
    const value = contextString(raw);
    if (value === undefined) continue;
    let node = root;
    for (const part of key.split('.').filter((p) => p !== '')) {
      let next = node.children.get(part);
      if (!next) node.children.set(part, (next = { children: new Map() }));
      node = next;
    }
    // A key of dots alone leaves the root, whose value nothing writes.
    node.value = value;
  }
  const write = (node: Node): string => {
    let out = '';
    for (const [k, child] of node.children) {
      if (child.value !== undefined) out += pair(k, child.value);
      if (child.children.size > 0) out += `&${escapeValue(k)}.${write(child)}&.${escapeValue(k)}`;
    }
    return out;
  };
  const inner = write(root);
  return inner ? `&${name}.${inner}&.${name}` : '';
}

function customerIdBlock(ids: Record<string, CustomerId> | undefined): string {
  if (!ids) return '';
  const data: ContextData = {};
  for (const [type, { id, authState }] of Object.entries(ids)) {
    if (!id) continue;
    data[`${type}.id`] = id;
    data[`${type}.as`] = authState; // 0 (unknown) is dropped, as AppMeasurement omits `as=0`
  }
  return nestedBlock('cid', data);
}

/** The whole query string, `AQB=1…AQE=1`. Empty values are left out. */
export function buildQuery(input: BeaconParams): string {
  const params = { ...input.params };
  // `g` carries the first 255 characters of the page URL and `-g` the rest.
  const url = params.g;
  if (url && url.length > PAGE_URL_SPLIT) {
    params.g = url.slice(0, PAGE_URL_SPLIT);
    params['-g'] = url.slice(PAGE_URL_SPLIT);
  }
  // The callback's name goes unescaped, as AppMeasurement writes it (`s_c_il[1].doPostbacks`).
  const callback = input.callbackIndex !== undefined ? `callback=s_c_il[${input.callbackIndex}].doPostbacks&et=1&` : '';
  let q = `AQB=1&ndh=1&pf=1&${callback}t=${escapeValue(input.t)}`;
  q += customerIdBlock(input.customerIds);
  q += nestedBlock('d', input.audienceManager ?? {});
  for (const key of PARAM_ORDER) {
    if (key === '@c.') q += nestedBlock('c', input.contextData ?? {});
    else if (key === '@h.') q += nestedBlock('h', input.clientHints ?? {});
    else if (key === '@am') q += nestedBlock('c', input.activityMap ?? {}) + (input.clickData ?? '');
    else {
      const v = params[key];
      if (v) q += pair(key, v);
    }
  }
  return `${q}&AQE=1`;
}

/** `j` is what every modern browser reports; `v` (Java) is always off. */
export const JAVASCRIPT_VERSION = '1.6';
export const JAVA_ENABLED = 'N';

/** The browser values AppMeasurement computes once per page and sends on every hit. */
export function browserValues(page: PageInfo, snapshot: Snapshot): Record<'s' | 'c' | 'j' | 'v' | 'k' | 'bw' | 'bh', string> {
  return {
    s: `${page.screen.width}x${page.screen.height}`,
    c: String(page.screen.colorDepth),
    j: JAVASCRIPT_VERSION,
    v: JAVA_ENABLED,
    k: page.cookiesEnabled ? 'Y' : 'N',
    bw: String(snapshot.viewport.width),
    bh: String(snapshot.viewport.height),
  };
}
