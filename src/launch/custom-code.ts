/**
 * What custom code gets in the worker: a turbine-shaped `_satellite` (getVar, cookie, logger,
 * environment) and `sessionStorage` made of the engine's context, and the turbine event.
 */
import { safeDecode } from '../worker-engine/core/cookies.ts';
import { turbineEvent } from '../page-side/event.ts';
import { safeJson } from '../worker-engine/core/safe-json.ts';
import type { CookieJar, SessionStore } from '../worker-engine/core/types.ts';
import type { Settings } from '../worker-engine/core/settings.ts';
import { DAY_MS, type Ctx, type DCtx, type Name } from './types.ts';
import { runBlock, turbineEvent as blockEvent, type WorkerBlock } from './virtual-page.ts';

export interface SatelliteShim {
  getVar(name: string): unknown;
  cookie: { get(name: string): string | undefined; set(name: string, value: unknown, options?: { expires?: number; domain?: string; path?: string }): void; remove(name: string): void };
  logger: Record<'log' | 'info' | 'warn' | 'error' | 'debug', (...args: unknown[]) => void>;
  environment: { stage: string };
}

export interface StorageShim {
  getItem(key: string): string | null;
  setItem(key: string, value: unknown): void;
  removeItem(key: string): void;
}

export interface LaunchEvent {
  $type: string;
  $rule: { name: string };
  identifier?: string;
  detail?: unknown;
  [k: string]: unknown;
}


export function satelliteShim(ctx: { get(n: Name): unknown; cookies: CookieJar; settings: Settings; log: DCtx['log'] }): SatelliteShim {
  // As turbine prints custom code's logger: its rocket and prefix first.
  const text = (args: unknown[]) => ['\uD83D\uDE80 [Custom Script]', ...args].map((a) => (typeof a === 'string' ? a : safeJson(a))).join(' ');
  return {
    getVar: (name) => ctx.get(name),
    cookie: {
      get: (name) => {
        const raw = ctx.cookies.get(name);
        return raw === undefined ? undefined : safeDecode(raw);
      },
      set: (name, value, o = {}) =>
        ctx.cookies.set(name, encodeURIComponent(String(value)), {
          ...(o.domain ? { domain: o.domain } : {}),
          ...(o.path ? { path: o.path } : {}),
          ...(o.expires ? { expires: Date.now() + o.expires * DAY_MS } : {}),
        }),
      remove: (name) => ctx.cookies.remove(name),
    },
    logger: {
      log: (...a) => ctx.log('log', text(a)),
      info: (...a) => ctx.log('info', text(a)),
      warn: (...a) => ctx.log('warn', text(a)),
      error: (...a) => ctx.log('error', text(a)),
      debug: (...a) => ctx.log('debug', text(a)),
    },
    environment: { stage: ctx.settings.environment },
  };
}

export function storageShim(session: SessionStore): StorageShim {
  return {
    getItem: (key) => session.get(key),
    setItem: (key, value) => session.set(key, String(value)),
    removeItem: (key) => session.set(key, null),
  };
}

/** Turbine's event for custom code: the same shape on the page (src/page-side/event.ts), with the rule. */
export function launchEvent(event: DCtx['event'], rule: string): LaunchEvent {
  return { ...turbineEvent(event), $rule: { name: rule } } as LaunchEvent;
}

/**
 * What a custom code block placed in the worker is written as (tools/import/custom-code.ts): a
 * function of the virtual page (virtual-page.ts) returning the block itself.
 */
export type Factory = WorkerBlock;

/** Runs a worker block with the turbine event; `this` is the event's element. */
export function run(factory: Factory, ctx: DCtx | Ctx, rule: string): unknown {
  // The page's `_satellite.getVar` gives a data element no event, nor an element (turbine's passes none).
  if ('pageCall' in ctx && ctx.pageCall) return runBlock(factory, { ...ctx, event: { type: 'get-var', name: '' } }, 'element', [undefined]);
  return runBlock(factory, ctx, 'element', [blockEvent(ctx, rule)]);
}
