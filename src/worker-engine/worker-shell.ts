/**
 * The worker shell: binds the engine to the two ports the bridge hands over (the hot path, and
 * the Comlink API), `fetch`, timers and the durable beacon queue.
 */
import { expose } from 'comlink';
import { completePageInfo, cookieString, forPage, MONITOR_LIMIT, ORPHAN_KEY, type Snapshot, type Effect, type EffectBatch, type EngineInput, type InitMessage, type RequestEffect, type WorkerApi } from '../protocol.ts';
import { createEngine, inputFailed } from './core/engine.ts';
import { safeJson } from './core/safe-json.ts';
import { parseCookieString } from './core/cookies.ts';
import { readSetOf } from './core/data-layer.ts';
import { sha256Hex } from './core/sha256.ts';
import type { Container, EngineContext, EngineEnv } from './core/types.ts';
import { createHost, fetchWithTimeout, type Host } from './host.ts';
import { createSessionRecorder } from './session-recorder.ts';

/**
 * How long page effects may wait while a burst's inputs are handled (`hold` in `startWorker`):
 * a frame. A lone event's effects go out as soon as it is handled.
 */
export const BATCH_HOLD_MS = 16;

export const browserEnv: EngineEnv = {
  now: () => Date.now(),
  random: () => Math.random(),
  sha256: sha256Hex,
};

/** Delivers beacons; the worker uses the durable IndexedDB queue. */
export interface BeaconSink {
  /**
   * `delivered` is called once, on a 2xx answer, with the fetch round trip in ms. `page`: the
   * beacon waits for `commit(page, …)`, which stores it with the page's marker (queue.ts `enqueue`).
   */
  send(req: RequestEffect, delivered?: (rttMs: number) => void, page?: string): void;
  /** Re-send what an earlier page left behind. */
  resume?(): void;
  /** Resolves once every beacon sent so far is safe, stored with the marker `page` = `seq` (queue.ts `commit`). */
  commit?(page: string, seq: number): Promise<void>;
  /** The highest seq committed for `page`. */
  committed?(page: string): Promise<number>;
  queue?: Promise<{ readonly size: number; idle(): Promise<void> }>;
}

export interface WorkerOptions<N extends string, S extends object, X = unknown> {
  container: Container<N, S, X>;
  /** Absent: the container's own `services`. */
  services?: (ctx: EngineContext) => S;
  /** `sender`: the port of the origin's SharedWorker sender, when offtag.js started one (protocol.ts InitMessage). */
  beacons: (log: (message: string) => void, monitor: (name: string, data: unknown) => void, sender?: MessagePort) => BeaconSink;
  /** How long page effects may be held while inputs wait (default `BATCH_HOLD_MS`; tests set it long, to be independent of the machine's speed). */
  batchHoldMs?: number;
}

