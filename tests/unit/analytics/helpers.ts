/** A small EngineContext for the tracker's tests: fixed clock, seeded random, cookies over a Map. */
import type { Effect, LogLevel, PageInfo, RequestEffect, Snapshot } from '../../../src/protocol.ts';
import { resolveSettings } from '../../../src/worker-engine/core/settings.ts';
import type { CookieJar, EngineContext } from '../../../src/worker-engine/core/types.ts';
import type { VisitorService, VisitorValues } from '../../../src/worker-engine/services.ts';
import { seededRandom as replayRandom } from '../../../tools/replay/replay.ts';
import { storefront } from '../../../containers/storefront/container.ts';

/** 2026-03-24 14:04:36 in India (UTC+5:30; getTimezoneOffset() = -330), a Tuesday: appmeasurement.md §1's example. */
export const FIXED_TIME = Date.UTC(2026, 2, 24, 8, 34, 36);
export const FIXED_TZ = -330;

/** The replay's generator (mulberry32): the same sequence on every run. */
export const seededRandom = (seed = 42): (() => number) => replayRandom(seed);

export function makeSnapshot(over: Partial<Snapshot> = {}): Snapshot {
  return {
    seq: 1,
    applied: 0,
    time: FIXED_TIME,
    tz: FIXED_TZ,
    url: 'https://www.example.com/shop/product?id=1',
    referrer: 'https://search.example.net/?q=gloves',
    cookie: '',
    session: {},
    dataLayer: undefined,
    viewport: { width: 1280, height: 720 },
    gpc: false,
    ...over,
  };
}

export const PAGE: PageInfo = {
  userAgent: 'test',
  language: 'en-US',
  screen: { width: 1920, height: 1080, colorDepth: 24 },
  cookieDomain: 'example.com',
  origin: 'https://www.example.com',
  secure: true,
  cookiesEnabled: true,
};

export interface TestContext extends EngineContext {
  effects: Effect[];
  logs: { level: LogLevel; message: string }[];
  monitors: { name: string; data: unknown }[];
  requests: Omit<RequestEffect, 'type' | 'id'>[];
  jar: Map<string, string>;
  setSnapshot(s: Snapshot): void;
}

export function makeContext(opts: { config?: Record<string, unknown>; cookies?: Record<string, string>; snapshot?: Partial<Snapshot>; page?: Partial<PageInfo> } = {}): TestContext {
  const { settings, problems } = resolveSettings(opts.config ?? {}, storefront);
  if (problems.length) throw new Error(problems.join('\n'));
  const jar = new Map(Object.entries({ sat_track: 'true', ...(opts.cookies ?? {}) }));
  const effects: Effect[] = [];
  const logs: TestContext['logs'] = [];
  const monitors: TestContext['monitors'] = [];
  const requests: TestContext['requests'] = [];
  let snapshot = makeSnapshot(opts.snapshot);
  const random = seededRandom();
  let ids = 0;
  const cookies: CookieJar = {
    get: (n) => jar.get(n),
    all: () => Object.fromEntries(jar),
    set(name, value, options) {
      jar.set(name, value);
      effects.push({ type: 'cookie', name, value, ...options });
    },
    remove(name) {
      jar.delete(name);
    },
  };
  const ctx: TestContext = {
    settings,
    env: { now: () => FIXED_TIME, random, sha256: async () => '0'.repeat(64) },
    page: { ...PAGE, ...opts.page },
    snapshot: () => snapshot,
    cookies,
    session: { get: () => null, set: () => {} },
    emit: (e) => effects.push(e),
    log: (level, message) => logs.push({ level, message }),
    monitor: (name, data) => monitors.push({ name, data }),
    fetch: async (r) => {
      requests.push(r);
      return { status: 0, body: '' };
    },
    sleep: async () => {},
    nextId: (p) => `${p}${++ids}`,
    track: (p) => p,
    effects,
    logs,
    monitors,
    requests,
    jar,
    setSnapshot: (s) => {
      snapshot = s;
    },
  };
  return ctx;
}

export interface StubVisitorOptions {
  values?: VisitorValues;
  approved?: Partial<Record<string, boolean>>;
  customerIds?: Record<string, { id: string; authState: number }>;
  /** Resolve getVisitorValues only when `release()` is called. */
  deferred?: boolean;
  /** A supplemental data id that exists already (handed over, or made by Target); none by default. */
  sdid?: string;
}

/** What the stub makes when a consumer asks it to generate an id. */
export const GENERATED_SDID = '5F1A2B3C4D5E6F70-1A2B3C4D5E6F7081';

export const VALUES: VisitorValues = {
  MCMID: '12345678901234567890123456789012345678',
  MCAID: undefined,
  MCAAMLH: '7',
  MCAAMB: 'j8Odv6LonN4r3an7LhD3WZrU1bUpAkFkkiY1ncBR96t2PTI',
};

export function stubVisitor(opts: StubVisitorOptions = {}): VisitorService & { calls: number; release(): void; sdidRequests: Array<[string, boolean]> } {
  let release = () => {};
  const gate = opts.deferred ? new Promise<void>((r) => (release = r)) : Promise.resolve();
  const v = {
    calls: 0,
    release: () => release(),
    start: async () => {},
    async getVisitorValues() {
      v.calls++;
      await gate;
      return { ...VALUES, ...opts.values };
    },
    orgId: '0123456789ABCDEF01234567@AdobeOrg',
    isApproved: (c: string) => opts.approved?.[c] ?? true,
    getCustomerIDs: () => opts.customerIds ?? {},
    sdidRequests: [] as Array<[string, boolean]>,
    getSupplementalDataID(consumer: string, noGenerate: boolean) {
      v.sdidRequests.push([consumer, noGenerate]);
      return opts.sdid ?? (noGenerate ? '' : GENERATED_SDID);
    },
    call: async () => ({}),
    onFrameMessage: () => {},
  };
  return v;
}

/** Query keys in wire order. */
export function keysOf(urlOrQuery: string): string[] {
  const q = urlOrQuery.includes('?') ? urlOrQuery.slice(urlOrQuery.indexOf('?') + 1) : urlOrQuery;
  return q.split('&').map((p) => decodeURIComponent(p.split('=')[0]!));
}
