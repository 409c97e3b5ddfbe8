/**
 * The page's side of Analytics custom code that needs the page (DOM, the page's own functions, the
 * element itself): the customSetup, the doPlugins it defines, a Set Variables block. Each runs as a
 * step of its rule, at its place (src/launch/analytics.ts): the worker sends its `s` variables of
 * that moment with the step, the page `s` takes them, the block runs against it, and the page
 * answers with what the block did to `s` — each variable it set or removed, each `t()`, `tl()` and
 * `clearVars()` it called — which the worker replays on its own `s` before the rule goes on. The
 * page `s` lives as long as the page, so what a page `customSetup` defines on it (helpers,
 * `doPlugins`, objects) is there for the steps after it; its plain variables are always the
 * worker's.
 *
 * `installPageAnalytics` is written into offtag.js as its source text (the import writes it as the
 * container's first page read, with the page blocks' functions), so it uses nothing from around it.
 */

/** A page block's record: `['set', name, value]` (value undefined: removed), `['t']`, `['tl', type, name]`, `['clear']`; `error` when it threw. */
export type PageOp = ['set', string, unknown] | ['t'] | ['tl', string, string] | ['clear'];
export interface PageRecord {
  ops: PageOp[];
  error?: string;
}

/** What the worker asks of the page `s` (the `analytics` launch step, src/protocol.ts). */
export interface PageAnalyticsStep {
  /** `setup`: the extension's customSetup; `block`: Set Variables custom code number `block`; `plugins`: doPlugins for a beacon. */
  analytics: 'setup' | 'block' | 'plugins';
  /** The worker's `s` variables now (plain values and `contextData.<key>` entries). */
  vars: Record<string, unknown>;
  block?: number;
  /** setup, or a Core block reaching the tracker through the page: the extension makes the tracker `window.s`. */
  global?: boolean;
  /** plugins: a link call's type and name, as AppMeasurement sets them before doPlugins. */
  linkType?: string;
  linkName?: string;
}