/** Starts the engine for one page; `scope` is the worker's global (a parameter for tests). */
export function startWorker<N extends string, S extends object, X = unknown>(
  opts: WorkerOptions<N, S, X>,
  scope: Pick<DedicatedWorkerGlobalScope, 'addEventListener' | 'removeEventListener'> & { postMessage?(m: unknown): void } = self as DedicatedWorkerGlobalScope,
): void {
  const onInit = (ev: MessageEvent<InitMessage>) => {
    if (ev.data?.type !== 'offtag:init') return;
    scope.removeEventListener('message', onInit as EventListener);
    // offtag.js transfers the ports without naming them in the message (protocol.ts InitMessage).
    const { config, page, events = ev.ports[0], api = ev.ports[1], sender = ev.ports[2], configDropped, debug, pid = '', orphans = [], now } = ev.data;
    const values: Record<string, unknown> = {};
    const monitor: Array<{ name: string; data: unknown }> = [];
    /** What the bridge already holds for `getVar`, as JSON: only changed values travel again. */
    const sent = new Map<string, string>();
    /**
     * The page's last known cookies and session keys (from the latest snapshot), and what this
     * worker last wrote: a write that leaves the page as it is does not travel.
     */
    let latest: Snapshot | undefined;
    let latestCookies: Record<string, string> | undefined;
    const cookiesWritten = new Map<string, string>();
    const sessionWritten = new Map<string, string | null>();
    /**
     * Batches that end up with nothing for the page are not posted, and while inputs wait the
     * engine's batches are held and go out together (`hold`), so the bridge numbers the posted
     * ones 1, 2, 3…: `firstIn[m]` is the engine's number of the first batch the bridge's batch m
     * holds, `held` what waits (from the engine's batch `held.first` on), and `lastEngineBatch`
     * the engine's latest (see `fromBridge`).
     */
    const firstIn: number[] = [0];
    let lastEngineBatch = 0;
    let held: { first: number; effects: Array<Effect | undefined>; last: Map<string, number>; timer?: ReturnType<typeof setTimeout> } | undefined;
    /** Inputs received and not yet handled: while there are any, page effects are held (`hold`). */
    let waiting = 0;
    const unchanged = (e: Effect): boolean => {
      if (e.type === 'storage') {
        return latest?.session[e.key] === e.value && (!sessionWritten.has(e.key) || sessionWritten.get(e.key) === e.value);
      }
      if (e.type === 'cookie') {
        const text = cookieString(e);
        latestCookies ??= parseCookieString(latest?.cookie ?? '');
        const leaves = e.expires !== undefined && e.expires <= Date.now() ? undefined : e.value;
        return cookiesWritten.get(e.name) === text && latestCookies[e.name] === leaves;
      }
      return false;
    };
    const toBridge = (b: EffectBatch) => {
      const effects: Effect[] = [];
      /** Per effect, what a later one of the same key replaces (the page never sees the earlier one): `hold`. */
      const keys: Array<string | undefined> = [];
      for (const e of b.effects) {
        if (e.type === 'cookie' || e.type === 'storage') {
          if (unchanged(e)) continue;
          if (e.type === 'storage') {
            sessionWritten.set(e.key, e.value);
            keys[effects.push(e) - 1] = 's' + e.key;
          } else {
            const page = forPage(e) as { type: 'cookie-string'; cookie: string };
            cookiesWritten.set(e.name, page.cookie);
            keys[effects.push(page) - 1] = `c${e.name};${e.domain ?? ''};${e.path ?? '/'}`;
          }
          continue;
        }
        if (e.type !== 'vars') {
          effects.push(e);
          continue;
        }
        Object.assign(values, e.values);
        const changed: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(e.values)) {
          const json = safeJson(v);
          if (sent.get(k) !== json) {
            sent.set(k, json);
            changed[k] = v;
          }
        }
        if (Object.keys(changed).length) effects.push({ type: 'vars', values: changed });
      }
      lastEngineBatch = b.n;
      if (!effects.length) return;
      hold(b.n, effects, keys);
      if (!waiting) post();
    };
    /**
     * Effects wait here while inputs wait to be handled (a burst), and go to the page together
     * once none does, or after BATCH_HOLD_MS: a write that a later one of the same cookie or
     * sessionStorage key replaces is dropped, so the page writes each key once per batch instead
     * of once per event (docs/runtime.md, "Messages per event"). Only between effects that cannot
     * look at the page's state: a frame, a pixel, a script or a reply keeps the writes before it.
     */
    const hold = (n: number, effects: Effect[], keys: Array<string | undefined>) => {
      if (!held) {
        held = { first: n, effects: [], last: new Map() };
        if (waiting) held.timer = setTimeout(post, opts.batchHoldMs ?? BATCH_HOLD_MS);
      }
      const h = held;
      effects.forEach((e, i) => {
        const key = keys[i];
        if (!key && e.type !== 'vars' && e.type !== 'log') h.last.clear();
        const before = key ? h.last.get(key) : undefined;
        if (before !== undefined) h.effects[before] = undefined;
        const at = h.effects.push(e) - 1;
        if (key) h.last.set(key, at);
      });
    };
    /** Posts what `hold` holds, as the bridge's next numbered batch. */
    const post = () => {
      if (!held) return;
      const h = held;
      held = undefined;
      clearTimeout(h.timer);
      const effects = h.effects.filter((e): e is Effect => e !== undefined);
      firstIn.push(h.first);
      const n = firstIn.length - 1;
      try {
        events.postMessage({ n, effects });
      } catch (err) {
        // A value the page cannot receive (a function from a custom data element…) is left out, by name.
        const dropped: string[] = [];
        const safe: Effect[] = [];
        for (const e of effects) {
          try {
            safe.push(structuredClone(e));
            continue;
          } catch {
            if (e.type !== 'vars') {
              dropped.push(`a ${e.type} effect`);
              continue;
            }
          }
          const values: Record<string, unknown> = {};
          for (const [k, v] of Object.entries(e.values)) {
            try {
              values[k] = structuredClone(v);
            } catch {
              dropped.push(`values.${k}`);
            }
          }
          safe.push({ type: 'vars', values });
        }
        const message = `Offtag could not send these values to the page (${(err as Error).name}); left out: ${dropped.join(', ')}.`;
        events.postMessage({ n, effects: [...safe, { type: 'log', level: 'error', message }] });
      }
    };
    /**
     * Snapshots offtag.js took during its start-up carry no viewport, cookies or session keys (a
     * forced layout on phones, the first storage access): the ones it read at hello stand in,
     * with what it could not read then.
     */
    const sized = (input: EngineInput): EngineInput => {
      if (input?.type !== 'event' || !input.snapshot || input.snapshot.viewport) return input;
      const { viewport = { width: 0, height: 0 }, cookie = '', session = {}, problems = [] } = now ?? {};
      return { ...input, snapshot: { ...input.snapshot, viewport, cookie, session, problems: [...(input.snapshot.problems ?? []), ...problems] } };
    };
    /** The worker adds the snapshot's time zone (same clock, same zone as the page): one Date less per event there. */
    const zoned = (input: EngineInput): EngineInput =>
      input?.type === 'event' && input.snapshot ? { ...input, snapshot: { ...input.snapshot, tz: new Date(input.snapshot.time).getTimezoneOffset() } } : input;
    /** An input from the page: a snapshot's `applied` counts posted batches; the engine counts its own. */
    const fromBridge = (input: EngineInput): EngineInput => {
      if (input?.type !== 'event' || !input.snapshot) return input;
      const m = input.snapshot.applied;
      latest = input.snapshot;
      latestCookies = undefined;
      // Batches with nothing for the page were "applied" at once: up to the first one the page's
      // next posted batch holds, else the first one held, else all.
      const applied = m + 1 < firstIn.length ? firstIn[m + 1] - 1 : held ? held.first - 1 : lastEngineBatch;
      return zoned({ ...input, snapshot: { ...input.snapshot, applied } });
    };
    const feed = (entry: { name: string; data: unknown }) => {
      if (monitor.push(entry) > MONITOR_LIMIT) monitor.shift();
    };
    const say = (level: 'warn' | 'error', message: string) => events.postMessage({ n: 0, effects: [{ type: 'log', level, message }] });
    const beacons = opts.beacons(
      (message) => say('warn', message),
      (name, data) => feed({ name, data }),
      sender,
    );
    const pageInfo = completePageInfo(page, navigator);
    /** The session so far, for the devtools' "export session as replay fixture". */
    const recorder = createSessionRecorder(config, pageInfo);
    /** An engine with its host; `pendingHits` is the container's hook (0 when it has none). */
    const boot = (toPage: (b: EffectBatch) => void, tag?: string) => {
      let h: Host | undefined;
      const engine = createEngine({
        container: opts.container,
        services: opts.services,
        env: browserEnv,
        config,
        debug,
        page: pageInfo,
        onLateEffects: (batch) => {
          h?.route(batch);
          acknowledge();
        },
      });
      h = createHost(engine, {
        toBridge: toPage,
        // The page's own engine records the network's answers for the session export; an orphan's does not.
        request: tag
          ? fetchWithTimeout
          : (req) =>
              fetchWithTimeout(req).then((res) => {
                recorder.response(req, res);
                return res;
              }),
        // With acknowledgements, a beacon is stored with its page's marker and sent after that
        // (queue.ts `enqueue`): `fresh` makes the next acknowledgement commit it.
        beacon: (req, delivered) => {
          if (!beacons.commit) return beacons.send(req, delivered);
          beacons.send(req, delivered, tag ?? pid);
          if (tag) return;
          // Whichever path made it (an event, a late batch, a network answer's dispatch), the
          // next task commits it, once the work around it settled.
          fresh = true;
          acknowledgeSoon();
        },
        setTimer: (ms, fire) => setTimeout(fire, ms),
        monitor: tag ? (e) => feed({ name: e.name, data: { ...(e.data as object), replayOf: tag } }) : feed,
      });
      return { engine, host: h, pendingHits: engine.pendingHits };
    };
    /** A beacon of this page waits for the next commit (one that came after the last event's acknowledgement: a late batch). */
    let fresh = false;
    const main = boot(toBridge);
    const { engine, host } = main;

    // Acknowledgements (docs/delivery.md): the bridge keeps each event until the worker says its
    // beacons are safe, and writes the ones it still keeps to localStorage on pagehide.
    let done = 0;
    let asked = 0;
    const replayed = finishOrphans();
    let recheck: ReturnType<typeof setTimeout> | undefined;
    let recheckMs = 0;
    function acknowledgeSoon(ms = 0): void {
      if (recheck !== undefined) {
        if (recheckMs <= ms) return;
        clearTimeout(recheck);
      }
      recheckMs = ms;
      recheck = setTimeout(() => {
        recheck = undefined;
        acknowledge(true);
      }, ms);
    }
    function acknowledge(rechecking = false): void {
      if ((done <= asked && !fresh) || !beacons.commit) return;
      // A hit that just left counts as pending until its chain settles (a few microtasks): look
      // again after them, then every 250 ms while a hit waits for the visitor ids (its beacon,
      // when it leaves, asks again at once).
      if (main.pendingHits() > 0) return acknowledgeSoon(rechecking ? 250 : 0);
      fresh = false;
      const seq = (asked = done);
      // Acknowledgements are cumulative: one that a newer one follows is not posted (in a burst, one
      // message to the page instead of one per event; docs/runtime.md, "Messages per event").
      void Promise.all([replayed, beacons.commit(pid, seq)]).then(() => asked > seq || events.postMessage({ n: 0, effects: [], a: seq }));
    }
    /** Runs the events earlier pages left unacknowledged on an engine of their own: their beacons go to the queue, nothing reaches this page. */
    async function finishOrphans(): Promise<void> {
      if (!orphans.length || !beacons.commit || !beacons.committed) return;
      const work = async () => {
        for (const [key, json] of orphans) {
          const from = key.slice(ORPHAN_KEY.length);
          let inputs: EngineInput[];
          try {
            inputs = JSON.parse(json) as EngineInput[];
          } catch (e) {
            feed({ name: 'orphans-unreadable', data: { key, error: String(e) } });
            continue;
          }
          const safe = await beacons.committed!(from);
          const todo = inputs.filter((i) => i.type === 'event' && i.snapshot.seq > safe);
          feed({ name: 'orphans', data: { page: from, events: inputs.length, finishing: todo.length } });
          if (!todo.length) continue;
          const r = boot(() => {}, from);
          for (const i of todo) await r.host.input(zoned(sized(i)));
          while (r.pendingHits() > 0) await new Promise((res) => setTimeout(res, 50));
          await beacons.commit!(from, Math.max(...todo.map((i) => (i.type === 'event' ? i.snapshot.seq : 0))));
        }
      };
      const locks = (navigator as { locks?: { request(name: string, f: () => Promise<void>): Promise<void> } }).locks;
      try {
        // One page at a time reads the markers and finishes: two pages opening together never both do.
        await (locks ? locks.request('offtag-orphans', work) : work());
      } catch (e) {
        feed({ name: 'orphans-failed', data: String(e) });
      }
    }

    // Inputs are handled one at a time, in the order the page sent them.
    let chain: Promise<void> = Promise.resolve();
    events.onmessage = (e: MessageEvent<EngineInput>) => {
      const input = sized(e.data);
      recorder.input(input);
      waiting++;
      // One input that fails is said once, with its name; the inputs after it go on as usual
      // (and it is acknowledged: it will not succeed on another page either).
      chain = chain
        .then(() => host.input(fromBridge(input)))
        .catch((err: unknown) => say('error', inputFailed(input, err)))
        .then(() => {
          if (input?.type === 'event' && input.snapshot?.seq > done) done = input.snapshot.seq;
          if (!--waiting) post();
          acknowledge();
        });
    };
    const workerApi: WorkerApi = {
      settings: () => ({ ...engine.settings }),
      values: () => ({ ...values }),
      pendingBeacons: async () => (beacons.queue ? (await beacons.queue).size : 0),
      monitor: () => [...monitor],
      session: () => recorder.fixture(),
      beaconsIdle: async () => {
        if (beacons.queue) await (await beacons.queue).idle();
      },
    };
    expose(workerApi, api);
    if (configDropped?.length) {
      const message = `offtagConfig values that cannot be sent to the worker were ignored: ${configDropped.join(', ')}.`;
      events.postMessage({ n: 0, effects: [{ type: 'log', level: 'error', message }] });
    }
    // The paths the container reads, once: from the next event on, the bridge copies only those.
    const readSet = readSetOf(opts.container.dataElements as Record<string, { type: string }>);
    if (readSet) events.postMessage({ n: 0, effects: [{ type: 'read-set', tree: readSet }] });
    beacons.resume?.();
  };
  scope.addEventListener('message', onInit as EventListener);
  // Hello: the bridge hands over its ports only to a worker that is running (a CSP may block one way).
  scope.postMessage?.('offtag:up');
}
