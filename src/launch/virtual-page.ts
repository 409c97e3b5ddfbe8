/**
 * The page as custom code sees it in the worker: a `window` made of the event's snapshot, holding
 * what the import lets a block use there (tools/import/custom-code.ts): `location`, `document`
 * (URL, location, referrer, domain, and `cookie` read and written through the engine's cookie jar,
 * so a write becomes the bridge's cookie effect), `navigator`, `screen`, `innerWidth`/`innerHeight`,
 * a turbine-shaped `_satellite`, `sessionStorage`, `Visitor.getInstance` answering from the
 * visitor service, the Analytics tracker `s`, and the data layer global (the snapshot's copy).
 * A rule's window lives as long as the engine: what a block assigns to it (`window.s = s`, a
 * sloppy global) is there for the next block, as on a page.
 */
import type { ElementInfo, PageInfo } from '../protocol.ts';
import { amcvCookieName, decodeAmcv } from '../worker-engine/visitor/amcv-cookie.ts';
import type { Services } from '../worker-engine/services.ts';
import { normalizeOrgId } from '../visitor-api.ts';
import { launchEvent, satelliteShim, storageShim, type LaunchEvent } from './custom-code.ts';
import type { Ctx, DCtx } from './types.ts';

/** The services of an imported Launch container: Adobe's, and the page facts its custom code reads. */
export interface LaunchServices extends Services {
  pageInfo?: PageInfo;
}

export type VirtualWindow = Record<string, any>;

const windows = new WeakMap<object, VirtualWindow>();

/** `document.cookie = "name=value; path=/; expires=…; domain=…; max-age=…"` as a jar write. */
function writeCookie(ctx: Ctx | DCtx, text: string, now: number): void {
  // split always gives one part at least.
  const [pair, ...attrs] = String(text).split(';') as [string, ...string[]];
  const eq = pair.indexOf('=');
  const name = (eq < 0 ? '' : pair.slice(0, eq)).trim();
  const value = (eq < 0 ? pair : pair.slice(eq + 1)).trim();
  const o: { expires?: number; domain?: string; path?: string; secure?: boolean } = {};
  for (const a of attrs) {
    const i = a.indexOf('=');
    const k = (i < 0 ? a : a.slice(0, i)).trim().toLowerCase();
    const v = i < 0 ? '' : a.slice(i + 1).trim();
    if (k === 'expires' && !Number.isNaN(Date.parse(v))) o.expires ??= Date.parse(v);
    else if (k === 'max-age' && v !== '' && !Number.isNaN(Number(v))) o.expires = now + Number(v) * 1000;
    else if (k === 'domain') o.domain = v;
    else if (k === 'path') o.path = v;
    else if (k === 'secure') o.secure = true;
  }
  if (name) ctx.cookies.set(name, value, o);
}

/** The element a page trigger matched, as `this` of a block: its attributes, id, class, tag, href and text. */
export function elementOf(info: ElementInfo | undefined): object | undefined {
  if (!info) return undefined;
  const attrs = info.attributes ?? {};
  return {
    tagName: info.tagName,
    nodeName: info.tagName,
    id: info.id,
    className: info.className,
    href: info.href ?? attrs.href,
    textContent: info.text,
    innerText: info.text,
    getAttribute: (n: string) => (Object.prototype.hasOwnProperty.call(attrs, String(n).toLowerCase()) ? attrs[String(n).toLowerCase()] : null),
    hasAttribute: (n: string) => Object.prototype.hasOwnProperty.call(attrs, String(n).toLowerCase()),
  };
}

