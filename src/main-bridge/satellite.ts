/**
 * `window._satellite`, a drop-in for site code written for Adobe Launch. `getVar` answers from
 * the values of the latest evaluation, synchronously (the worker owns evaluation);
 * `getVarAsync` evaluates now.
 */
import type { EngineEvent } from '../protocol.ts';
import { applyRare, type ApplyHooks } from './apply-effects.ts';

type Send = (event: EngineEvent) => number;
type Ask = (event: EngineEvent) => Promise<{ value?: unknown; error?: string }>;

/**
 * Written by the build (tools/build.mjs `define`): Launch's fields (`buildDate`, `turbineBuildDate`,
 * `turbineVersion`, `environment`, `minified`) and the container's name and version.
 */
declare const __OFFTAG_BUILD_INFO__: Record<string, unknown>;
/** Non-zero only in an offtag.js built with page code (src/main-bridge/index.ts). */
declare const __OFFTAG_PAGE__: unknown;
const DEBUG_KEY = 'com.adobe.reactor.debug';

/** Adobe's debug switch (Adobe's Launch runtime, github.com/adobe/reactor-turbine): debug-level messages print only when it is on. */
export function isDebug(): boolean {
  try {
    return localStorage[DEBUG_KEY] == 'true';
  } catch {
    return false;
  }
}

function readCookie(name: string): string | undefined {
  for (const part of document.cookie.split('; '))
    if (!part.indexOf(name + '=')) {
      const raw = part.slice(name.length + 1);
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
}

export function installSatellite(send: Send, ask: Ask, hooks: ApplyHooks, stage: string, tellWorker: (on: boolean) => void) {
  const logger: Record<string, (...args: unknown[]) => void> = {};
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    logger[level] = (...args) => {
      if (isDebug()) console[level]('🚀 [Custom Script]', ...args);
    };
  }
  const satellite = {
    track(id: string, detail?: unknown) {
      send({ type: 'direct-call', id, detail });
    },
    getVar: (name: string) => hooks.vars[name],
    getVarAsync: (name: string) => ask({ type: 'get-var', name }).then((r) => r.value),
    setVar(name: string | Record<string, unknown>, value?: unknown) {
      const values = typeof name === 'object' && name ? name : { [name]: value };
      Object.assign(hooks.vars, values);
      send({ type: 'set-var', values });
    },
    cookie: {
      get: readCookie,
      /** `expires` in days, as js-cookie (Adobe's reactor-cookie) takes it. */
      set(name: string, value: string, o: { expires?: number; path?: string; domain?: string } = {}) {
        // js-cookie's writer, compact (the worker builds its own cookie strings: worker-engine/core/cookies.ts `cookieString`).
        document.cookie =
          `${name}=${encodeURIComponent(value)}; path=${o.path ?? '/'}` +
          (o.domain ? '; domain=' + o.domain : '') +
          (o.expires ? '; expires=' + new Date(Date.now() + o.expires * 864e5).toUTCString() : '');
      },
      remove(name: string, o: { path?: string; domain?: string } = {}) {
        satellite.cookie.set(name, '', { ...o, expires: -1 });
      },
    },
    logger,
    buildInfo: __OFFTAG_BUILD_INFO__,
    environment: { id: 'offtag', stage },
    setDebug(on: boolean) {
      tellWorker(!!on);
      try {
        localStorage[DEBUG_KEY] = !!on; // stored as 'true' / 'false'
      } catch {
        /* storage disabled: debug lasts for this page only */
      }
    },
  };
  // An imported Launch container's `_satellite` is turbine's (src/page-side/satellite.ts), guarded below with the rest.
  if (__OFFTAG_PAGE__) hooks.page!.launch(satellite, hooks);
  // No call throws into the site's code: a call that fails is said, with what was dropped (the text is in offtag-effects.js).
  for (const o of [satellite, satellite.cookie] as Record<string, unknown>[])
    for (const k in o) {
      const f = o[k];
      if (typeof f == 'function')
        o[k] = (...a: unknown[]) => {
          try {
            return f(...a);
          } catch (error) {
            applyRare({ type: 'failed', method: k, args: a, error }, hooks);
          }
        };
    }
  (window as { _satellite?: unknown })._satellite = satellite;
  return satellite;
}
