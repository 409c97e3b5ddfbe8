/**
 * offtag.js's page side in real Chromium (src/page-side, docs/import.md "What stays on the page"):
 * HTML written as Core writes it (scripts in order, a `src` script before the next node, what a
 * script writes with `document.write` right after it), page steps answering the worker (a step
 * that throws answers with its error; `${reactorCallbackId}` holds the step until the code calls
 * back), and the module host's `require` and `turbine` as extension modules use them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { writeHtml } from '../../src/page-side/html.ts';
import { pageSide } from '../../src/page-side/index.ts';
import { createHost, debugChanged } from '../../src/page-side/host.ts';
import { queryString, reactorModules } from '../../src/page-side/reactor-modules.ts';
import type { EngineInput, LaunchEffect } from '../../src/protocol.ts';
import type { PageData } from '../../src/page-side/types.ts';

type W = Window & { __order: string[]; _satellite: Record<string, unknown> };
const w = window as unknown as W;
const src = (code: string) => `data:text/javascript,${encodeURIComponent(code)}`;

afterEach(() => {
  document.body.innerHTML = '';
  w.__order = [];
});

describe('HTML written as Core writes it', () => {
  it('runs its scripts in order: an inline one at once, a src one before the next node; document.write goes right after its script', async () => {
    w.__order = [];
    await writeHtml(
      `<p id="one">one</p><script>__order.push('inline ' + document.getElementById('one').textContent); document.write('<i id="written">w</i>');</script>` +
        `<script src="${src("__order.push('src ' + !!document.getElementById('written'))")}"></script><div><script>__order.push('nested ' + (document.getElementById('two') === null))</script></div><p id="two">two</p>`,
    );
    expect(w.__order).toEqual(['inline one', 'src true', 'nested true']);
    // The written markup is in place, right after its script, before what followed it.
    expect(Array.from(document.body.children).map((e) => e.tagName + (e.id ? '#' + e.id : ''))).toEqual(['P#one', 'SCRIPT', 'I#written', 'SCRIPT', 'DIV', 'P#two']);
    expect(document.write).toBe(Document.prototype.write);
  });

  it('a noscript stays text, as the page parses it with scripting on: its image is not loaded', async () => {
    const seen = performance.getEntriesByType('resource').length;
    await writeHtml('<noscript><img id="pixel" src="/noscript-pixel.gif?x=1"></noscript><p id="after">a</p>');
    expect(document.getElementById('pixel')).toBeNull();
    expect(document.querySelector('noscript')!.textContent).toContain('noscript-pixel.gif');
    expect(performance.getEntriesByType('resource').slice(seen).filter((e) => e.name.includes('noscript-pixel'))).toEqual([]);
  });
});

function runtime(data: PageData = {}) {
  const posted: EngineInput[] = [];
  const side = pageSide(data);
  w._satellite = {};
  side.start({ vars: {} }, (input) => posted.push(input));
  const step = (s: LaunchEffect['step'], answer?: string) => side.run({ type: 'launch', step: s, name: 'Custom Code', rule: 'R', seq: 1, event: { $type: 'core.direct-call' }, ...(answer ? { answer } : {}) });
  const answered = async (id: string) => {
    for (let i = 0; i < 100 && !posted.some((p) => p.type === 'response' && p.id === id); i++) await new Promise((r) => setTimeout(r, 10));
    return posted.find((p) => p.type === 'response' && p.id === id) as Extract<EngineInput, { type: 'response' }> | undefined;
  };
  return { side, step, answered, posted };
}

describe('page steps answer the worker', () => {
  it('a block that ends answers 200; one that throws answers 500 with its error; its promise holds the answer', async () => {
    const { step, answered } = runtime();
    w.__order = [];
    step({ js: "__order.push('ran ' + event.$type + ' ' + typeof __offtagPage);" }, 'a');
    expect((await answered("a"))?.response).toEqual({ status: 200, body: "" });
    step({ js: "document.getElementById('nothing').x = 1;" }, 'b');
    expect((await answered('b'))?.response).toEqual({ status: 500, body: "Cannot set properties of null (setting 'x')" });
    step({ js: "return new Promise(function (r) { setTimeout(function () { __order.push('later'); r(); }, 30); });" }, 'c');
    expect((await answered('c'))?.response.status).toBe(200);
    expect(w.__order).toEqual(['ran core.direct-call undefined', 'later']);
  });

  it("a block that throws in a rule that does not wait is said as turbine's logger says it: only with debug on", async () => {
    const error: unknown[][] = [];
    const original = console.error;
    console.error = (...a: unknown[]) => void error.push(a);
    try {
      // The switch is read when the page starts, as turbine reads it: each page here starts after it is set.
      const thrown = async (debug: boolean) => {
        localStorage.setItem('com.adobe.reactor.debug', String(debug));
        const { step } = runtime();
        error.length = 0;
        step({ js: "__order.push('about to throw'); document.getElementById('nothing').x = 1;" });
        // The block ran as its script was written; its failure is said once its promise settled, before the next task.
        expect(w.__order).toEqual(['about to throw']);
        await new Promise((r) => setTimeout(r, 0));
        w.__order = [];
        return error.slice();
      };
      w.__order = [];
      expect(await thrown(false)).toEqual([]);
      expect(await thrown(true)).toEqual([['🚀', "Failed to execute \"Custom Code\" for \"R\" rule. Cannot set properties of null (setting 'x')"]]);
    } finally {
      console.error = original;
      localStorage.removeItem('com.adobe.reactor.debug');
    }
  });

  it('an external code file that does not load runs nothing and fails nothing, without making an Error; the module host\'s load-script still rejects with the loader\'s words', async () => {
    const { step, answered } = runtime();
    const gone = () => {
      const url = URL.createObjectURL(new Blob(['window.__order.push("ran")'], { type: 'text/javascript' }));
      URL.revokeObjectURL(url);
      return url;
    };
    const Original = window.Error;
    let made = 0;
    window.Error = new Proxy(Original, {
      construct: (E, args: unknown[]) => (String(args[0]).startsWith('Failed to load script') && made++, new E(...(args as [string]))),
    });
    try {
      w.__order = [];
      step({ url: gone(), language: 'javascript' }, 'missing');
      expect((await answered('missing'))?.response).toEqual({ status: 200, body: '' });
      expect(w.__order).toEqual([]);
      expect(made).toBe(0);
      const url = gone();
      await expect((reactorModules()['load-script'] as (u: string) => Promise<unknown>)(url)).rejects.toThrow('Failed to load script ' + url);
      expect(made).toBe(1);
    } finally {
      window.Error = Original;
    }
  });

  it('HTML with ${reactorCallbackId} ends when the code calls _satellite._onCustomCodeSuccess (or fails with _onCustomCodeFailure)', async () => {
    const { step, answered } = runtime();
    step({ html: '<script>setTimeout(function () { _satellite._onCustomCodeSuccess(${reactorCallbackId}); }, 20);</script>' }, 'ok');
    expect((await answered('ok'))?.response.status).toBe(200);
    step({ html: '<script>_satellite._onCustomCodeFailure(${reactorCallbackId});</script>' }, 'ko');
    expect((await answered('ko'))?.response).toEqual({ status: 500, body: 'the HTML code reported a failure' });
  });
});

describe('the module host', () => {
  const script = (f: string) => new Function(`return (${f})`)();
  const data: PageData = {
    host: {
      extensions: {
        acme: {
          displayName: 'Acme',
          settings: { account: '%section%-x', list: ['%section%'] },
          hostedLibFilesBaseUrl: 'https://cdn.example/acme/',
          modules: {
            'acme/common/state.js': { name: 'state', shared: true, script: script('function (module) { window.__acmeEvaluated = (window.__acmeEvaluated || 0) + 1; module.exports = { n: 41 }; }') },
            'acme/actions/go.js': {
              name: 'go',
              script: script(
                "function (module, exports, require, turbine) { var state = require('../common/state'); var cookie = require('@adobe/reactor-cookie'); module.exports = function (settings, event) { cookie.set('acme id', 'a b;c', { expires: 1 }); return [state.n + 1, turbine.getSharedModule('acme', 'state') === state, turbine.getExtensionSettings(), turbine.getHostedLibFileUrl('lib.js'), cookie.get('acme id'), settings.x, event.$type, require('@adobe/reactor-query-string').parse('?a=1&a=2&b=%20c').a]; }; }",
              ),
            },
            'acme/dataElements/id.js': { name: 'id', script: script("function (module, exports, require) { module.exports = function (settings) { return settings.prefix + require('@adobe/reactor-cookie').get('acme id'); }; }") },
          },
        },
      },
      info: { buildInfo: { minified: true }, property: { name: 'P' } },
      events: [],
      dataElements: ['section'],
    },
    elements: { 'acme id': ['m', 'acme/dataElements/id.js', { prefix: '%section%:' }] },
  };

  it('runs every module once at start, with require and turbine as extensions use them', () => {
    const host = createHost(data.host!, () => ({ section: 'shoes' }), () => undefined);
    host.start(() => () => {});
    expect((window as unknown as { __acmeEvaluated: number }).__acmeEvaluated).toBe(1);
    const result = host.call('acme/actions/go.js', { x: 1 }, { $type: 'acme.go' }) as unknown[];
    expect(result).toEqual([
      42,
      true,
      // The extension's settings, tokens replaced: a whole token keeps its value.
      { account: 'shoes-x', list: ['shoes'] },
      // buildInfo.minified: the hosted file's `.min` name.
      'https://cdn.example/acme/lib.min.js',
      'a b;c',
      1,
      'acme.go',
      ['1', '2'],
    ]);
    // js-cookie's encoding: the space and the semicolon encoded in the value, the space in the name.
    expect(document.cookie).toContain('acme%20id=a%20b%3Bc');
    // A data element module read on the page, its settings' tokens replaced there.
    const side = pageSide(data);
    side.start({ vars: { section: 'shoes' } }, () => {});
    expect(side.read({ type: 'direct-call', id: 'x' }, [], undefined, 3).d).toEqual({ 'acme id': 'shoes:a b;c' });
    expect(() => host.exports('acme/none.js')).toThrow('Module acme/none.js not found.');
    document.cookie = 'acme%20id=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  });

  it("reads the debug switch when the page starts, as turbine does: a later change in storage leaves the loggers as they were; setDebug's change reaches them and each extension's onDebugChanged", () => {
    const logged: unknown[][] = [];
    const original = console.log;
    console.log = (...a: unknown[]) => void logged.push(a);
    const heard: boolean[] = [];
    const w2 = window as unknown as { __acmeTurbine?: { logger: { log(...a: unknown[]): void }; debugEnabled: boolean; onDebugChanged(f: (on: boolean) => void): void } };
    const page: PageData = {
      host: {
        extensions: { acme: { displayName: 'Acme', modules: { 'acme/common/t.js': { name: 't', shared: true, script: script('function (module, exports, require, turbine) { window.__acmeTurbine = turbine; }') } } } },
        info: {},
        events: [],
        dataElements: [],
      },
    };
    localStorage.setItem('com.adobe.reactor.debug', 'true');
    try {
      pageSide(page).start({ vars: {} }, () => {});
      const turbine = w2.__acmeTurbine!;
      turbine.onDebugChanged((on) => heard.push(on));
      turbine.logger.log('one');
      localStorage.setItem('com.adobe.reactor.debug', 'false');
      turbine.logger.log('two');
      // turbine's debugEnabled reads storage each time.
      expect(turbine.debugEnabled).toBe(false);
      debugChanged(false);
      turbine.logger.log('three');
      expect(logged).toEqual([['🚀', '[Acme]', 'one'], ['🚀', '[Acme]', 'two']]);
      expect(heard).toEqual([false]);
    } finally {
      console.log = original;
      localStorage.removeItem('com.adobe.reactor.debug');
      debugChanged(false);
    }
  });

  it('query-string: repeated names as arrays, + and %20 decoded; and back', () => {
    expect(queryString.parse('?a=1&a=2&b=%20c&d')).toEqual({ a: ['1', '2'], b: ' c', d: '' });
    expect(queryString.stringify({ a: ['1', '2'], b: ' c' })).toBe('a=1&a=2&b=%20c');
  });
});

describe("Core's Custom Code events", () => {
  it('each block runs at start with a trigger: what it pulls while the events are set up goes with Library Loaded (start returns it), later calls send their direct call (what it passes is the event); a block that throws is said as turbine says it', () => {
    const sent: unknown[] = [];
    const error: unknown[][] = [];
    const original = console.error;
    console.error = (...a: unknown[]) => void error.push(a);
    localStorage.setItem('com.adobe.reactor.debug', 'true');
    try {
      const side = pageSide({
        events: [
          ['offtag-launch:core.custom-code:1', 'Early', function (trigger: (d?: unknown) => void) {
            (window as unknown as { __fire: typeof trigger }).__fire = trigger;
            trigger({ at: 'setup', f: () => 0 });
          }],
          ['offtag-launch:core.custom-code:2', 'Broken', () => {
            throw new Error('no stub');
          }],
        ],
      });
      const setup = side.start({ vars: {}, send: (e) => (sent.push(e), 1) }, () => {});
      expect(setup).toEqual([{ id: 'offtag-launch:core.custom-code:1', detail: { at: 'setup' } }]);
      expect(sent).toEqual([]);
      (window as unknown as { __fire(d?: unknown): void }).__fire();
      expect(sent).toEqual([{ type: 'direct-call', id: 'offtag-launch:core.custom-code:1', detail: undefined }]);
      expect(error).toEqual([['🚀', 'Failed to execute "Custom Code" for "Broken" rule. no stub']]);
    } finally {
      console.error = original;
      localStorage.removeItem('com.adobe.reactor.debug');
    }
  });
});
