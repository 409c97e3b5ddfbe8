/**
 * The one test harness of the unit tests: a fixed clock, a seeded random, the page facts a site
 * gives, snapshots, and the real engine driven event by event (`drive`). The families' entry
 * points are presets of it:
 *
 * - `makeEngine(container, config, page)`: any container on `SITES.shop`, events one by one
 *   (the engine core's tests);
 * - `harness(opts)`: the storefront container on `SITES.keepstock`, with recording services and a
 *   page that keeps its cookies and sessionStorage between events (the storefront's tests);
 * - `makeContext(opts)`: an EngineContext on `SITES.example` for the services that run inside
 *   one (the tracker's tests), with `stubVisitor`.
 */
import type { Effect, EffectBatch, EngineEvent, LogLevel, PageInfo, RequestEffect, Snapshot } from '../../src/protocol.ts';
import { storefront } from '../../containers/storefront/container.ts';
import { parseCookieString } from '../../src/worker-engine/core/cookies.ts';
import { createEngine, type Engine } from '../../src/worker-engine/core/engine.ts';
import { emptySnapshot } from '../../src/worker-engine/core/page-state.ts';
import { resolveSettings } from '../../src/worker-engine/core/settings.ts';
import { sha256Hex } from '../../src/worker-engine/core/sha256.ts';
import type { Container, CookieJar, EngineContext, EngineEnv } from '../../src/worker-engine/core/types.ts';
import type { AnalyticsHit, AnalyticsService, Services, VisitorService, VisitorValues } from '../../src/worker-engine/services.ts';
import { seededRandom as replayRandom } from '../../tools/replay/replay.ts';

// ---- clock, random, page ----------------------------------------------------------------------

/** 2026-01-15 10:00:00 UTC: the engine core's tests. */
export const T0 = Date.UTC(2026, 0, 15, 10, 0, 0);
/** 2026-01-15 10:30:00 UTC: the storefront's tests. */
export const FIXED = Date.UTC(2026, 0, 15, 10, 30, 0);
/** 2026-03-24 14:04:36 in India (UTC+5:30; getTimezoneOffset() = -330), a Tuesday: the tracker's tests (AppMeasurement 2.27.0: beacon URL and parameters's example). */
export const FIXED_TIME = Date.UTC(2026, 2, 24, 8, 34, 36);
export const FIXED_TZ = -330;

/** The replay's generator (mulberry32): the same sequence on every run. */
export const seededRandom = (seed = 42): (() => number) => replayRandom(seed);

const BROWSER: Pick<PageInfo, 'language' | 'screen' | 'secure' | 'cookiesEnabled'> = {
  language: 'en-US',
  screen: { width: 1920, height: 1080, colorDepth: 24 },
  secure: true,
  cookiesEnabled: true,
};

/** The sites the tests run on: the page facts the bridge would give there. */
export const SITES = {
  /** No cookie domain (a host the probe found none for). */
  shop: { ...BROWSER, userAgent: 'test', cookieDomain: '', origin: 'https://shop.example.com' },
  /** As the bridge's probe gives it on www.keepstock.example: the registrable domain with a leading dot. */
  keepstock: { ...BROWSER, userAgent: 'Mozilla/5.0 (test)', cookieDomain: '.keepstock.example', origin: 'https://www.keepstock.example' },
  example: { ...BROWSER, userAgent: 'test', cookieDomain: 'example.com', origin: 'https://www.example.com' },
} satisfies Record<string, PageInfo>;

/** The engine's environment: the clock stands still until a test moves it (`env.clock`). */
export function testEnv(start = T0, random = seededRandom(7)): EngineEnv & { clock: number } {
  const env = { clock: start, now: () => env.clock, random, sha256: sha256Hex };
  return env;
}

/** A snapshot of the page at `T0` on shop.example.com; `over` replaces any field. */
export function snap(over: Partial<Snapshot> = {}): Snapshot {
  return { ...emptySnapshot(), seq: 1, time: T0, url: 'https://shop.example.com/p', ...over };
}

// ---- effects ----------------------------------------------------------------------------------

type Effects = EffectBatch | readonly { type: string }[];
const effectList = (b: Effects): readonly Effect[] => ('effects' in b ? b.effects : b) as readonly Effect[];

/** The messages of a batch's (or a list's) log effects, of one level or all. */
export function logsOf(b: Effects, level?: string): string[] {
  return effectList(b)
    .filter((e): e is Extract<Effect, { type: 'log' }> => e.type === 'log' && (!level || e.level === level))
    .map((e) => e.message);
}
export const logs = (effects: readonly { type: string }[]): string[] => logsOf(effects);

