/**
 * A small EngineContext for the visitor tests: fixed clock, seeded random, a cookie jar over a
 * Map, effects collected in an array, and `fetch` answered by a function the test gives.
 */
import type { Effect, LogLevel, NetResponse, PageInfo, RequestEffect, Snapshot } from '../../../src/protocol.ts';
import { resolveSettings } from '../../../src/worker-engine/core/settings.ts';
import type { CookieJar, EngineContext } from '../../../src/worker-engine/core/types.ts';
import { seededRandom as replayRandom } from '../../../tools/replay/replay.ts';
import { sha256Hex } from '../../../src/worker-engine/core/sha256.ts';
import { storefront } from '../../../containers/storefront/container.ts';

export type FetchHandler = (req: Omit<RequestEffect, 'type' | 'id'>) => NetResponse | Promise<NetResponse>;

export interface TestContext extends EngineContext {
  clock: { now: number };
  effects: Effect[];
  logs: Array<{ level: LogLevel; message: string }>;
  requests: Array<Omit<RequestEffect, 'type' | 'id'>>;
  /** The devtools feed (`ctx.monitor`), in order. */
  monitors: Array<{ name: string; data: unknown }>;
  jar: Map<string, { value: string; expires?: number; domain?: string }>;
  /** The jar as a `document.cookie` string (for a "reload"). */
  cookieString(): string;
}

/** The replay's generator (mulberry32): the same sequence on every run. */
export const seededRandom = (seed = 42): (() => number) => replayRandom(seed);

export { sha256Hex };

export const FIXED_NOW = Date.UTC(2024, 5, 24, 12, 0, 0); // 2024-06-24, day 19899 (MCIDTS)
/** FIXED_NOW in seconds (the AMCV cookie's expiry stamps). */
export const T = Math.floor(FIXED_NOW / 1000);

/** The storefront's org id, its two cookie names, and a visitor id, as the visitor tests use them. */
export const ORG = '0123456789ABCDEF01234567@AdobeOrg';
export const AMCV = 'AMCV_0123456789ABCDEF01234567%40AdobeOrg';
export const AMCVS = 'AMCVS_0123456789ABCDEF01234567%40AdobeOrg';
export const MID = '87281349862349576210981234567890123456';

export interface ContextOptions {
  config?: Record<string, unknown>;
  fetch?: FetchHandler;
  now?: number;
  url?: string;
  cookies?: Record<string, string>;
  page?: Partial<PageInfo>;
}

export function makeContext(opts: ContextOptions = {}): TestContext {
  const settings = resolveSettings(opts.config ?? {}, storefront).settings;
  const clock = { now: opts.now ?? FIXED_NOW };
  const random = seededRandom();
  const effects: Effect[] = [];
  const logs: TestContext['logs'] = [];
  const requests: TestContext['requests'] = [];
  const monitors: TestContext['monitors'] = [];
  const jar: TestContext['jar'] = new Map();
  for (const [k, v] of Object.entries(opts.cookies ?? {})) jar.set(k, { value: v });
  const url = opts.url ?? 'https://www.example.com/products/widgets?x=1';
  const page: PageInfo = {
    userAgent: 'test',
    language: 'en-US',
    screen: { width: 1280, height: 800, colorDepth: 24 },
    cookieDomain: 'example.com',
    origin: new URL(url).origin,
    secure: url.startsWith('https:'),
    cookiesEnabled: true,
    ...opts.page,
  };
  const live = (name: string) => {
    const c = jar.get(name);
    if (!c) return undefined;
    if (c.expires !== undefined && c.expires <= clock.now) {
      jar.delete(name);
      return undefined;
    }
    return c.value;
  };
  const cookies: CookieJar = {
    get: live,
    all() {
      const out: Record<string, string> = {};
      for (const k of jar.keys()) {
        const v = live(k);
        if (v !== undefined) out[k] = v;
      }
      return out;
    },
    set(name, value, o = {}) {
      const entry: { value: string; expires?: number; domain?: string } = { value };
      if (o.expires !== undefined) entry.expires = o.expires;
      if (o.domain !== undefined) entry.domain = o.domain;
      jar.set(name, entry);
      effects.push({ type: 'cookie', name, value, ...o });
    },
    remove(name) {
      jar.delete(name);
    },
  };
  const session = new Map<string, string>();
  let ids = 0;
  const snapshot: Snapshot = {
    seq: 1,
    applied: 0,
    time: clock.now,
    tz: 0,
    url,
    referrer: '',
    cookie: '',
    session: {},
    dataLayer: undefined,
    viewport: { width: 1280, height: 800 },
    gpc: false,
  };
  const ctx: TestContext = {
    settings,
    clock,
    effects,
    logs,
    requests,
    monitors,
    jar,
    env: { now: () => clock.now, random, sha256: sha256Hex },
    page,
    snapshot: () => snapshot,
    cookies,
    session: { get: (k) => session.get(k) ?? null, set: (k, v) => (v === null ? session.delete(k) : session.set(k, v)) },
    emit: (e) => effects.push(e),
    log: (level, message) => logs.push({ level, message }),
    monitor: (name, data) => void monitors.push({ name, data }),
    async fetch(req) {
      requests.push(req);
      if (!opts.fetch) return { status: 0, body: '', error: 'network' };
      return opts.fetch(req);
    },
    async sleep(ms) {
      clock.now += ms;
    },
    nextId: (prefix) => `${prefix}-${++ids}`,
    track: (p) => p,
    cookieString() {
      return [...jar.keys()].map((k) => `${k}=${live(k)}`).join('; ');
    },
  };
  return ctx;
}

/** A JSON reply as the real ID service gives one. */
export function idReply(fields: Record<string, unknown> = {}): NetResponse {
  return {
    status: 200,
    body: JSON.stringify({
      d_mid: '87281349862349576210981234567890123456',
      id_sync_ttl: 604800,
      d_blob: 'RKhpRz8krg2tLO6pguXWp5olkAcUniQYPHaMWWgdJ3xzPWQmdj0y',
      dcs_region: 7,
      d_region: 7,
      ibs: [{ id: '411', tag: 'img', url: ['//cm.example.net/pixel?id=1'], ttl: 10080, fireURLSync: 1, syncOnPage: 0 }],
      subdomain: 'dpm',
      tid: 'abc',
      ...fields,
    }),
  };
}
