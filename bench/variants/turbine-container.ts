/**
 * Bench variant 3, part 1: the storefront container as an Adobe Tags (reactor-turbine) container
 * object, with minimal Core-extension modules written here (the web Core extension is not on npm):
 * direct call, library loaded / DOM ready / window loaded, custom-code condition and action, and
 * a custom-code data element. Turbine runs everything: rule matching and ordering, data element
 * resolution (no per-event memo, as Launch), cleanText / forceLowerCase, token replacement.
 *
 * The work inside the custom code is the storefront's own: each data element evaluates the
 * storefront's definition against the live page (data layer read in place, `document.cookie`
 * parsed per read as js-cookie does, sessionStorage), and the rules' actions call Offtag's own
 * hit builders and its visitor-ID service and analytics tracker, on the main thread (a stand-in
 * for VisitorAPI.js and AppMeasurement.js, so the beacon work is the same as Offtag's).
 * Written to `window._satellite.container` when this module evaluates; `turbine.ts` imports it
 * before the runtime, which reads the container once.
 */
import type { Effect, EngineEvent, LogLevel, RequestEffect, Snapshot } from '../../src/protocol.ts';
import { completePageInfo } from '../../src/worker-engine/core/page-info.ts';
import { applyEffects, type ApplyHooks } from '../../src/main-bridge/apply-effects.ts';
import { cookieString } from '../../src/worker-engine/core/cookies.ts';
import { forPage } from '../../src/worker-engine/shell/page-writes.ts';
import { readPageInfo } from '../../src/main-bridge/page-info.ts';
import { storefront } from '../../containers/storefront/container.ts';
import type { StorefrontSettings } from '../../containers/storefront/settings.ts';
import { parseCookieString, safeDecode } from '../../src/worker-engine/core/cookies.ts';
import { readPath } from '../../src/worker-engine/core/data-layer.ts';
import { resolveSettings } from '../../src/worker-engine/core/settings.ts';
import type { CookieJar, DataElement, DataElementContext, EngineContext, RuleContext, SessionStore } from '../../src/worker-engine/core/types.ts';
import type { Services } from '../../src/worker-engine/services.ts';
import { fetchWithTimeout } from '../../src/worker-engine/host.ts';
import { growContainer, sha256 } from './common.ts';

interface Turbine {
  getDataElementValue(name: string): unknown;
  replaceTokens(text: string): unknown;
}
type ModuleScript = (module: { exports: unknown }, exports: unknown, require: (id: string) => unknown, turbine: Turbine) => void;

const w = window as unknown as Record<string, unknown>;
const { settings } = resolveSettings(w.offtagConfig ?? {}, storefront);
const container = growContainer(storefront, window.benchSynthetic);
const page = completePageInfo(readPageInfo(), navigator);