export function effectsOf<T extends Effect['type']>(b: Effects, type: T): Extract<Effect, { type: T }>[] {
  return effectList(b).filter((e): e is Extract<Effect, { type: T }> => e.type === type);
}

/** The data element values a batch published. */
export function varsOf(batch: EffectBatch): Record<string, unknown> {
  return Object.assign({}, ...effectsOf(batch, 'vars').map((e) => (e as { values: object }).values));
}

export const cookieString = (cookies: Record<string, string>): string =>
  Object.entries(cookies)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');

// ---- the engine, event by event ---------------------------------------------------------------

export interface DriveOptions<N extends string, X> {
  container: Container<N, any, X>;
  services?: (ctx: EngineContext) => object;
  config?: unknown;
  page: PageInfo;
  env: EngineEnv;
  /** The page keeps its cookies and sessionStorage between events and applies each batch's writes (starting with these cookies), as the bridge does. */
  world?: { cookies: Record<string, string> };
  /** What each event's snapshot has unless the test says otherwise. */
  defaults: (now: number) => Partial<Snapshot>;
}

export interface Drive {
  engine: Engine;
  /** Dispatches an event (a string is a direct call) with a snapshot of `page` over the defaults. */
  fire(event: EngineEvent | string, page?: Partial<Snapshot>): Promise<EffectBatch>;
  /** The page's cookies and sessionStorage now (with `world`). */
  world: { cookies: Record<string, string>; session: Record<string, string | null> };
}

export function drive<N extends string, X>(o: DriveOptions<N, X>): Drive {
  // The engine's messages are what these tests read: printed as with debug off on a container that says `alwaysLog`.
  const config = o.config === undefined || (o.config && typeof o.config === 'object' && !Array.isArray(o.config) && !('alwaysLog' in o.config)) ? { alwaysLog: true, ...(o.config as object) } : o.config;
  const engine = createEngine({ container: o.container, services: o.services ?? (() => ({})), env: o.env, config, page: o.page });
  let seq = 0;
  let applied = 0;
  const world: Drive['world'] = { cookies: { ...(o.world?.cookies ?? {}) }, session: {} };
  /** Cookie expiry times, so cookies lapse as the clock moves on, as in a browser. */
  const expiries = new Map<string, number>();
  const now = () => o.env.now();
  const keptPage = (page: Partial<Snapshot>): Partial<Snapshot> => {
    if (page.cookie !== undefined) {
      world.cookies = parseCookieString(page.cookie);
      expiries.clear();
    }
    for (const [name, at] of expiries) {
      if (at <= now()) {
        delete world.cookies[name];
        expiries.delete(name);
      }
    }
    if (page.session !== undefined) world.session = page.session;
    return { cookie: cookieString(world.cookies), session: world.session, applied, time: now() };
  };
  const keep = (batch: EffectBatch) => {
    for (const e of batch.effects) {
      if (e.type === 'cookie') {
        if (e.expires !== undefined && e.expires <= now()) delete world.cookies[e.name];
        else world.cookies[e.name] = e.value;
        if (e.expires === undefined) expiries.delete(e.name);
        else expiries.set(e.name, e.expires);
      } else if (e.type === 'storage') {
        world.session = { ...world.session, [e.key]: e.value };
      }
    }
    if (batch.n) applied = batch.n;
  };
  return {
    engine,
    world,
    async fire(event, page = {}) {
      const snapshot: Snapshot = { ...emptySnapshot(), ...o.defaults(now()), ...page, ...(o.world ? keptPage(page) : {}), seq: ++seq };
      const ev: EngineEvent = typeof event === 'string' ? { type: 'direct-call', id: event } : event;
      const batch = await engine.dispatch({ type: 'event', event: ev, snapshot });
      if (o.world) keep(batch);
      return batch;
    },
  };
}

/** Any container on shop.example.com (`page` replaces facts of it, e.g. `{ cookieDomain: '.example.com' }`). */
export function makeEngine<N extends string, X>(container: Container<N, object, X>, config: unknown = {}, page: Partial<PageInfo> = {}) {
  const env = testEnv();
  const d = drive({ container, env, config, page: { ...SITES.shop, ...page }, defaults: () => ({ time: T0, url: 'https://shop.example.com/p' }) });
  return { engine: d.engine, env, fire: (event: EngineEvent, over: Partial<Snapshot> = {}) => d.fire(event, over) };
}

// ---- the storefront container ------------------------------------------------------------------

export interface Recorder {
  hits: AnalyticsHit[];
  visitorStarts: number;
}