/** A `Visitor` whose instance answers the getters VisitorAPI answers at once, from the AMCV cookie, and forwards the rest. */
function visitorFacade(ctx: Ctx | DCtx, services: LaunchServices | undefined): object {
  const fields = (org: string) => {
    const raw = ctx.cookies.get(amcvCookieName(org));
    return raw ? decodeAmcv(raw).fields : new Map<string, { value: string }>();
  };
  return {
    getInstance(orgId: unknown) {
      // As VisitorAPI: no org or one that is no text throws; `@AdobeOrg` is appended when missing.
      const org = normalizeOrgId(orgId);
      const field = (f: string) => (cb?: unknown) => {
        const v = fields(org).get(f)?.value ?? '';
        if (typeof cb === 'function') cb(v);
        return v;
      };
      return {
        marketingCloudOrgID: org,
        getMarketingCloudVisitorID: field('MCMID'),
        getAnalyticsVisitorID: field('MCAID'),
        getAudienceManagerLocationHint: field('MCAAMLH'),
        getLocationHint: field('MCAAMLH'),
        getAudienceManagerBlob: field('MCAAMB'),
        isAllowed: () => true,
        getCustomerIDs: () => services?.visitor.getCustomerIDs() ?? {},
        setCustomerIDs: (ids: unknown, hash?: unknown) => void services?.visitor.call('setCustomerIDs', [ids, hash]).catch(() => {}),
      };
    },
  };
}

/** The hidden data element that carries a page global a worker block reads as data. */
export const pageGlobalElement = (name: string) => `offtag:global ${name}`;

/** What a window offers, read from the context of the current event. */
function define(w: VirtualWindow, current: () => { ctx: Ctx | DCtx; page?: PageInfo; services?: LaunchServices; element?: ElementInfo }): void {
  const url = () => {
    try {
      return new URL(current().ctx.snapshot.url);
    } catch {
      return new URL('about:blank');
    }
  };
  const location = {} as Record<string, unknown>;
  for (const k of ['href', 'protocol', 'host', 'hostname', 'port', 'pathname', 'search', 'hash', 'origin'] as const) {
    Object.defineProperty(location, k, { get: () => (k === 'href' ? current().ctx.snapshot.url : url()[k]), enumerable: true });
  }
  location.toString = () => current().ctx.snapshot.url;
  const document = {
    get URL() {
      return current().ctx.snapshot.url;
    },
    location,
    get referrer() {
      return current().ctx.snapshot.referrer;
    },
    get domain() {
      return url().hostname;
    },
    get cookie() {
      return Object.entries(current().ctx.cookies.all())
        .map(([k, v]) => `${k}=${v}`)
        .join('; ');
    },
    set cookie(text: string) {
      writeCookie(current().ctx, text, Date.now());
    },
  };
  // Stable objects that read the current event: a block (a doPlugins) may keep them between events.
  const sat = () => satelliteShim(current().ctx);
  const satellite = {
    getVar: (name: string) => current().ctx.get(name),
    cookie: { get: (n: string) => sat().cookie.get(n), set: (n: string, v: unknown, o?: object) => sat().cookie.set(n, v, o), remove: (n: string) => sat().cookie.remove(n) },
    logger: Object.fromEntries((['log', 'info', 'warn', 'error', 'debug'] as const).map((l) => [l, (...a: unknown[]) => sat().logger[l](...a)])),
    get environment() {
      return sat().environment;
    },
    get buildInfo() {
      return { environment: current().ctx.settings.environment };
    },
    notify: (message: unknown, level?: number) => sat().logger[level === 5 ? 'error' : level === 4 ? 'warn' : 'log'](message),
  };
  const storage = {
    getItem: (k: string) => storageShim(current().ctx.session).getItem(k),
    setItem: (k: string, v: unknown) => storageShim(current().ctx.session).setItem(k, v),
    removeItem: (k: string) => storageShim(current().ctx.session).removeItem(k),
  };
  const props: Record<string, () => unknown> = {
    location: () => location,
    document: () => document,
    navigator: () => {
      const p = current().page;
      return { userAgent: p?.userAgent ?? '', language: p?.language ?? '', languages: p?.language ? [p.language] : [], cookieEnabled: p?.cookiesEnabled ?? true };
    },
    screen: () => {
      const sc = current().page?.screen;
      return { width: sc?.width ?? 0, height: sc?.height ?? 0, colorDepth: sc?.colorDepth ?? 24, pixelDepth: sc?.colorDepth ?? 24 };
    },
    innerWidth: () => current().ctx.snapshot.viewport?.width,
    innerHeight: () => current().ctx.snapshot.viewport?.height,
    _satellite: () => satellite,
    sessionStorage: () => storage,
    Visitor: () => visitorFacade(current().ctx, current().services),
    [current().ctx.settings.dataLayer]: () => current().ctx.snapshot.dataLayer,
  };
  for (const [k, get] of Object.entries(props)) Object.defineProperty(w, k, { get, configurable: true, enumerable: false });
  // Page globals a block reads as data: each is a data element read on the page with every event (the import names them).
  Object.defineProperty(w, '__pageGlobals', {
    value: (names: string[]) => {
      for (const n of names) if (!Object.prototype.hasOwnProperty.call(w, n)) Object.defineProperty(w, n, { get: () => current().ctx.get(pageGlobalElement(n)), configurable: true, enumerable: false });
    },
    enumerable: false,
  });
  for (const k of ['window', 'self', 'top', 'parent', 'globalThis', 'frames']) Object.defineProperty(w, k, { value: w, configurable: true, enumerable: false });
}

