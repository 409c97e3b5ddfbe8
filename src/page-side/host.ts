/**
 * The page's module host for an imported Launch container's other extensions (docs/import.md,
 * "Other extensions"): each module script of the library is run once, as turbine runs it —
 * `script.call(module.exports, module, module.exports, require, turbine)` — with `require` for
 * its extension's modules (`./relative` paths) and turbine's core modules (`@adobe/reactor-…`),
 * and the `turbine` object its extension gets. Every module is run when the host starts (turbine
 * runs them all at load), so what an extension sets up at load is set up.
 */
import type { Code, HostData } from './types.ts';
import { reactorModules } from './reactor-modules.ts';

interface Module {
  script: Code;
  name?: string;
  shared?: boolean;
  extension: string;
  exports?: unknown;
  done?: 1;
}

const w = window as unknown as Record<string, unknown>;
const ROCKET = '🚀';

/** Adobe's debug switch as stored now: turbine's `debugEnabled` and `setDebug` read it so. */
export const storedDebug = (): boolean => {
  try {
    return localStorage['com.adobe.reactor.debug'] == 'true';
  } catch {
    return false;
  }
};

/**
 * Turbine's logger flag: read from storage when the page starts, then changed only by
 * `_satellite.setDebug`, as turbine keeps it (a storage read on every log call cost a real
 * library's page tens of milliseconds: its modules log as they run).
 */
let debug: boolean | undefined;
const debugListeners: Array<(on: boolean) => void> = [];
export const debugOn = (): boolean => (debug ??= storedDebug());
export const readDebug = (): void => void (debug = storedDebug());
/** `_satellite.setDebug` changed the switch: the loggers follow it, and each extension's `onDebugChanged` callback hears it. */
export function debugChanged(on: boolean): void {
  debug = !!on;
  for (const f of debugListeners)
    try {
      f(on);
    } catch {
      /* an extension's callback that throws is its own: the next one still hears */
    }
}

/** Turbine's logger: prefixed, silent unless the debug switch is on. */
export function logger(prefix?: string): Record<string, (...args: unknown[]) => void> {
  const out: Record<string, (...args: unknown[]) => void> = {};
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const)
    out[level] = (...args) => {
      if (debugOn()) (console[level] as (...a: unknown[]) => void)(ROCKET, ...(prefix ? ['[' + prefix + ']'] : []), ...args);
    };
  return out;
}

/** `path` relative to `from`'s folder, with `.js` added when missing (turbine's resolution). */
function resolvePath(from: string, relative: string): string {
  if (!/\.js$/.test(relative)) relative += '.js';
  const out = from.slice(0, from.lastIndexOf('/')).split('/');
  for (const part of relative.split('/')) {
    if (part == '..') out.pop();
    else if (part && part != '.') out.push(part);
  }
  return out.join('/');
}

/** A property chain on a value (`%this.id%`, `%event.detail.sku%`), undefined once it breaks. */
const chain = (value: unknown, path: string[]) => path.reduce<unknown>((v, k) => (v == null ? undefined : (v as Record<string, unknown>)[k]), value);

export interface Host {
  /** A module's exports, its script run the first time. */
  exports(path: string): unknown;
  /** Runs a data element, condition or action module with `settings` (tokens replaced here when `replace`). */
  call(path: string, settings: unknown, event: Record<string, unknown> | undefined, replace?: boolean): unknown;
  /** Runs every module, then the extensions' events: `trigger(key)` is what each one's module gets (it sends the event's direct call). */
  start(trigger: (key: string) => (synthetic?: unknown) => void): void;
}

/**
 * `pageValue`: a data element read on the page (its raw value), for a name the worker has sent
 * no value for yet.
 */
