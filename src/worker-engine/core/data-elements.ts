/**
 * Data element resolution, after Adobe's runtime (Adobe's Launch runtime, github.com/adobe/reactor-turbine): read the source, fall back to
 * the default, then cleanText, then forceLowerCase. A failing element logs and returns its
 * default; a circular reference stops at depth 10 with a warning. Values are memoised for the
 * event, so an element with a side effect (the previous page name) acts once per event.
 */
import type { EngineEvent, LogLevel, PageInfo, Snapshot } from '../../protocol.ts';
import { safeDecode } from './cookies.ts';
import { readPath } from './data-layer.ts';
import { pageValue } from './page-reads.ts';
import type { Settings } from './settings.ts';
import { storedKey, type CookieJar, type DataElement, type DataElementContext, type SessionStore } from './types.ts';

/** docs/spec-coverage.md §9: data element circular reference depth limit. */
export const CIRCULAR_REFERENCE_DEPTH_LIMIT = 10;

export interface ResolverDeps {
  settings: Settings;
  page: PageInfo;
  snapshot: Snapshot;
  event: EngineEvent;
  cookies: CookieJar;
  session: SessionStore;
  log(level: LogLevel, message: string): void;
  /** The engine's random source, handed to data elements. */
  random?: () => number;
  /** Values set with `_satellite.setVar`. */
  customVars: Map<string, unknown>;
  /** Values for the page's `_satellite.getVar` (DataElementContext `pageCall`). */
  pageCall?: boolean;
}

export interface Resolver<N extends string> {
  get(name: N): unknown;
  /** Whether `name` is a data element or a custom variable. */
  has(name: string): boolean;
  /** Every value read during this event (what `_satellite.getVar` answers afterwards). */
  values(): Record<string, unknown>;
}

function isMissing(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

function defaultOf<N extends string>(de: DataElement<N>, settings: Settings): unknown {
  return typeof de.default === 'function' ? (de.default as (s: Settings) => unknown)(settings) : de.default;
}

function finish<N extends string>(de: DataElement<N>, value: unknown): unknown {
  let v = value;
  if (de.cleanText && typeof v === 'string') v = v.replace(/\s+/g, ' ').trim();
  if (de.forceLowerCase && typeof v === 'string') v = v.toLowerCase();
  return v;
}

export function createResolver<N extends string>(
  elements: Record<N, DataElement<N>>,
  deps: ResolverDeps,
): Resolver<N> {
  const memo = new Map<string, unknown>();
  const stack: string[] = [];

  const readSource = (name: string, de: DataElement<N>, ctx: DataElementContext<N>): unknown => {
    switch (de.type) {
      case 'data-layer':
        return readPath(deps.snapshot.dataLayer, de.path);
      case 'cookie': {
        const name = typeof de.name === 'function' ? de.name(deps.settings) : de.name;
        const raw = deps.cookies.get(name);
        return raw !== undefined && de.decode !== false ? safeDecode(raw) : raw;
      }
      case 'session': {
        const key = typeof de.key === 'function' ? de.key(deps.settings) : de.key;
        return deps.session.get(key);
      }
      case 'constant':
        return de.value;
      case 'page':
        return pageValue(deps.snapshot, 'd', name);
      case 'custom': {
        if (typeof de.fn !== 'function') throw new Error('Module did not export a function.');
        return de.fn(ctx);
      }
      default:
        throw new Error(`Unknown data element type "${(de as { type: unknown }).type}".`);
    }
  };

  /** Launch's storage duration `session`: store a value, or answer with the stored one. */
  const stored = (name: string, value: unknown): unknown => {
    const key = storedKey(name);
    if (!isMissing(value)) {
      const json = JSON.stringify(value);
      if (json !== undefined && json !== deps.session.get(key)) deps.session.set(key, json);
      return value;
    }
    const kept = deps.session.get(key);
    try {
      return kept === null ? value : (JSON.parse(kept) as unknown);
    } catch {
      return value;
    }
  };

  const resolver: Resolver<N> = {
    has(name) {
      return Object.prototype.hasOwnProperty.call(elements, name) || deps.customVars.has(name);
    },
    values() {
      return Object.fromEntries(memo);
    },
    get(name) {
      if (memo.has(name)) return memo.get(name);
      // Own keys only: a rule reading `toString` must not find Object.prototype's.
      const de = Object.prototype.hasOwnProperty.call(elements, name) ? (elements as Record<string, DataElement<N>>)[name] : undefined;
      if (!de) {
        if (deps.customVars.has(name)) return deps.customVars.get(name);
        deps.log('warn', `Data element "${name}" is not defined in the container.`);
        return undefined;
      }
      if (stack.length >= CIRCULAR_REFERENCE_DEPTH_LIMIT) {
        deps.log('warn', `Data element circular reference detected: ${[...stack, name].join(' -> ')}`);
        return defaultOf(de, deps.settings);
      }
      stack.push(name);
      let value: unknown;
      try {
        value = readSource(name, de, ctx);
        if (de.storage === 'session') value = stored(name, value);
        if (isMissing(value)) {
          if (de.missingMessage) deps.log('log', de.missingMessage);
          value = defaultOf(de, deps.settings) ?? value;
        }
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        deps.log('error', `Failed to execute data element module for data element "${name}". ${why}`);
        value = defaultOf(de, deps.settings);
      } finally {
        stack.pop();
      }
      value = finish(de, value);
      memo.set(name, value);
      return value;
    },
  };

  const ctx: DataElementContext<N> = {
    settings: deps.settings,
    page: deps.page,
    snapshot: deps.snapshot,
    event: deps.event,
    cookies: deps.cookies,
    session: deps.session,
    log: deps.log,
    ...(deps.random ? { random: deps.random } : {}),
    ...(deps.pageCall ? { pageCall: true } : {}),
    dataLayer: (path) => readPath(deps.snapshot.dataLayer, path),
    get: (n) => resolver.get(n),
    has: (n) => resolver.has(n),
  };
  return resolver;
}