export const installPageAnalytics = (): void => {
  // Helpers are members assigned after the fact: a name JavaScript infers (`const f = () => …`)
  // makes the build's name keeper wrap the function in a helper offtag.js does not have.
  const w = window as unknown as Record<string, any>;
  if (w.__offtagAnalytics) return;
  const h: Record<string, any> = {};
  const s: Record<string, any> = { contextData: {}, version: '2.27.0' };
  const api: Record<string, any> = { s };
  let ops: PageOp[] = [];
  let seen: Record<string, unknown> = {};
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
    if (expires) {
      // AppMeasurement's: an empty value expires a minute ago, any other in two calendar years.
      let d = expires as Date;
      if (!(expires instanceof Date)) {
        d = new Date();
        if (text === '') d.setTime(d.getTime() - 60000);
        else d.setFullYear(d.getFullYear() + 2);
      }
      at = '; expires=' + d.toUTCString();
    }
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
  /** The worker's variables, as the step brings them: they replace the page `s`'s own (its functions and objects stay). */
  h.load = function (vars: Record<string, unknown>) {
    for (const k of Object.keys(h.values())) {
      if (k.indexOf('contextData.') === 0) delete s.contextData[k.slice(12)];
      else delete s[k];
    }
    for (const k of Object.keys(vars || {})) {
      if (k.indexOf('contextData.') === 0) s.contextData[k.slice(12)] = vars[k];
      else s[k] = vars[k];
    }
  };
  /**
   * `document.cookie` read once per step, until something writes it: a doPlugins' cookie plugins
   * (getValOnce, the s_pers/s_sess combiners) read it dozens of times a beacon, and each read makes
   * the browser copy the whole cookie text again. For the step only, and only when the page has
   * not put an accessor of its own on `document`: an own `cookie` property whose writes go to the
   * browser's and drop the copy; removed when the step ends, whatever it did.
   */
  h.cookieMemo = function (run: () => void) {
    let native: PropertyDescriptor | undefined;
    try {
      native = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
    } catch {
      /* no Document (not a browser page) */
    }
    if (!native || !native.get || !native.set || Object.getOwnPropertyDescriptor(document, 'cookie')) return run();
    const get = native.get;
    const set = native.set;
    let text: string | undefined;
    const memo: PropertyDescriptor = { configurable: true };
    memo.get = function () {
      return text === undefined ? (text = get.call(document)) : text;
    };
    memo.set = function (v: unknown) {
      text = undefined;
      set.call(document, v);
    };
    Object.defineProperty(document, 'cookie', memo);
    try {
      run();
    } finally {
      delete (document as unknown as Record<string, unknown>).cookie;
    }
  };
  h.record = function (vars: Record<string, unknown>, run: () => void): PageRecord {
    if (!s.contextData || typeof s.contextData !== 'object') s.contextData = {};
    h.load(vars);
    ops = [];
    seen = h.values();
    try {
      h.cookieMemo(run);
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
    /** Each org's supplemental data id on the page: the current one and the consumers that took it. */
    const sdids: Record<string, { current: string; taken: Record<string, boolean> }> = {};
    V.getInstance = function (orgId: unknown) {
      // VisitorAPI's org check (src/visitor-api.ts normalizeOrgId, written out: this function goes to the page as its source text).
      if (!orgId) throw new Error('Visitor requires Adobe Marketing Cloud Org ID.');
      if (typeof orgId !== 'string') throw new Error('Org ID is not a string.');
      const org = orgId.indexOf('@') < 0 ? orgId + '@AdobeOrg' : orgId;
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
      // VisitorAPI's supplemental data id, which Target's at.js asks for at once (Analytics for
      // Target): the page answers now, as VisitorAPI does (a new id once this consumer has taken the
      // current one), and the worker's visitor service takes the same id, so the Analytics hit
      // after it carries it as its `sdid`.
      instance.getSupplementalDataID = function (consumer: unknown, noGenerate?: unknown) {
        const c = String(consumer || '');
        const sd = (sdids[org] = sdids[org] || { current: '', taken: {} });
        if (sd.taken[c]) sd.current = '', sd.taken = {};
        if (!sd.current && !noGenerate) {
          let x = '';
          for (let i = 0; i < 32; i++) x += Math.floor(Math.random() * 16).toString(16).toUpperCase();
          sd.current = x.slice(0, 16) + '-' + x.slice(16);
        }
        if (!sd.current) return '';
        sd.taken[c] = true;
        if (w.offtag && typeof w.offtag.ask === 'function') w.offtag.ask({ type: 'service-call', service: 'visitor', method: 'getSupplementalDataID', args: [c, true, sd.current] }).catch(function () {});
        return sd.current;
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
  /** The extension's customSetup and the Set Variables blocks that run on the page, handed over once (offtag.js's first page read). */
  api.define = function (setup: ((s: object) => void) | undefined, blocks: Array<(e: object, s: object) => void>) {
    setupFn = setup;
    api.blocks = blocks || [];
  };
  /**
   * One step of a rule (PageAnalyticsStep): the customSetup (`this` the window, `s` its argument,
   * `window.s` first when the extension makes the tracker global), a Set Variables block (`this`
   * the element, `(event, s)`), or doPlugins for a beacon (`linkType` and `linkName` set as
   * AppMeasurement sets them for a link call).
   */
  api.step = function (step: PageAnalyticsStep, event: object, el?: Element): PageRecord {
    return h.record(step.vars, function () {
      if (step.analytics === 'setup') {
        if (step.global) w.s = s;
        if (setupFn) setupFn.call(w, s);
      } else if (step.analytics === 'block') {
        // Core custom code that reaches the tracker through window.s (the extension's global tracker).
        if (step.global) w.s = s;
        const fn = api.blocks && api.blocks[step.block || 0];
        if (typeof fn !== 'function') throw new Error('the page has no Analytics block ' + step.block + ' (rebuild offtag.js with offtag build)');
        fn.call(el, event, s);
      } else {
        if (!s.usePlugins || typeof s.doPlugins !== 'function') return;
        s.linkType = step.linkType || undefined;
        s.linkName = step.linkName || undefined;
        try {
          s.doPlugins(s);
        } finally {
          s.linkType = s.linkName = undefined;
        }
      }
    });
  };
  w.__offtagAnalytics = api;
};
