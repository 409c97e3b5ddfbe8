/**
 * The small pieces of the Launch runtime on what the other tests leave out: turbine's token text
 * (`asString`), conditions' and actions' options, Core's custom code action and script loading,
 * rules, the page channel and page steps (token text, nonce, values, waiting), and the ECID
 * extension's variables as VisitorAPI 5.5.0 reads them (a container id 0 is one; a lifetime 0 or
 * less is none; an empty text is false).
 *
 * Mutants no input can tell apart (left Survived on purpose):
 * - customAction: `result && typeof result.then === 'function'` → true / its `then` test → true: the
 *   engine awaits what an action returns, and awaiting a value that is no promise is the same as not.
 * - ecid visitorBoolean: `v === 'true'` → false: Boolean('true') is true too.
 * - ecid authState: `'UNKNOWN'` → '' for a missing state: both name no other state, and the fallback is 0 (UNKNOWN's).
 * - page steps' tokensIn: `typeof v === 'string'` → false and its 'string': String of a text is that text.
 * - visitor behavior's counts: the cookie's `?? ''` → another text: neither is "<sessions>.<pages>".
 */
import { describe, expect, it } from 'vitest';
import * as launch from '../../../src/launch/index.ts';

describe("turbine's text of a value, conditions and actions", () => {
  it('asString: nothing for undefined and null, JSON for objects (nothing for one JSON cannot write), text for the rest', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect([launch.asString(undefined), launch.asString(null), launch.asString({ a: 1 }), launch.asString([1, 'b']), launch.asString(5), launch.asString(false)]).toEqual(['', '', '{"a":1}', '[1,"b"]', '5', 'false']);
    expect(typeof launch.asString(cyclic)).toBe('string');
  });
  it('a condition or action carries a timeout and negate only when given; delayNext false runs the action without the rule waiting for it', async () => {
    const fn = () => true;
    expect(launch.condition('c', fn)).toStrictEqual({ name: 'c', fn });
    expect(launch.condition('c', fn, { negate: true, timeout: 0 })).toStrictEqual({ name: 'c', fn, negate: true, timeout: 0 });
    expect(Object.keys(launch.action('a', () => {}))).toEqual(['name', 'fn']);
    expect(launch.action('a', () => {}, { timeout: 0 }).timeout).toBe(0);
    const ran: string[] = [];
    const slow = launch.action('a', async () => void ran.push('ran'), { delayNext: false });
    expect(slow.fn({} as never)).toBeUndefined();
    expect(ran).toEqual(['ran']);
  });
});

describe("Core's custom code action, script loading and the rule", () => {
  const ctx = (emitted: unknown[] = []) =>
    ({
      rule: { name: 'r' },
      settings: { environment: 'production', dataLayer: 'digitalData' },
      snapshot: { url: 'https://shop.example.com/', referrer: '', time: 0, dataLayer: {} },
      event: { type: 'direct-call', id: 'x' },
      cookies: { get: () => undefined, all: () => ({}), set: () => {} },
      session: { get: () => null, set: () => {} },
      services: { analytics: {}, visitor: {} },
      replaceTokens: (t: string) => t.replace('%host%', 'cdn.example.com'),
      get: () => undefined,
      emit: (e: unknown) => void emitted.push(e),
      log: () => {},
    }) as never;
  it('a block returning a promise holds the rule until it settles; one returning a value does not', async () => {
    const later = (() => () => Promise.resolve('done')) as never;
    const value = (() => () => 7) as never;
    expect(await launch.customAction(later).fn(ctx())).toBe('done');
    expect(launch.customAction(value).fn(ctx())).toBeUndefined();
    expect(launch.customAction(value).name).toBe('Custom Code');
  });
  it('Load a script: a script effect with its id and the URL, tokens replaced', () => {
    const emitted: unknown[] = [];
    const a = launch.loadScript('s1', 'https://%host%/x.js', { timeout: 5 });
    a.fn(ctx(emitted));
    expect([a.name, a.timeout, emitted]).toEqual(['Load https://%host%/x.js', 5, [{ type: 'script', id: 's1', src: 'https://cdn.example.com/x.js' }]]);
  });
  it("a rule's order only when it is not Launch's default 50; no conditions are none", () => {
    const base = { name: 'r', events: [launch.domReady()], actions: [] };
    expect(launch.rule(base)).toStrictEqual({ name: 'r', events: [{ type: 'dom-ready' }], conditions: [], actions: [] });
    expect('order' in launch.rule({ ...base, order: 50 })).toBe(false);
    expect(launch.rule({ ...base, order: 10 }).order).toBe(10);
    expect(launch.imported({ name: 'c' }, { buildInfo: {}, property: {}, company: {} }).getVarValues).toBe('every-event');
  });
});