/**
 * The window a block of this event runs against: the engine's own, kept between events and shared
 * by rules and data elements (what a block assigns to it, `window.s`, is there for the others).
 */
export function virtualPage(ctx: Ctx | DCtx): VirtualWindow {
  const services = 'services' in ctx ? (ctx.services as LaunchServices) : undefined;
  const page = 'page' in ctx && !('services' in ctx) ? (ctx as DCtx).page : services?.pageInfo;
  const element = (ctx.event as { element?: ElementInfo }).element;
  // One window per engine: a data element's context has no services, but the engine's settings object is its too.
  const key = (services ?? ctx.settings) as object | undefined;
  let w = key ? windows.get(key) : undefined;
  if (!w && services && windows.has(ctx.settings)) {
    // A data element made the window first: the rule's takes it over.
    w = windows.get(ctx.settings)!;
    windows.set(services, w);
  }
  if (!w) {
    w = {};
    const holder = { ctx, page, services, element };
    define(w, () => holder);
    (w as { __current?: typeof holder }).__current = holder;
    Object.defineProperty(w, '__current', { enumerable: false });
    if (key) windows.set(key, w);
    windows.set(ctx.settings, w);
  }
  const holder = (w as { __current: { ctx: Ctx | DCtx; page?: PageInfo; services?: LaunchServices; element?: ElementInfo } }).__current;
  holder.ctx = ctx;
  holder.page = page ?? holder.page;
  holder.services = services ?? holder.services;
  holder.element = element;
  return w;
}

/** A block placed in the worker: a function of the virtual page returning the block itself. */
export type WorkerBlock = (w: VirtualWindow) => (this: unknown, ...args: any[]) => unknown;

/** The turbine event a block gets: `$type`, `$rule`, a direct call's identifier and detail, a page trigger's element. */
export function turbineEvent(ctx: Ctx | DCtx, rule: string): LaunchEvent & { element?: object } {
  const element = elementOf((ctx.event as { element?: ElementInfo }).element);
  return { ...launchEvent(ctx.event, rule), ...(element ? { element } : {}) };
}

/** Runs a worker block with `args`; `this` is the event's element (undefined without one) or the window. */
export function runBlock(block: WorkerBlock, ctx: Ctx | DCtx, self: 'element' | 'window', args: unknown[]): unknown {
  const w = virtualPage(ctx);
  return block(w).apply(self === 'window' ? w : elementOf((ctx.event as { element?: ElementInfo }).element), args);
}