export function createHost(data: HostData, vars: () => Record<string, unknown>, pageValue: (name: string, event: Record<string, unknown>) => unknown): Host {
  const modules: Record<string, Module> = {};
  const core = reactorModules();
  const names = new Set(data.dataElements);
  const info = data.info;
  const propertySettings = (info.propertySettings ?? {}) as { undefinedVarsReturnEmpty?: boolean };
  const minified = (info.buildInfo as { minified?: boolean } | undefined)?.minified;

  /** Turbine's `getDataElementValue`: the worker's latest value, else the page's own read. */
  const value = (name: string, event: Record<string, unknown> = {}): unknown => {
    const sent = vars();
    return name in sent ? sent[name] : pageValue(name, event);
  };
  const isVar = (name: string) => names.has(name) || /^(this|event|target)\./.test(name);
  const varValue = (name: string, event: Record<string, unknown>) => {
    const dot = /^(this|event|target)\.(.*)$/.exec(name);
    if (!dot || names.has(name)) return value(name, event);
    return chain(dot[1] == 'this' ? event.element : dot[1] == 'target' ? event.target : event, dot[2]!.split('.'));
  };
  /** Turbine's `replaceTokens`: `%name%` of a data element (or `this.`, `event.`, `target.`), deep in objects and arrays; a whole token keeps its type. */
  const replaceTokens = (thing: unknown, event: Record<string, unknown> = {}): unknown => {
    if (typeof thing == 'string') {
      const whole = /^%([^%]+)%$/.exec(thing);
      const one = (token: string, name: string) => {
        if (!isVar(name)) return token;
        const v = varValue(name, event);
        return v == null && propertySettings.undefinedVarsReturnEmpty ? '' : v;
      };
      return whole ? one(thing, whole[1]!) : thing.replace(/%(.+?)%/g, (t, n: string) => one(t, n) as string);
    }
    if (Array.isArray(thing)) return thing.map((v) => replaceTokens(v, event));
    if (thing && typeof thing == 'object') {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(thing)) out[k] = replaceTokens((thing as Record<string, unknown>)[k], event);
      return out;
    }
    return thing;
  };

  const exports = (path: string): unknown => {
    const m = modules[path];
    if (!m) throw new Error('Module ' + path + ' not found.');
    if (!m.done) {
      m.done = 1;
      const module = { exports: {} as unknown };
      m.script.call(module.exports, module, module.exports, requireFrom(path), turbines[m.extension]);
      const e = module.exports as { __esModule?: boolean; default?: unknown };
      m.exports = e && e.__esModule && 'default' in e ? e.default : e;
    }
    return m.exports;
  };

  const requireFrom = (path: string) => (key: string) => {
    if (!key.indexOf('@adobe/reactor-') && key.slice(15) in core) return core[key.slice(15)];
    if (!key.indexOf('./') || !key.indexOf('../')) return exports(resolvePath(path, key));
    throw new Error('Cannot resolve module "' + key + '".');
  };

  const turbines: Record<string, unknown> = {};
  for (const name in data.extensions) {
    const ext = data.extensions[name]!;
    for (const path in ext.modules) modules[path] = { ...ext.modules[path]!, extension: name };
    turbines[name] = {
      buildInfo: info.buildInfo,
      environment: info.environment,
      property: info.property,
      propertySettings,
      getDataElementValue: value,
      getExtensionSettings: () => (ext.settings ? replaceTokens(ext.settings) : {}),
      getHostedLibFileUrl(file: string) {
        if (minified) {
          const parts = file.split('.');
          parts.splice(parts.length - 1 || 1, 0, 'min');
          file = parts.join('.');
        }
        return (ext.hostedLibFilesBaseUrl ?? '') + file;
      },
      getSharedModule(extension: string, module: string) {
        const mods = data.extensions[extension]?.modules ?? {};
        for (const path in mods) if (mods[path]!.shared && mods[path]!.name === module) return exports(path);
      },
      logger: logger(ext.displayName),
      replaceTokens,
      onDebugChanged: (f: (on: boolean) => void) => void debugListeners.push(f),
      get debugEnabled() {
        return storedDebug();
      },
    };
  }

  const hostLogger = logger();
  return {
    exports,
    call(path, settings, event, replace) {
      const fn = exports(path);
      if (typeof fn != 'function') throw new Error('Module did not export a function.');
      return fn(replace ? replaceTokens(settings ?? {}, event) : settings ?? {}, event);
    },
    start(trigger) {
      for (const path in modules)
        try {
          exports(path);
        } catch (e) {
          hostLogger.error('Error initializing module ' + path + '. ' + (e as Error).message + ((e as Error).stack ? '\n' + (e as Error).stack : ''));
        }
      for (const { key, module, settings, rule, displayName } of data.events)
        try {
          const fn = exports(module);
          if (typeof fn != 'function') throw new Error('Module did not export a function.');
          fn(replaceTokens(settings ?? {}), trigger(key));
        } catch (e) {
          hostLogger.error('Failed to execute "' + displayName + '" for "' + rule + '" rule. ' + (e as Error).message);
        }
    },
  };
}

/** What of an extension's synthetic event can travel to the worker: plain data, no functions or DOM nodes. */
export function plain(v: unknown, depth = 0): unknown {
  if (v === null || typeof v != 'object') return typeof v == 'function' || typeof v == 'symbol' ? undefined : v;
  if (depth > 8 || v instanceof Node || v === w) return undefined;
  if (Array.isArray(v)) return v.map((x) => plain(x, depth + 1));
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v))
    try {
      const x = plain((v as Record<string, unknown>)[k], depth + 1);
      if (x !== undefined) out[k] = x;
    } catch {
      /* a throwing getter: left out */
    }
  return out;
}
