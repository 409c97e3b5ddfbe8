/**
 * Reads a deployed Launch library's `_satellite.container` without running the library: the
 * file is evaluated in a Node `vm` context that has only a stub `window`, and evaluation stops
 * at the moment the library assigns `window._satellite.container` — before any of turbine's
 * runtime (which follows the assignment in a built library) or any module script runs. Functions
 * in the container (module scripts, custom code) are kept as their source text, never called.
 */
import vm from 'node:vm';

/** Source text of a function found in the container (a module script, a custom code block). */
export interface Code {
  code: string;
}

export type LaunchValue = string | number | boolean | null | Code | LaunchValue[] | { [k: string]: LaunchValue };

export interface LaunchComponent {
  modulePath: string;
  settings?: Record<string, LaunchValue>;
}

export interface LaunchDataElement extends LaunchComponent {
  defaultValue?: string;
  forceLowerCase?: boolean;
  cleanText?: boolean;
  storageDuration?: 'pageview' | 'session' | 'visitor';
}

export interface LaunchRule {
  id: string;
  name: string;
  events?: Array<LaunchComponent & { ruleOrder?: number }>;
  conditions?: Array<LaunchComponent & { negate?: boolean; timeout?: number }>;
  actions?: Array<LaunchComponent & { timeout?: number; delayNext?: boolean }>;
}

export interface LaunchExtension {
  displayName: string;
  hostedLibFilesBaseUrl?: string;
  settings?: Record<string, LaunchValue>;
  modules?: Record<string, { name?: string; displayName?: string; script: LaunchValue; shared?: boolean }>;
}

export interface LaunchContainer {
  buildInfo?: Record<string, LaunchValue>;
  environment?: { id?: string; stage?: string };
  dataElements?: Record<string, LaunchDataElement>;
  extensions?: Record<string, LaunchExtension>;
  rules?: LaunchRule[];
  company?: Record<string, LaunchValue>;
  property?: { name?: string; settings?: Record<string, LaunchValue> };
}

export function isCode(v: unknown): v is Code {
  return typeof v === 'object' && v !== null && typeof (v as Code).code === 'string' && Object.keys(v).length === 1;
}

/** Thrown inside the sandbox to stop the library right after the container assignment. */
const STOP = Symbol('stop');

/** How long the top of a library may run before the container is assigned. */
const READ_TIMEOUT_MS = 2000;

export class LibraryReadError extends Error {}

/**
 * The container a library assigns. Throws LibraryReadError with a one-line reason when the file
 * assigns none (not a Launch library, or a turbine build older than the `_satellite.container`
 * format) or fails before assigning it.
 */
export function readLibrary(text: string, file: string): LaunchContainer {
  let captured: unknown;
  let assigned = false;
  const satellite = {};
  Object.defineProperty(satellite, 'container', {
    configurable: true,
    set(value: unknown) {
      captured = value;
      assigned = true;
      throw STOP;
    },
    get: () => captured,
  });
  const window: Record<string, unknown> = { _satellite: satellite };
  window.window = window;
  window.self = window;
  const context = vm.createContext({ window, self: window, _satellite: satellite });
  try {
    vm.runInContext(text, context, { filename: file, timeout: READ_TIMEOUT_MS });
  } catch (err) {
    if (!assigned) {
      const why = err instanceof Error ? err.message : String(err);
      throw new LibraryReadError(`${file}: the library failed before assigning _satellite.container: ${why}`);
    }
  }
  if (!assigned || typeof captured !== 'object' || captured === null) {
    throw new LibraryReadError(`${file}: no window._satellite.container assignment found (is this a Launch library built by turbine 25 or later?).`);
  }
  return plain(captured) as LaunchContainer;
}

/** A copy made of this realm's plain values; functions become their source text. */
function plain(value: unknown, seen = new Set<unknown>()): LaunchValue {
  if (typeof value === 'function') return { code: Function.prototype.toString.call(value) };
  if (value === null || typeof value !== 'object') {
    return typeof value === 'undefined' || typeof value === 'symbol' || typeof value === 'bigint' ? null : (value as LaunchValue);
  }
  if (seen.has(value)) return null;
  seen.add(value);
  const out: LaunchValue = Array.isArray(value)
    ? value.map((v) => plain(v, seen))
    : Object.fromEntries(
        Object.keys(value)
          .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
          .map((k) => [k, plain((value as Record<string, unknown>)[k], seen)]),
      );
  seen.delete(value);
  return out;
}