/** A tracker and a visitor service that only record what the rules ask of them. */
export interface ServiceOptions {
  visitorStart?: () => Promise<void>;
  /** What `analytics.track` answers after recording the hit. */
  track?: () => Promise<void>;
}

export function recordingServices(rec: Recorder, opts: ServiceOptions = {}): Services {
  const visitor: VisitorService = {
    orgId: '0123456789ABCDEF01234567@AdobeOrg',
    start() {
      rec.visitorStarts++;
      return opts.visitorStart ? opts.visitorStart() : Promise.resolve();
    },
    getVisitorValues: async () => ({}),
    isApproved: () => true,
    getCustomerIDs: () => ({}),
    getSupplementalDataID: () => '',
    call: async () => ({}),
    onFrameMessage: () => undefined,
  };
  const analytics: AnalyticsService = {
    track(hit) {
      rec.hits.push(hit);
      return opts.track ? opts.track() : Promise.resolve();
    },
    onClick: () => Promise.resolve(),
    onBeaconDelivered: () => undefined,
  };
  return { visitor, analytics };
}

export interface Harness extends Drive {
  rec: Recorder;
  /** Moves the fixed clock on. */
  advance(ms: number): void;
}

/**
 * The storefront container on www.keepstock.example at `FIXED`, with recording services. The page
 * keeps its cookies and sessionStorage between events and applies each batch's writes, as the
 * bridge does; `page.cookie` / `page.session` replace them. Tracking consent is given unless a
 * test replaces the cookies.
 */
export function harness(opts: ServiceOptions & { config?: unknown; page?: Partial<PageInfo> } = {}): Harness {
  const env = testEnv(FIXED, seededRandom(1));
  const rec: Recorder = { hits: [], visitorStarts: 0 };
  const d = drive({
    container: storefront,
    services: () => recordingServices(rec, opts),
    env: { ...env, now: () => env.clock, sha256: async () => '' },
    config: opts.config,
    page: { ...SITES.keepstock, ...opts.page },
    world: { cookies: { sat_track: 'true' } },
    defaults: (time) => ({ time, url: 'https://www.keepstock.example/catalog', viewport: { width: 1280, height: 720 } }),
  });
  return {
    ...d,
    rec,
    advance(ms) {
      env.clock += ms;
    },
  };
}

/** A value as `_satellite.getVar` gets it: a get-var event's reply. */
export async function getVar(h: Drive, name: string, page: Partial<Snapshot> = {}): Promise<{ value: unknown; batch: EffectBatch }> {
  const batch = await h.fire({ type: 'get-var', name }, page);
  return { value: effectsOf(batch, 'reply')[0]?.value, batch };
}

/** A data layer whose every property read throws: the failure path of data layer reads. */
export function throwingDataLayer(message = 'data layer unreadable'): unknown {
  return new Proxy(
    {},
    {
      get() {
        throw new Error(message);
      },
    },
  );
}

/** A session store copy whose every read throws: the failure path of sessionStorage reads. */
export function throwingSession(message = 'session unreadable'): Record<string, string | null> {
  return throwingDataLayer(message) as Record<string, string | null>;
}

// ---- an EngineContext, for the services that run inside one ------------------------------------

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

export interface TestContext extends EngineContext {
  effects: Effect[];
  logs: { level: LogLevel; message: string }[];
  monitors: { name: string; data: unknown }[];
  requests: Omit<RequestEffect, 'type' | 'id'>[];
  jar: Map<string, string>;
  setSnapshot(s: Snapshot): void;
}

/** An EngineContext on www.example.com at `FIXED_TIME` (India), cookies over a Map (tracking consent given), requests recorded and answered with nothing. */
export function makeContext(opts: { config?: Record<string, unknown>; cookies?: Record<string, string>; snapshot?: Partial<Snapshot>; page?: Partial<PageInfo> } = {}): TestContext {
  const { settings, problems } = resolveSettings(opts.config ?? {}, storefront);
  if (problems.length) throw new Error(problems.join('\n'));
  const jar = new Map(Object.entries({ sat_track: 'true', ...(opts.cookies ?? {}) }));
  const effects: Effect[] = [];
  const logs: TestContext['logs'] = [];
  const monitors: TestContext['monitors'] = [];
  const requests: TestContext['requests'] = [];
  let snapshot = makeSnapshot(opts.snapshot);
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
  return {
    settings,
    env: { now: () => FIXED_TIME, random: seededRandom(), sha256: async () => '0'.repeat(64) },
    page: { ...SITES.example, ...opts.page },
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
