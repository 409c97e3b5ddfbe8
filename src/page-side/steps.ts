/**
 * The steps of imported Launch rules that run on the page (the worker's `launch` effects), as
 * Launch's Core extension and turbine run them: custom code as a script of its own (a function
 * of `event, target, Promise` with the element as `this`, or global code as written), HTML written
 * into the page, an external code file loaded from the library's host (turbine's
 * `_satellite.__registerScript(url, code)` protocol), an extension's action module. A step that
 * throws is named with its rule; when the rule waits (turbine's component sequencing), the page
 * answers the worker once the step has ended — its promise settled — and the worker goes on with
 * the rule or stops it, with turbine's words.
 */
import type { LaunchEffect, LaunchStep } from '../protocol.ts';
import { logger, type Host } from './host.ts';
import { writeHtml, writeScript } from './html.ts';
import { scriptLoaded } from './reactor-modules.ts';
import type { PageHooks, Post } from './types.ts';

type Event = Record<string, unknown> & { element?: unknown; target?: unknown };

/** The page's Launch global: the custom code callbacks and, for the devtools overlay, what each step cost the main thread. */
interface LaunchGlobal {
  runs: Array<{ rule: string; seq: number; ms: number }>;
  c: Record<number, (fn: (...a: unknown[]) => unknown) => void>;
}

const w = window as unknown as {
  __offtagLaunch?: LaunchGlobal;
  _satellite?: Record<string, unknown>;
  offtag?: unknown;
  /** The page-side `s` of Analytics custom code (src/launch/appmeasurement/page-tracker.ts), installed by the container's first page read. */
  __offtagAnalytics?: { step(step: LaunchStep, event: Event, element: unknown): unknown };
};
const message = (x: unknown) => (x instanceof Error ? x.message : x && typeof x == 'object' ? String((x as { message?: unknown }).message ?? 'a thrown object') : String(x));

