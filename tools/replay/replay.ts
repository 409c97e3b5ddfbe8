/**
 * Replay: the engine in Node (or a browser) on a fixture (a page, its state, a fixed clock, seeded randomness,
 * events and canned network answers). Every effect comes out as one JSON line; the same fixture
 * gives the same lines, byte for byte. The fixture format is in docs/replay.md.
 */
import type { Effect, EngineEvent, NetResponse, PageInfo, RequestEffect, Snapshot } from '../../src/protocol.ts';
import { createEngine } from '../../src/worker-engine/core/engine.ts';
import { sha256Hex } from '../../src/worker-engine/core/sha256.ts';
import type { Container, EngineContext, EngineEnv } from '../../src/worker-engine/core/types.ts';

export interface FixtureResponse {
  /** A substring of the request URL. */
  match: string;
  status?: number;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  error?: 'network' | 'timeout';
  /** How many requests it answers; default: every one. */
  times?: number;
}

export type FixtureEvent =
  | string
  | (EngineEvent & {
      /** Milliseconds the clock moves on before this event (timers due meanwhile fire first). */
      advance?: number;
      /** Replaces the data layer from this event on. */
      dataLayer?: unknown;
      /** Page changes made before this event (`null` removes). */
      set?: { cookies?: Record<string, string | null>; session?: Record<string, string | null>; url?: string; gpc?: boolean };
    });

export interface Fixture {
  name?: string;
  /** `window.offtagConfig`. */
  settings?: unknown;
  page?: Partial<Omit<PageInfo, 'screen'>> & {
    url?: string;
    referrer?: string;
    viewport?: { width: number; height: number };
    screen?: PageInfo['screen'];
    gpc?: boolean;
  };
  cookies?: Record<string, string>;
  session?: Record<string, string>;
  dataLayer?: unknown;
  clock?: { start?: string | number; tz?: number };
  seed?: number;
  events: FixtureEvent[];
  responses?: FixtureResponse[];
}

export interface ReplayResult {
  effects: Effect[];
  lines: string[];
  /** The effects by what caused them: each fixture event (with its responses), and timers that fired between events. */
  steps: ReplayStep[];
  /** The page's cookies and sessionStorage after the last event. */
  cookies: Record<string, string>;
  session: Record<string, string>;
}

export interface ReplayStep {
  /** 1-based index in `fixture.events`; absent for timers that fired on their own. */
  index?: number;
  /** The event (`direct-call "Page View"`, `click https://…`) or `timers`. */
  label: string;
  effects: Effect[];
}

function eventLabel(e: EngineEvent): string {
  switch (e.type) {
    case 'direct-call':
      return `direct-call ${JSON.stringify(e.id)}`;
    case 'click':
      return `click ${e.link.href}`;
    case 'get-var':
      return `get-var ${JSON.stringify(e.name)}`;
    case 'set-var':
      return `set-var ${Object.keys(e.values).join(',')}`;
    case 'service-call':
      return `service-call ${e.service}.${e.method}`;
    case 'trigger':
      return `trigger ${e.on}`;
    default:
      return e.type;
  }
}

/** A small seeded generator (mulberry32): the same seed, the same sequence. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DEFAULT_START = Date.UTC(2026, 0, 15, 10, 30, 0);
/** Guards against a fixture whose timers re-arm forever. */
const MAX_TIMER_FIRINGS = 10_000;

export interface ReplayOptions<N extends string, S extends object> {
  /** The container to run (`offtag replay --container <file>`); default: the storefront. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any container's settings
  container?: Container<N, S, any>;
  /** Default: the container's own services. */
  services?: (ctx: EngineContext) => S;
}

async function defaults() {
  const [{ storefront }, { createServices }] = await Promise.all([
    import('../../containers/storefront/container.ts'),
    import('../../src/worker-engine/adobe-services.ts'),
  ]);
  return { container: storefront, services: createServices };
}

