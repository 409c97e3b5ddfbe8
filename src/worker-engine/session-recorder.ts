/**
 * The session so far as a replay fixture (docs/replay.md): the worker sees every snapshot and
 * event the bridge posts and every answer the network gives the engine, so it can write them
 * down in the fixture format; `offtag replay` of the result runs the same events on the same page
 * states and answers. The devtools overlay downloads it ("export session as replay fixture").
 *
 * Pure bookkeeping: no I/O, nothing awaited; the worker shell feeds it.
 */
import type { EngineEvent, EngineInput, NetResponse, PageInfo, RequestEffect, Snapshot } from '../protocol.ts';

/** docs/replay.md's format, as far as a recorded session fills it (tools/replay/replay.ts reads it). */
export interface SessionFixture {
  name: string;
  settings: unknown;
  page: Partial<PageInfo> & {
    url: string;
    referrer: string;
    viewport: { width: number; height: number };
    gpc: boolean;
  };
  cookies: Record<string, string>;
  session: Record<string, string>;
  dataLayer: unknown;
  clock: { start: number; tz: number };
  seed: number;
  events: Array<
    EngineEvent & {
      advance?: number;
      dataLayer?: unknown;
      set?: { cookies?: Record<string, string | null>; session?: Record<string, string | null>; url?: string; gpc?: boolean };
    }
  >;
  responses: Array<{ match: string; status?: number; body?: string; error?: 'network' | 'timeout'; times: number }>;
}

/** The most events a recording keeps (a long-lived page must not grow the worker without bound). */
export const SESSION_EVENT_LIMIT = 1000;

function parseCookies(cookie: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of cookie.split('; ')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    if (eq > 0) out[part.slice(0, eq)] = part.slice(eq + 1);
  }
  return out;
}

function diff(before: Record<string, string | null>, after: Record<string, string | null>): Record<string, string | null> | undefined {
  const out: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(after)) if (v !== null && before[k] !== v) out[k] = v;
  for (const [k, v] of Object.entries(before)) if (v !== null && (after[k] === undefined || after[k] === null)) out[k] = null;
  return Object.keys(out).length ? out : undefined;
}

const json = (v: unknown) => {
  try {
    return JSON.stringify(v);
  } catch {
    return undefined;
  }
};

/** The part of a request URL a fixture response matches on: its path and the `?`, without the query. */
export function responseMatch(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search ? '?' : ''}`;
  } catch {
    return url;
  }
}

export interface SessionRecorder {
  /** Every input the engine gets; events are kept with their snapshots. */
  input(input: EngineInput): void;
  /** The network's answer to a request the engine waited for. */
  response(req: RequestEffect, res: NetResponse): void;
  fixture(): SessionFixture;
}

export function createSessionRecorder(config: unknown, page: PageInfo): SessionRecorder {
  const recorded: Array<{ event: EngineEvent; snapshot: Snapshot }> = [];
  const responses: SessionFixture['responses'] = [];
  return {
    input(input) {
      if (input.type !== 'event' || recorded.length >= SESSION_EVENT_LIMIT) return;
      recorded.push({ event: input.event, snapshot: input.snapshot });
    },
    response(req, res) {
      if (responses.length >= SESSION_EVENT_LIMIT) return;
      responses.push({
        match: responseMatch(req.url),
        ...(res.error ? { error: res.error } : { status: res.status, body: res.body }),
        times: 1,
      });
    },
    fixture() {
      const first = recorded[0]?.snapshot;
      const cookies = first ? parseCookies(first.cookie) : {};
      const session: Record<string, string> = {};
      for (const [k, v] of Object.entries(first?.session ?? {})) if (v !== null) session[k] = v;
      const events: SessionFixture['events'] = [];
      let prev = first;
      for (const { event, snapshot } of recorded) {
        const e: SessionFixture['events'][number] = { ...event };
        if (prev && snapshot !== first) {
          if (snapshot.time > prev.time) e.advance = snapshot.time - prev.time;
          const dl = json(snapshot.dataLayer);
          if (dl !== json(prev.dataLayer)) e.dataLayer = snapshot.dataLayer === undefined ? null : snapshot.dataLayer;
          const set: NonNullable<SessionFixture['events'][number]['set']> = {};
          const c = diff(parseCookies(prev.cookie), parseCookies(snapshot.cookie));
          if (c) set.cookies = c;
          const s = diff(prev.session, snapshot.session);
          if (s) set.session = s;
          if (snapshot.url !== prev.url) set.url = snapshot.url;
          if (snapshot.gpc !== prev.gpc) set.gpc = snapshot.gpc;
          if (Object.keys(set).length) e.set = set;
        }
        events.push(e);
        prev = snapshot;
      }
      return {
        name: `session exported from ${first?.url ?? page.origin}`,
        settings: config,
        page: {
          ...page,
          url: first?.url ?? `${page.origin}/`,
          referrer: first?.referrer ?? '',
          viewport: first?.viewport ?? { width: 0, height: 0 },
          gpc: first?.gpc ?? false,
        },
        cookies,
        session,
        dataLayer: first?.dataLayer,
        clock: { start: first?.time ?? 0, tz: first?.tz ?? 0 },
        seed: 1,
        events,
        responses: [...responses],
      };
    },
  };
}