export function createSteps(ctx: { host?: Host; element(seq: number): Element | undefined; hooks(): PageHooks | undefined; post(): Post | undefined }) {
  const g: LaunchGlobal = (w.__offtagLaunch ??= { runs: [], c: {} });
  let id = 0;
  /** Custom code registered by external files, by their URL as the action gives it; each file loaded once. */
  const registered: Record<string, string> = {};
  const loading: Record<string, Promise<unknown>> = {};
  /** External files' code comes in the order their actions ran (Core loads it sequentially). */
  let previous: Promise<unknown> = Promise.resolve();
  let callbackId = 0;
  const callbacks: Record<string, [() => void, () => void]> = {};

  let installed: unknown;
  /** The satellite methods external files and HTML code call (Core adds them to turbine's `_satellite`; Offtag's gets them on first use). */
  const satellite = () => {
    const s = w._satellite;
    if (!s || installed === s) return;
    installed = s;
    s.__registerScript = (guid: string, code: string) => {
      const current = document.currentScript ?? Array.from(document.scripts).find((x) => (x.getAttribute('src') ?? '').indexOf(guid) >= 0);
      registered[current?.getAttribute('src') ?? guid] = code;
    };
    s._onCustomCodeSuccess = (n: string) => callbacks[n]?.[0]();
    s._onCustomCodeFailure = (n: string) => callbacks[n]?.[1]();
  };

  const external = (url: string): Promise<string | undefined> => {
    satellite();
    const code = url in registered ? Promise.resolve() : (loading[url] ??= scriptLoaded(url));
    const mine = Promise.all([code, previous]).then(() => registered[url]);
    previous = mine;
    return mine;
  };

  /** JavaScript as Core writes it: a script of its own that hands its function to the page, which calls it with the element, the event and its target. */
  const js = (code: string, global: boolean | undefined, fn: boolean | undefined, event: Event, nonce?: string): Promise<unknown> | void => {
    if (global) return writeScript(code, nonce);
    return new Promise((resolve, reject) => {
      const n = ++id;
      g.c[n] = (f) => {
        delete g.c[n];
        new Promise((r) => r(f.call(event.element, event, event.target, Promise))).then(resolve, reject);
      };
      writeScript(`__offtagLaunch.c[${n}](${fn ? code : `function (event, target, Promise) {\n${code}\n}`});`, nonce);
    });
  };

  /** Core's HTML: `${reactorCallbackId}` in it makes the step wait for `_satellite._onCustomCodeSuccess/Failure(id)`. */
  const html = (text: string, nonce?: string): Promise<unknown> => {
    if (text.indexOf('${reactorCallbackId}') < 0) return writeHtml(text, nonce);
    satellite();
    const n = String(callbackId++);
    const ended = new Promise<void>((resolve, reject) => (callbacks[n] = [resolve, () => reject(new Error('the HTML code reported a failure'))]));
    return writeHtml(text.replace(/\$\{reactorCallbackId\}/g, n), nonce).then(() => ended);
  };

  /**
   * An external HTML file's `%tokens%`, replaced as turbine replaces them when the file arrives:
   * with the worker's values, asked for (`_satellite.getVarAsync`) when the page has none yet; a
   * name that is no data element is left as written.
   */
  const tokens = async (text: string): Promise<string> => {
    const vars = ctx.hooks()?.vars ?? {};
    const names = [...new Set(Array.from(text.matchAll(/%(.+?)%/g), (m) => m[1]!))];
    const ask = (w as { offtag?: { ask?(e: unknown): Promise<{ value?: unknown }> } }).offtag?.ask;
    const known: Record<string, unknown> = {};
    for (const n of names) {
      if (n in vars) known[n] = vars[n];
      else if (ask) {
        const v = (await ask({ type: 'get-var', name: n })).value;
        if (v !== undefined) known[n] = v;
      }
    }
    return text.replace(/%(.+?)%/g, (t, name: string) => (name in known ? String(known[name]) : t));
  };

  const step = (s: LaunchStep, event: Event, nonce?: string): unknown => {
    if ('js' in s) return js(s.js, s.global, s.fn, event, nonce);
    if ('html' in s) return html(s.html, nonce);
    if ('url' in s)
      // A file that does not load (a 404) runs nothing and fails nothing, as with Core.
      return external(s.url).then((code) => (code === undefined ? undefined : s.language == 'html' ? tokens(code).then((t) => html(t, nonce)) : js(code, s.global, false, event, nonce)));
    if ('analytics' in s) {
      const a = w.__offtagAnalytics;
      if (!a) throw new Error('the page has no Analytics tracker for its custom code (rebuild offtag.js with offtag build)');
      return a.step(s, event, event.element);
    }
    if (!ctx.host) throw new Error('the page has no module host for ' + s.module + ' (rebuild offtag.js with offtag build)');
    return ctx.host.call(s.module, s.settings, event);
  };

  return (e: LaunchEffect): void => {
    const start = performance.now();
    const hooks = ctx.hooks();
    // The block's `_satellite.getVar` answers with this event's values.
    if (e.values && hooks) Object.assign(hooks.vars, e.values);
    const element = ctx.element(e.seq);
    const event: Event = element ? { ...e.event, element, target: element } : e.event;
    let ended: Promise<unknown>;
    try {
      ended = Promise.resolve(step(e.step, event, e.nonce));
    } catch (x) {
      ended = Promise.reject(x);
    }
    g.runs.push({ rule: e.rule, seq: e.seq, ms: performance.now() - start });
    if (g.runs.length > 100) g.runs.shift();
    const answer = (status: number, body: string) => e.answer && ctx.post()?.({ type: 'response', id: e.answer, response: { status, body } });
    ended.then(
      // An Analytics step's record goes back to the worker, which replays it on its `s`.
      (v) => answer(200, 'analytics' in e.step ? JSON.stringify(v) : ''),
      (x) => {
        const why = message(x);
        // A waiting rule: the worker says it, and stops the rule. Otherwise it is said here, and the rule went on.
        if (e.answer) answer(500, why);
        // As turbine's logger says it: with debug on only.
        else logger().error(`Failed to execute "${e.name}" for "${e.rule}" rule. ${why}`);
      },
    );
  };
}