describe('the page channel and page steps', () => {
  function engine(answer?: { status: number; body?: string }) {
    const emitted: Array<Record<string, unknown>> = [];
    const c = {
      emit: (e: Record<string, unknown>) => void emitted.push(e),
      nextId: (p: string) => `${p}-1`,
      ...(answer ? { answer: () => Promise.resolve(answer) } : {}),
    };
    return { c, emitted };
  }
  it("without waiting, or without answers, the step is sent and nothing awaited; waiting, the page's answer is the body, a failure its reason", async () => {
    const none = engine();
    expect(await launch.pageChannel(none.c as never).run({ name: 'n' } as never, true)).toBeUndefined();
    expect(none.emitted).toEqual([{ type: 'launch', name: 'n' }]);
    const ok = engine({ status: 200, body: 'rec' });
    expect(await launch.pageChannel(ok.c as never).run({ name: 'n' } as never, true)).toBe('rec');
    expect(ok.emitted).toEqual([{ type: 'launch', name: 'n', answer: 'page-step-1' }]);
    await expect(launch.pageChannel(engine({ status: 500, body: 'x is not defined' }).c as never).run({} as never, true)).rejects.toThrow('x is not defined');
    await expect(launch.pageChannel(engine({ status: 500 }).c as never).run({} as never, true)).rejects.toThrow('the page did not run it');
  });
  it("withPage adds the channel to the services and keeps their hooks", () => {
    const hooks = (s: object) => ({ seen: s });
    const def = launch.withPage({ create: () => ({ a: 1 }), hooks } as never) as { create: (c: unknown) => Record<string, unknown>; hooks?: (s: object) => unknown };
    expect(Object.keys(def.create(engine().c))).toEqual(['a', 'page']);
    expect(def.hooks!({ x: 1 })).toEqual({ seen: { x: 1 } });
    expect('hooks' in launch.withPage({ create: () => ({}) } as never)).toBe(false);
  });
  function stepCtx(values: Record<string, unknown> = {}) {
    const runs: Array<[Record<string, any>, boolean]> = [];
    const c = {
      rule: { name: 'r' },
      snapshot: { seq: 3 },
      event: { type: 'direct-call', id: 'x' },
      services: { page: { run: async (e: Record<string, unknown>, wait: boolean) => void runs.push([e, wait]) } },
      replaceTokens: (t: string) => (/^%[^%]+%$/.test(t) ? values[t.slice(1, -1)] : t.replace(/%([^%]+)%/g, (_m, n: string) => String(values[n]))),
      get: (n: string) => values[n],
      emit: () => {},
    };
    return { c: c as never, runs };
  }
  it("a code step: its tokens replaced (a whole token's value as text), except in a function's source; the values it names; the nonce's token; global and fn as given", async () => {
    const { c, runs } = stepCtx({ n: 5, id: 'abc', de: 'v' });
    await launch.pageCode('%n%', { names: ['de'], nonce: '%id%', global: true }).fn(c);
    await launch.pageCode('f(%n%)', { fn: true }).fn(c);
    await launch.pageHtml('<b>%id%</b>').fn(c);
    await launch.externalCode('https://x/RC1.js', 'html', { global: true }).fn(c);
    await launch.externalCode('https://x/RC2.js', 'javascript').fn(c);
    expect(runs.map(([e]) => e.step)).toStrictEqual([{ js: '5', global: true }, { js: 'f(%n%)', fn: true }, { html: '<b>abc</b>' }, { url: 'https://x/RC1.js', language: 'html', global: true }, { url: 'https://x/RC2.js', language: 'javascript' }]);
    expect(runs[0]![0]).toMatchObject({ name: 'Custom Code', rule: 'r', seq: 3, values: { de: 'v' }, nonce: 'abc' });
    expect('values' in runs[1]![0] || 'nonce' in runs[1]![0]).toBe(false);
  });
  it('the rule waits for the step only when the property sequences components and the action does not say delayNext: false', async () => {
    const { c, runs } = stepCtx();
    await launch.pageCode('a()', { wait: true }).fn(c);
    await launch.pageCode('a()', { wait: true, delayNext: false }).fn(c);
    await launch.pageCode('a()').fn(c);
    expect(runs.map(([, wait]) => wait)).toEqual([true, false, false]);
  });
  it('without a page channel the step fails saying how to write the services', async () => {
    const { c } = stepCtx();
    (c as { services: object }).services = {};
    await expect(launch.pageCode('a()').fn(c)).rejects.toThrow('the container has no page channel for its page steps (write its services as launch.withPage(adobeServices()))');
  });
});

