/**
 * The page's side of Analytics custom code that needs the page (DOM, the page's own functions, the
 * element itself). offtag.js runs such a block when it takes the snapshot of an event of its rule
 * (a page read the import writes: docs/import.md), against a page-side `s` holding the variables
 * as the worker last sent them (`_satellite.getVar('offtag:s')`), and records what the block does
 * to `s`: each variable it sets or removes, and each `t()`, `tl()` and `clearVars()` it calls.
 * The record travels with the event; the worker replays it on its own `s` at the block's place
 * (src/launch/analytics.ts). The page `s` lives as long as the page, so what a page `customSetup`
 * defines on it (helpers, `doPlugins`) is there for the blocks after it.
 *
 * `installPageAnalytics` is written into offtag.js as its source text (the import writes it as the
 * container's first page read, run before the rules' page reads), so it uses nothing from around it.
 */

/** A page block's record: `['set', name, value]` (value undefined: removed), `['t']`, `['tl', type, name]`, `['clear']`; `error` when it threw. */
export type PageOp = ['set', string, unknown] | ['t'] | ['tl', string, string] | ['clear'];
export interface PageRecord {
  ops: PageOp[];
  error?: string;
}

export const installPageAnalytics = (): void => {
  // Helpers are members assigned after the fact: a name JavaScript infers (`const f = () => …`)
  // makes the build's name keeper wrap the function in a helper offtag.js does not have.
  const w = window as unknown as Record<string, any>;
  if (w.__offtagAnalytics) return;
  const h: Record<string, any> = {};
  const s: Record<string, any> = { contextData: {}, version: '2.27.0' };
  const api: Record<string, any> = { s };
  let base = '';
  let ops: PageOp[] = [];
  let seen: Record<string, unknown> = {};
  let setupRecord: PageRecord | undefined;
  let setupFn: ((s: object) => void) | undefined;
  h.isVar = function (v: unknown) {
    return v === undefined || v === null || (typeof v !== 'object' && typeof v !== 'function');
  };
  h.esc = function (v: unknown) {
    return v ? encodeURIComponent(String(v)).replace(/[~!*()']/g, function (c) { return '%' + c.charCodeAt(0).toString(16).toUpperCase(); }) : v;
  };
  h.unesc = function (v: unknown) {
    if (!v) return v;
    const t = String(v).split('+').join(' ');
    try {
      return decodeURIComponent(t);
    } catch {
      return unescape(t);
    }
  };
  /** What of `s` the worker can take: its plain values and contextData, by name. */
  h.values = function () {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(s)) if (k !== 'contextData' && h.isVar(s[k])) out[k] = s[k];
    for (const k of Object.keys(s.contextData || {})) if (h.isVar(s.contextData[k])) out['contextData.' + k] = s.contextData[k];
    return out;
  };
  h.flush = function () {
    const now = h.values();
    for (const k of Object.keys(now)) if (now[k] !== seen[k]) ops.push(['set', k, now[k]]);
    for (const k of Object.keys(seen)) if (!(k in now)) ops.push(['set', k, undefined]);
    seen = now;
  };
  h.cookieRead = function (name: string) {
    const n = String(h.esc(name));
    const c = ' ' + document.cookie;
    const i = c.indexOf(' ' + n + '=');
    const end = i < 0 ? i : c.indexOf(';', i);
    const v = i < 0 ? '' : String(h.unesc(c.substring(i + 2 + n.length, end < 0 ? c.length : end)));
    return v === '[[B]]' ? '' : v;
  };
  h.cookieWrite = function (name: string, value: unknown, expires?: unknown) {
    const text = '' + value;
    let at = '';
    if (expires) at = '; expires=' + (expires instanceof Date ? expires : new Date(Date.now() + (text === '' ? -60000 : 2 * 365 * 86400000))).toUTCString();
    document.cookie = h.esc(name) + '=' + h.esc(text === '' ? '[[B]]' : text) + '; path=/' + at;
    return h.cookieRead(name) === text;
  };
  h.query = function (key: string, url?: string) {
    const m = new RegExp('[?&]' + key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '=([^&#]*)').exec(String(url || location.href));
    return m ? String(h.unesc(m[1])) : '';
  };
  s.c_r = s.cookieRead = h.cookieRead;
  s.c_w = s.cookieWrite = h.cookieWrite;
  s.escape = h.esc;
  s.unescape = h.unesc;
  s.Util = { cookieRead: h.cookieRead, cookieWrite: h.cookieWrite, urlEncode: h.esc, urlDecode: h.unesc, getQueryParam: h.query };
  s.t = function () {
    h.flush();
    ops.push(['t']);
  };
  s.tl = function (_o: unknown, type: string, name: string) {
    h.flush();
    ops.push(['tl', type, name]);
  };
  s.clearVars = function () {
    h.flush();
    ops.push(['clear']);
    for (const k of Object.keys(s)) if (/^(prop|eVar|hier|list)\d+$|^(channel|events|products|purchaseID|transactionID|state|zip|campaign)$/.test(k)) s[k] = undefined;
    seen = h.values();
  };
  s.registerPreTrackCallback = s.registerPostTrackCallback = function () {};
  // AppMeasurement's ActivityMap module, whose link and region a customSetup may wrap.
  s.ActivityMap = {};
  s.ActivityMap.link = s.ActivityMap.region = function () {};
  s.loadModule = function (n: string) {
    s[n] = s[n] || {};
  };
  /** The worker's variables, taken once per snapshot (the blocks of one event share what they set). */
  h.sync = function () {
    const sat = w._satellite;
    const vars = (sat && typeof sat.getVar === 'function' && sat.getVar('offtag:s')) || {};
    const text = JSON.stringify(vars);
    if (text === base) return;
    base = text;
    for (const k of Object.keys(h.values())) {
      if (k.indexOf('contextData.') === 0) delete s.contextData[k.slice(12)];
      else delete s[k];
    }
    for (const k of Object.keys(vars)) {
      if (k.indexOf('contextData.') === 0) s.contextData[k.slice(12)] = vars[k];
      else s[k] = vars[k];
    }
  };
  h.record = function (run: () => void): PageRecord {
    h.sync();
    ops = [];
    seen = h.values();
    try {
      run();
      h.flush();
      return { ops };
    } catch (x) {
      h.flush();
      return { ops, error: x instanceof Error ? x.name + ': ' + x.message : String(x) };
    }
  };
  // VisitorAPI's `Visitor`, which the ECID extension puts on a turbine page and page blocks call
  // (`Visitor.getInstance(org).getMarketingCloudVisitorID()`), when the page has none: its getters
  // answer at once from the AMCV cookie the worker keeps, `setCustomerIDs` goes to the worker's
  // visitor service (offtag.js's `ask`). offtag-visitor.js, when a site loads it, replaces it.
  if (!w.Visitor) {
    const V: Record<string, any> = {};
    V.getInstance = function (org: string) {
      const instance: Record<string, any> = { marketingCloudOrgID: org };
      instance.field = function (name: string) {
        return function (cb?: unknown) {
          const raw = h.cookieRead('AMCV_' + org);
          const parts = String(raw || '').split('|');
          const at = parts.indexOf(name);
          const v = at >= 0 ? parts[at + 1] || '' : '';
          if (typeof cb === 'function') cb(v);
          return v;
        };
      };
      instance.getMarketingCloudVisitorID = instance.field('MCMID');
      instance.getAnalyticsVisitorID = instance.field('MCAID');
      instance.getAudienceManagerLocationHint = instance.getLocationHint = instance.field('MCAAMLH');
      instance.getAudienceManagerBlob = instance.field('MCAAMB');
      instance.isAllowed = function () {
        return true;
      };
      instance.setCustomerIDs = function (ids: unknown, hash?: unknown) {
        if (w.offtag && typeof w.offtag.ask === 'function') w.offtag.ask({ type: 'service-call', service: 'visitor', method: 'setCustomerIDs', args: [ids, hash] }).catch(function () {});
      };
      return instance;
    };
    w.Visitor = V;
  }
  // Turbine's deprecated `_satellite.notify(message, level)`, which Analytics code still calls: a log line.
  if (w._satellite && typeof w._satellite.notify !== 'function') {
    w._satellite.notify = function (message: unknown, level?: number) {
      const logger = w._satellite.logger || {};
      const log = level === 5 ? logger.error : level === 4 ? logger.warn : logger.log;
      if (typeof log === 'function') log.call(logger, message);
    };
  }
  /** Hands over the extension's customSetup (a page read with each event: the first one is kept). */
  api.define = function (fn: (s: object) => void) {
    if (!setupFn) setupFn = fn;
  };
  /**
   * The extension's customSetup: run once per page, `this` the window, `s` its argument. Its
   * record comes with every event of an Analytics rule: the worker takes it when it makes its tracker.
   */
  api.setup = function (global: boolean) {
    if (!setupRecord)
      setupRecord = h.record(function () {
        if (global) w.s = s;
        if (setupFn) setupFn.call(w, s);
      });
    return setupRecord;
  };
  /** A Set Variables custom code block: `this` the element, `(event, s)` (the page read's turbine-shaped event). */
  api.run = function (fn: (e: object, s: object) => void, event: object, el?: Element) {
    return h.record(function () {
      fn.call(el, event, s);
    });
  };
  /** doPlugins, for a beacon of this event: `linkType` set as AppMeasurement sets it for a link call. */
  api.plugins = function (linkType: string, linkName: string) {
    return h.record(function () {
      if (!s.usePlugins || typeof s.doPlugins !== 'function') return;
      s.linkType = linkType || undefined;
      s.linkName = linkName || undefined;
      try {
        s.doPlugins(s);
      } finally {
        s.linkType = s.linkName = undefined;
      }
    });
  };
  w.__offtagAnalytics = api;
};
