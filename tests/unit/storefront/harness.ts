/**
 * Drives the real engine with the storefront container, a fixed clock, and recording services,
 * so tests assert on the effects a batch carries and the hits the tracker was asked for.
 */
import type { Effect, EffectBatch, EngineEvent, PageInfo, Snapshot } from '../../../src/protocol.ts';
import { storefront } from '../../../containers/storefront/container.ts';
import { parseCookieString } from '../../../src/worker-engine/core/cookies.ts';
import { createEngine, type Engine } from '../../../src/worker-engine/core/engine.ts';
import { emptySnapshot } from '../../../src/worker-engine/core/page-state.ts';
import type { AnalyticsHit, AnalyticsService, Services, VisitorService } from '../../../src/worker-engine/services.ts';

/** 2026-01-15 10:30:00 UTC. */
export const FIXED = Date.UTC(2026, 0, 15, 10, 30, 0);

export const PAGE: PageInfo = {
  userAgent: 'Mozilla/5.0 (test)',
  language: 'en-US',
  screen: { width: 1920, height: 1080, colorDepth: 24 },
  /** As the bridge's probe gives it on www.keepstock.example: the registrable domain with a leading dot. */
  cookieDomain: '.keepstock.example',
  origin: 'https://www.keepstock.example',
  secure: true,
  cookiesEnabled: true,
};

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

/** A small seeded generator, so nothing random differs between runs. */
function seeded(seed = 1): () => number {
  let a = seed;
  return () => {
    a = (a * 16807) % 2147483647;
    return (a - 1) / 2147483646;
  };
}

export interface Harness {
  engine: Engine;
  rec: Recorder;
  /**
   * Dispatches an event with a snapshot built from `page` over the defaults. The page keeps its
   * cookies and sessionStorage between events and applies each batch's writes, as the bridge
   * does; `page.cookie` / `page.session` replace them.
   */
  fire(event: EngineEvent | string, page?: Partial<Snapshot>): Promise<EffectBatch>;
  /** The page's cookies and sessionStorage now. */
  world: { cookies: Record<string, string>; session: Record<string, string | null> };
  /** Moves the fixed clock on. */
  advance(ms: number): void;
}

export function harness(
  opts: ServiceOptions & { config?: unknown; page?: Partial<PageInfo> } = {},
): Harness {
  let now = FIXED;
  let seq = 0;
  let applied = 0;
  const rec: Recorder = { hits: [], visitorStarts: 0 };
  const engine = createEngine({
    container: storefront,
    services: () => recordingServices(rec, opts),
    env: { now: () => now, random: seeded(), sha256: async () => '' },
    config: opts.config,
    page: { ...PAGE, ...opts.page },
  });
  // Tracking consent is given unless a test replaces the cookies (`page.cookie`).
  const world: Harness['world'] = { cookies: { sat_track: 'true' }, session: {} };
  /** Cookie expiry times, so cookies lapse as the clock moves on, as in a browser. */
  const expiries = new Map<string, number>();
  return {
    engine,
    rec,
    world,
    advance(ms) {
      now += ms;
    },
    async fire(event, page = {}) {
      if (page.cookie !== undefined) {
        world.cookies = parseCookieString(page.cookie);
        expiries.clear();
      }
      for (const [name, at] of expiries) {
        if (at <= now) {
          delete world.cookies[name];
          expiries.delete(name);
        }
      }
      if (page.session !== undefined) world.session = page.session;
      const snapshot: Snapshot = {
        ...emptySnapshot(),
        url: 'https://www.keepstock.example/catalog',
        viewport: { width: 1280, height: 720 },
        ...page,
        cookie: cookieString(world.cookies),
        session: world.session,
        seq: ++seq,
        applied,
        time: now,
      };
      const ev: EngineEvent = typeof event === 'string' ? { type: 'direct-call', id: event } : event;
      const batch = await engine.dispatch({ type: 'event', event: ev, snapshot });
      for (const e of batch.effects) {
        if (e.type === 'cookie') {
          if (e.expires !== undefined && e.expires <= now) delete world.cookies[e.name];
          else world.cookies[e.name] = e.value;
          if (e.expires === undefined) expiries.delete(e.name);
          else expiries.set(e.name, e.expires);
        } else if (e.type === 'storage') {
          world.session = { ...world.session, [e.key]: e.value };
        }
      }
      if (batch.n) applied = batch.n;
      return batch;
    },
  };
}

/** The data element values a batch published. */
export function varsOf(batch: EffectBatch): Record<string, unknown> {
  return Object.assign({}, ...batch.effects.filter((e) => e.type === 'vars').map((e) => (e as { values: object }).values));
}

export function logsOf(batch: EffectBatch, level?: string): string[] {
  return batch.effects
    .filter((e): e is Extract<Effect, { type: 'log' }> => e.type === 'log' && (!level || e.level === level))
    .map((e) => e.message);
}

export function effectsOf<T extends Effect['type']>(batch: EffectBatch, type: T): Extract<Effect, { type: T }>[] {
  return batch.effects.filter((e): e is Extract<Effect, { type: T }> => e.type === type);
}

/** A value as `_satellite.getVar` gets it: a get-var event's reply. */
export async function getVar(h: Harness, name: string, page: Partial<Snapshot> = {}): Promise<{ value: unknown; batch: EffectBatch }> {
  const batch = await h.fire({ type: 'get-var', name }, page);
  const reply = effectsOf(batch, 'reply')[0];
  return { value: reply?.value, batch };
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
  return new Proxy(
    {},
    {
      get() {
        throw new Error(message);
      },
    },
  );
}

export const cookieString = (cookies: Record<string, string>): string =>
  Object.entries(cookies)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