// ---- the live page, as main-thread code sees it ---------------------------------------------
const liveSnapshot = (): Snapshot => ({
  seq: 0,
  applied: 0,
  time: Date.now(),
  tz: new Date().getTimezoneOffset(),
  url: location.href,
  referrer: document.referrer,
  cookie: '',
  session: {},
  dataLayer: w[settings.dataLayer],
  viewport: { width: innerWidth, height: innerHeight },
  gpc: (navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl === true,
});
let current: { event: EngineEvent; snapshot: Snapshot } = { event: { type: 'library-loaded' }, snapshot: liveSnapshot() };
const enter = (event: EngineEvent) => {
  current = { event, snapshot: liveSnapshot() };
};

const log = (level: LogLevel, message: string) => {
  if (level !== 'debug') console[level](message);
};
const cookies: CookieJar = {
  get: (name) => parseCookieString(document.cookie)[name],
  all: () => parseCookieString(document.cookie),
  set: (name, value, o = {}) => void (document.cookie = cookieString({ name, value, path: '/', ...o })),
  remove: (name, o = {}) => void (document.cookie = cookieString({ name, value: '', path: o.path ?? '/', domain: o.domain, expires: 0 })),
};
const session: SessionStore = {
  get: (key) => {
    try {
      return sessionStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set: (key, value) => applyEffects([{ type: 'storage', key, value }], hooks),
};
let services: Services;
/**
 * The services the rules call (visitor, analytics): Offtag's own in turbine.ts, the real
 * VisitorAPI.js and AppMeasurement.js in legacy.ts. Set by the entry before the runtime evaluates.
 */
const makeServices = (w.benchServices as ((ctx: EngineContext) => Services) | undefined) ?? (() => {
  throw new Error('bench: no services for the turbine container (an entry sets window.benchServices first)');
});
const hooks: ApplyHooks = {
  base: new URL('/dist/', location.href).href,
  vars: {},
  frameMessage: ({ frameId, origin, data }) => services.visitor.onFrameMessage(frameId, origin, data),
  reply: () => undefined,
};
let ids = 0;
const ctx: EngineContext = {
  settings,
  env: { now: () => Date.now(), random: () => Math.random(), sha256 },
  page,
  snapshot: () => current.snapshot,
  cookies,
  session,
  emit: (e: Effect) => {
    if (e.type !== 'request' && e.type !== 'timer' && e.type !== 'monitor' && e.type !== 'vars') applyEffects([forPage(e)], hooks);
  },
  log,
  monitor: () => undefined,
  nextId: (prefix) => `${prefix}-${++ids}`,
  fetch(request) {
    const req = { type: 'request', id: ctx.nextId(request.kind), ...request } as RequestEffect;
    if (request.fireAndForget) {
      void fetch(req.url, { method: req.method, body: req.body, headers: req.headers, credentials: req.credentials, keepalive: true }).catch(
        () => undefined,
      );
      return Promise.resolve({ status: 0, body: '' });
    }
    return fetchWithTimeout(req);
  },
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  track: (p) => p,
};
services = makeServices(ctx);

// ---- minimal Core modules --------------------------------------------------------------------
const CORE = 'core/src/lib/';
const modules: Record<string, { name: string; displayName: string; script: ModuleScript }> = {};
const mod = (path: string, name: string, script: ModuleScript) => {
  modules[CORE + path] = { name, displayName: name, script };
};

/** Replaces `_satellite.track`, as the Core extension's direct-call event does. */
mod('events/directCall.js', 'direct-call', (module) => {
  const triggers: Record<string, Array<(e: unknown) => void>> = {};
  (w._satellite as Record<string, unknown>).track = (identifier: string, detail?: unknown) => {
    const id = String(identifier).trim();
    enter({ type: 'direct-call', id, detail });
    const list = triggers[id];
    if (!list) return log('log', `"${id}" does not match any direct call identifiers.`);
    for (const t of list) t({ identifier: id, detail });
  };
  module.exports = (s: { identifier: string }, trigger: (e: unknown) => void) => void (triggers[s.identifier] ??= []).push(trigger);
});
mod('events/libraryLoaded.js', 'library-loaded', (module) => {
  module.exports = (_s: unknown, trigger: () => void) => {
    enter({ type: 'library-loaded' });
    trigger();
  };
});
const onPhase = (type: 'dom-ready' | 'window-loaded', ready: () => boolean, event: string) => (module: { exports: unknown }) => {
  module.exports = (_s: unknown, trigger: () => void) => {
    const fire = () => {
      enter({ type });
      trigger();
    };
    if (ready()) setTimeout(fire, 0);
    else addEventListener(event, fire, { once: true });
  };
};
mod('events/domReady.js', 'dom-ready', onPhase('dom-ready', () => document.readyState !== 'loading', 'DOMContentLoaded'));
mod('events/windowLoaded.js', 'window-loaded', onPhase('window-loaded', () => document.readyState === 'complete', 'load'));

const ruleContext = (turbine: Turbine, ruleName: string): RuleContext<string, Services, StorefrontSettings> => ({
  // Merged with the storefront's defaults by resolveSettings above.
  settings: settings as typeof settings & StorefrontSettings,
  event: current.event,
  snapshot: current.snapshot,
  page,
  rule: { name: ruleName },
  get: (name) => turbine.getDataElementValue(name),
  replaceTokens: (text) => turbine.replaceTokens(text),
  services,
  cookies,
  session,
  emit: ctx.emit,
  log,
});
mod('conditions/customCode.js', 'custom-code', (module, _e, _r, turbine) => {
  module.exports = (s: { rule: number; condition: number }) => {
    const rule = container.rules[s.rule];
    return rule.conditions![s.condition].fn!(ruleContext(turbine, rule.name));
  };
});
mod('actions/customCode.js', 'custom-code', (module, _e, _r, turbine) => {
  module.exports = (s: { rule: number; action: number }) => {
    const rule = container.rules[s.rule];
    void rule.actions[s.action].fn(ruleContext(turbine, rule.name));
  };
});
const missing = (v: unknown) => v === undefined || v === null || v === '';
/** A default may be a function of the settings (line of business → brand), as the engine allows. */
const defaultOf = (de: DataElement<string>) =>
  typeof de.default === 'function' ? (de.default as (s: typeof settings) => unknown)(settings) : de.default;
/** A custom-code data element that evaluates the storefront's definition (source, default, message). */
mod('dataElements/customCode.js', 'custom-code', (module, _e, _r, turbine) => {
  module.exports = (s: { name: string }) => {
    const de = (container.dataElements as Record<string, DataElement<string>>)[s.name];
    const dl = current.snapshot.dataLayer;
    const dctx: DataElementContext<string> = {
      settings,
      page,
      snapshot: current.snapshot,
      event: current.event,
      dataLayer: (path) => readPath(dl, path),
      get: (name) => turbine.getDataElementValue(name),
      has: (name) => name in container.dataElements,
      cookies,
      session,
      log,
    };
    let value: unknown;
    try {
      switch (de.type) {
        case 'data-layer':
          value = readPath(dl, de.path);
          break;
        case 'cookie': {
          const raw = cookies.get(typeof de.name === 'function' ? de.name(settings) : de.name);
          value = raw !== undefined && de.decode !== false ? safeDecode(raw) : raw;
          break;
        }
        case 'session':
          value = session.get(typeof de.key === 'function' ? de.key(settings) : de.key);
          break;
        case 'constant':
          value = de.value;
          break;
        case 'custom':
          value = de.fn(dctx);
          break;
      }
    } catch (err) {
      log('error', `Failed to execute data element module for data element "${s.name}". ${(err as Error).message}`);
      return defaultOf(de);
    }
    if (missing(value)) {
      if (de.missingMessage) log('log', de.missingMessage);
      value = defaultOf(de) ?? value;
    }
    return value;
  };
});

// ---- the container object --------------------------------------------------------------------
const dataElements: Record<string, unknown> = {};
for (const [name, de] of Object.entries(container.dataElements as Record<string, DataElement<string>>)) {
  dataElements[name] = {
    modulePath: CORE + 'dataElements/customCode.js',
    settings: { name },
    ...(de.cleanText ? { cleanText: true } : {}),
    ...(de.forceLowerCase ? { forceLowerCase: true } : {}),
  };
}
const EVENT_MODULES: Record<string, string> = {
  'library-loaded': 'events/libraryLoaded.js',
  'dom-ready': 'events/domReady.js',
  'window-loaded': 'events/windowLoaded.js',
  'direct-call': 'events/directCall.js',
};
const rules = container.rules.map((rule, ri) => ({
  id: `RL${ri}`,
  name: rule.name,
  events: rule.events
    .filter((e) => EVENT_MODULES[e.type])
    .map((e) => ({
      modulePath: CORE + EVENT_MODULES[e.type],
      settings: e.type === 'direct-call' ? { identifier: e.id } : {},
      ruleOrder: rule.order ?? 50,
    })),
  conditions: (rule.conditions ?? []).map((c, ci) => ({
    modulePath: CORE + 'conditions/customCode.js',
    settings: { rule: ri, condition: ci },
    ...(c.negate ? { negate: true } : {}),
  })),
  actions: rule.actions.map((_a, ai) => ({ modulePath: CORE + 'actions/customCode.js', settings: { rule: ri, action: ai } })),
}));

const BUILD_DATE = '2025-08-19T00:00:00Z';
w._satellite = {
  container: {
    buildInfo: { turbineVersion: '28.1.0', turbineBuildDate: BUILD_DATE, buildDate: BUILD_DATE, minified: true },
    environment: { id: 'ENbench', stage: 'production' },
    company: { orgId: settings.orgId, dynamicCdnEnabled: false },
    property: { name: 'storefront (bench)', id: 'PRbench', settings: { undefinedVarsReturnEmpty: false, ruleComponentSequencingEnabled: false } },
    extensions: { core: { displayName: 'Core', hostedLibFilesBaseUrl: '', settings: {}, modules } },
    dataElements,
    rules,
  },
};