describe('the ECID extension as VisitorAPI reads its variables', () => {
  const V = launch.ECID_VARIABLES;
  it('a container id of 0 is one; a lifetime of 0 or less, or no number, is none; an empty text is false', () => {
    expect(V.idSyncContainerID!('0')).toEqual({ idSyncContainerId: 0 });
    for (const v of ['0', '-5', 'soon']) expect(typeof V.cookieLifetime!(v)).toBe('string');
    expect(V.cookieLifetime!('3600')).toEqual({ cookieLifetime: 3600 });
    expect(V.disableIdSyncs!('')).toEqual({ disableIdSyncs: false });
  });
  it('a variable whose data element gives null is dropped; a message about a value is a warning', () => {
    const logs: string[] = [];
    const c = { replaceTokens: (t: string) => (t === '%none%' ? null : t), log: (l: string, m: string) => logs.push(`${l}: ${m}`) } as never;
    expect(launch.visitorOptions(c, [{ name: 'trackingServer', value: '%none%' }, { name: 'cookieLifetime', value: 'soon' }])).toEqual({});
    expect(logs).toEqual(['warn: Experience Cloud ID Service: cookieLifetime "soon" is neither seconds, SESSION nor NONE; the AMCV cookie lives two years']);
  });
  it("the actions carry the extension's names", () => {
    expect([launch.setCustomerIds([]).name, launch.ecidRule().actions[0]!.name]).toEqual(['Experience Cloud ID Service: Set Customer IDs', 'Start the visitor service']);
  });
});

describe("Core's visitor tracking and custom code data elements", () => {
  const stores = (cookie?: string, session?: string) => {
    const jar: Record<string, string> = cookie === undefined ? {} : { [launch.VISITOR_COOKIE]: cookie };
    const store: Record<string, string | null> = session === undefined ? {} : { [launch.VISITOR_SESSION_KEY]: session };
    return {
      jar,
      store,
      cookies: { get: (n: string) => jar[n], set: (n: string, v: string) => void (jar[n] = v), all: () => jar },
      session: { get: (k: string) => store[k] ?? null, set: (k: string, v: string | null) => void (store[k] = v) },
    };
  };
  const visit = (st: ReturnType<typeof stores>, referrer: string) => launch.trackVisit({ ...st, snapshot: { url: 'https://s.example/', referrer, time: 0 } } as never);
  it('the counts cookie is read only when it is two whole counts; session facts that are no object are none; the first traffic source is kept for the session', () => {
    const big = stores('12.34');
    visit(big, '');
    expect(big.jar[launch.VISITOR_COOKIE]).toBe('13.35');
    for (const odd of ['x12.34', '12.34x']) {
      const st = stores(odd);
      visit(st, '');
      expect(st.jar[launch.VISITOR_COOKIE]).toBe('1.1');
    }
    const st = stores(undefined, '5');
    visit(st, 'https://search.example/');
    visit(st, 'https://s.example/');
    expect(JSON.parse(st.store[launch.VISITOR_SESSION_KEY]!)).toMatchObject({ pagesViewed: 2, trafficSource: 'https://search.example/' });
    expect(launch.visitorTrackingRule().actions[0]!.name).toBe('Count the page view');
  });
  it("a custom code data element runs with the event's element as this; the _satellite shim reads data elements", () => {
    const de = launch.customCode(((_w: unknown) =>
      function (this: { id?: string } | undefined) {
        return this?.id;
      }) as never) as unknown as { fn(c: unknown): unknown };
    const c = { settings: { environment: 'production', dataLayer: 'dl' }, snapshot: { url: 'https://s.example/', referrer: '', time: 0, dataLayer: {} }, event: { type: 'trigger', on: 'click', element: { tagName: 'A', id: 'buy', attributes: {} } }, cookies: { get: () => undefined, all: () => ({}) }, session: { get: () => null, set: () => {} }, get: (n: string) => (n === 'de' ? 'v' : undefined), log: () => {} };
    expect(de.fn(c)).toBe('buy');
    expect(launch.satelliteShim(c as never).getVar('de')).toBe('v');
  });
});