export async function replay<N extends string, S extends object>(
  fixture: Fixture,
  options: ReplayOptions<N, S> = {},
): Promise<ReplayResult> {
  const d = options.container ? undefined : await defaults();
  const container = (options.container ?? d!.container) as unknown as Container<string, object>;
  const services = (options.services ?? container.services ?? d?.services ?? (() => ({}))) as (ctx: EngineContext) => object;

  const start = fixture.clock?.start;
  let clock = typeof start === 'string' ? Date.parse(start) : (start ?? DEFAULT_START);
  const tz = fixture.clock?.tz ?? 0;
  const env: EngineEnv = {
    now: () => clock,
    random: seededRandom(fixture.seed ?? 1),
    // WebCrypto, present in Node and in browsers alike, so the same replay runs in both.
    sha256: sha256Hex,
  };
  const p = fixture.page ?? {};
  const url = p.url ?? 'https://www.example.com/';
  const page: PageInfo = {
    userAgent: p.userAgent ?? 'Mozilla/5.0 (replay)',
    language: p.language ?? 'en-US',
    screen: p.screen ?? { width: 1920, height: 1080, colorDepth: 24 },
    cookieDomain: p.cookieDomain ?? '',
    origin: p.origin ?? new URL(url).origin,
    secure: p.secure ?? url.startsWith('https:'),
    cookiesEnabled: p.cookiesEnabled ?? true,
  };
  const world = {
    url,
    gpc: p.gpc ?? false,
    cookies: { ...(fixture.cookies ?? {}) } as Record<string, string>,
    session: { ...(fixture.session ?? {}) } as Record<string, string>,
    dataLayer: structuredClone(fixture.dataLayer),
  };
  const responses = (fixture.responses ?? []).map((r) => ({ ...r, left: r.times ?? Infinity }));
  const timers: Array<{ id: string; due: number; order: number }> = [];
  let timerOrder = 0;
  let applied = 0;
  let seq = 0;
  const out: Effect[] = [];
  const steps: ReplayStep[] = [];
  let step: ReplayStep = { label: 'timers', effects: [] };
  const begin = (next: ReplayStep) => {
    if (step.effects.length || step.index !== undefined) steps.push(step);
    step = next;
  };

  const engine = createEngine({ container, services, env, config: fixture.settings, page });

  const answer = (req: RequestEffect): NetResponse => {
    const r = responses.find((c) => c.left > 0 && req.url.includes(c.match));
    if (!r) return { status: 0, body: '', error: 'network' };
    r.left--;
    if (r.error) return { status: 0, body: '', error: r.error };
    return { status: r.status ?? 200, body: typeof r.body === 'string' ? r.body : JSON.stringify(r.body ?? {}) };
  };

  const applyToPage = (e: Effect) => {
    if (e.type === 'cookie') {
      if (e.expires !== undefined && e.expires <= clock) delete world.cookies[e.name];
      else world.cookies[e.name] = e.value;
    } else if (e.type === 'storage') {
      if (e.value === null) delete world.session[e.key];
      else world.session[e.key] = e.value;
    }
  };

  const run = async (input: Parameters<typeof engine.dispatch>[0]) => {
    const batch = await engine.dispatch(input);
    const followUps: Array<() => Promise<void>> = [];
    for (const e of batch.effects) {
      out.push(e);
      step.effects.push(e);
      applyToPage(e);
      if (e.type === 'timer') timers.push({ id: e.id, due: clock + e.delayMs, order: timerOrder++ });
      if (e.type === 'request' && !e.fireAndForget) {
        const response = answer(e);
        followUps.push(() => run({ type: 'response', id: e.id, response }));
      }
    }
    if (batch.n) applied = batch.n;
    for (const f of followUps) await f();
  };

  let firings = 0;
  const fireTimersUntil = async (until: number) => {
    for (;;) {
      timers.sort((a, b) => a.due - b.due || a.order - b.order);
      const next = timers[0];
      if (!next || next.due > until || firings++ > MAX_TIMER_FIRINGS) return;
      timers.shift();
      clock = Math.max(clock, next.due);
      await run({ type: 'timer', id: next.id });
    }
  };

  const cookieString = () =>
    Object.entries(world.cookies)
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');

  for (const raw of fixture.events) {
    const ev = typeof raw === 'string' ? { type: 'direct-call' as const, id: raw } : raw;
    const { advance, dataLayer, set, ...event } = ev as Exclude<FixtureEvent, string>;
    begin({ label: 'timers', effects: [] });
    if (advance) {
      await fireTimersUntil(clock + advance);
      clock += advance;
    }
    if (dataLayer !== undefined) world.dataLayer = structuredClone(dataLayer);
    for (const [k, v] of Object.entries(set?.cookies ?? {})) v === null ? delete world.cookies[k] : (world.cookies[k] = v);
    for (const [k, v] of Object.entries(set?.session ?? {})) v === null ? delete world.session[k] : (world.session[k] = v);
    if (set?.url) world.url = set.url;
    if (set?.gpc !== undefined) world.gpc = set.gpc;
    const snapshot: Snapshot = {
      seq: ++seq,
      applied,
      time: clock,
      tz,
      url: world.url,
      referrer: p.referrer ?? '',
      cookie: cookieString(),
      session: { ...world.session },
      dataLayer: structuredClone(world.dataLayer),
      viewport: p.viewport ?? { width: 1280, height: 720 },
      gpc: world.gpc,
    };
    begin({ index: seq, label: eventLabel(event as EngineEvent), effects: [] });
    await run({ type: 'event', event: event as EngineEvent, snapshot });
  }
  begin({ label: 'timers', effects: [] });
  await fireTimersUntil(Infinity);
  begin({ label: 'timers', effects: [] });

  return {
    effects: out,
    lines: out.map((e) => JSON.stringify(e)),
    steps,
    cookies: world.cookies,
    session: world.session,
  };
}