describe("the ECID extension's opt-in settings", () => {
  const c = (values: Record<string, unknown> = {}) => ({ replaceTokens: (t: string) => (/^%[^%]+%$/.test(t) ? values[t.slice(1, -1)] : t) }) as never;
  it('apply only when doesOptInApply is true (or its data element gives true); each other setting only when given', () => {
    expect(launch.optInOptions(c(), { doesOptInApply: 'true' })).toBeUndefined();
    expect(launch.optInOptions(c({ apply: true }), { doesOptInApply: '%apply%' })).toStrictEqual({ doesOptInApply: true });
    expect(launch.optInOptions(c(), { doesOptInApply: true, isOptInStorageEnabled: false, optInCookieDomain: '', optInStorageExpiry: 0, timeUnit: 'Weeks' })).toStrictEqual({ doesOptInApply: true });
    expect(launch.optInOptions(c(), { doesOptInApply: true, optInStorageExpiry: 2, timeUnit: 'Fortnights' })).toStrictEqual({ doesOptInApply: true });
    expect(
      launch.optInOptions(c({ perms: { aa: false } }), { doesOptInApply: true, isOptInStorageEnabled: true, optInCookieDomain: 'example.com', optInStorageExpiry: 2, timeUnit: 'Weeks', previousPermissions: '%perms%', preOptInApprovals: { ecid: true } }),
    ).toStrictEqual({ doesOptInApply: true, isOptInStorageEnabled: true, optInCookieDomain: 'example.com', optInStorageExpiry: 2 * 604_800, previousPermissions: { aa: false }, preOptInApprovals: { ecid: true } });
    expect(launch.optInOptions(c(), { doesOptInApply: true, preOptInApprovalInput: { aa: true } })).toStrictEqual({ doesOptInApply: true, preOptInApprovals: { aa: true } });
  });
  it('without variables or opt-in the rule configures nothing; the ECID data element reads no other one', async () => {
    const configured: unknown[] = [];
    const ctx = { services: { visitor: { configure: (o: unknown) => (configured.push(o), true), start: async () => {} } }, log: () => {} } as never;
    launch.ecidRule().actions[0]!.fn(ctx);
    launch.ecidRule([], { doesOptInApply: true }).actions[0]!.fn(Object.assign(ctx, { replaceTokens: (t: string) => t }));
    expect(configured).toEqual([{ optIn: { doesOptInApply: true } }]);
    expect((launch.ecidValue() as { reads?: string[] }).reads).toEqual([]);
  });
});

describe('the small pieces on what the tests above leave out', () => {
  it('a page that answers nothing at all fails the step with "the page did not run it"', async () => {
    const c = { emit: () => {}, nextId: (p: string) => `${p}-1`, answer: () => Promise.resolve(undefined) };
    await expect(launch.pageChannel(c as never).run({} as never, true)).rejects.toThrow(new Error('the page did not run it'));
  });
  it("page steps are page actions named as turbine names Core's custom code", () => {
    const steps = [launch.pageCode('x()'), launch.pageHtml('<b></b>'), launch.externalCode('https://x/RC1.js', 'javascript'), launch.moduleAction('Send', 'ext/send.js', {})];
    expect(steps.map((a) => [a.name, a.page])).toEqual([
      ['Custom Code', true],
      ['Custom Code', true],
      ['Custom Code', true],
      ['Send', true],
    ]);
  });
  it('event specs carry only the options given: no bubbling key, nor an event name, left undefined', () => {
    expect(launch.click('a.buy')).toStrictEqual({ type: 'click', selector: 'a.buy' });
    expect(launch.click('a.buy', { bubbleFireIfChildFired: false })).toStrictEqual({ type: 'click', selector: 'a.buy', bubbleFireIfChildFired: false });
    expect(launch.dataLayerPush('adobeDataLayer')).toStrictEqual({ type: 'data-layer-push', global: 'adobeDataLayer' });
  });
});
