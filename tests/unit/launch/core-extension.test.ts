/**
 * The Launch runtime's Core extension pieces, run by the engine as an imported container runs them:
 * Value Comparison's operators, the URL, cookie, variable and client conditions, and the data
 * elements (JavaScript Variable, Cookie, Query String Parameter, Page Info, Merged Objects,
 * Conditional Value, Runtime Environment, Random Number, Session Storage, the page reads, custom
 * code, Data Layer Manager's state, Visitor Behavior) with turbine's finishing (default value,
 * storage duration).
 */
import { describe, expect, it } from 'vitest';
import * as launch from '../../../src/launch/index.ts';
import type { EngineEvent, Snapshot } from '../../../src/protocol.ts';
import type { Container, PageTriggerSpec } from '../../../src/worker-engine/core/types.ts';
import { keyOf } from '../../../src/worker-engine/core/triggers.ts';
import { logsOf, makeEngine, T0 } from '../harness.ts';

type DE = launch.LaunchDataElement;
/** An imported container's parts (rules typed for Adobe's services) as the engine takes any container. */
const asContainer = (c: { name: string; sessionKeys: string[]; dataElements: Record<string, DE>; rules: unknown[] }) => c as unknown as Container<string, object>;
const readsOf = (de: DE) => (de as { reads?: string[] }).reads;
type Page = Partial<Snapshot>;
const URL0 = 'https://www.shop.example.com/Cart/Items?Sku=A1&sku=b2&q=x%20y#top';

/** The values of `des` a rule reads, event after event (each `page` over a snapshot of URL0). */
async function valuesOf(des: Record<string, DE>, pages: Page[] = [{}], o: { event?: EngineEvent; userAgent?: string } = {}) {
  const seen: Record<string, unknown>[] = [];
  const container = asContainer({
    name: 't',
    sessionKeys: [],
    dataElements: launch.dataElements(des),
    rules: [{ name: 'read', events: [{ type: 'direct-call', id: 'go' }], actions: [{ name: 'a', fn: (c: launch.Ctx) => void seen.push(Object.fromEntries(Object.keys(des).map((n) => [n, c.get(n)]))) }] }],
  });
  const { fire } = makeEngine(container, {}, o.userAgent ? { userAgent: o.userAgent } : {});
  const batches = [];
  for (const page of pages) batches.push(await fire(o.event ?? { type: 'direct-call', id: 'go' }, { url: URL0, ...page }));
  return { seen, batches };
}
const valueOf = async (de: DE, page: Page = {}, o: { event?: EngineEvent; userAgent?: string } = {}) => (await valuesOf({ x: de }, [page], o)).seen[0]!.x;

/** Whether a rule with this condition runs for an event with `page`. */
async function holds(cond: launch.LaunchCondition, page: Page = {}, o: { userAgent?: string; des?: Record<string, DE> } = {}): Promise<boolean> {
  let ran = false;
  const container = asContainer({ name: 't', sessionKeys: [], dataElements: launch.dataElements(o.des ?? {}), rules: [{ name: 'r', events: [{ type: 'direct-call', id: 'go' }], conditions: [cond], actions: [{ name: 'a', fn: () => void (ran = true) }] }] });
  const { fire } = makeEngine(container, {}, o.userAgent ? { userAgent: o.userAgent } : {});
  await fire({ type: 'direct-call', id: 'go' }, { url: URL0, ...page });
  return ran;
}

describe("Core's Value Comparison", () => {
  const c = launch.compare;
  it('equals compares loosely, as Core does; case-insensitive folds strings only', () => {
    expect([c('equals', '1', 1, false), c('equals', 'A', 'a', false), c('equals', 'A', 'a', true), c('equals', 2, 3, true), c('equals', null, undefined, false)]).toEqual([true, false, true, false, true]);
    expect([c('doesNotEqual', 'A', 'a', false), c('doesNotEqual', 'A', 'a', true)]).toEqual([true, false]);
  });
  it('the text operators read numbers as text, refuse other types, and fold case when asked', () => {
    expect([c('contains', 'Shoes/Red', 'red', false), c('contains', 'Shoes/Red', 'red', true), c('contains', 12345, 34, false), c('contains', { a: 1 }, 'a', false), c('contains', 'a', null, false)]).toEqual([false, true, true, false, false]);
    expect([c('doesNotContain', 'abc', 'x', false), c('doesNotContain', 'abc', 'b', false), c('doesNotContain', true, 'x', false)]).toEqual([true, false, true]);
    expect([c('startsWith', 'Checkout', 'check', true), c('startsWith', 'Checkout', 'check', false), c('startsWith', 'Checkout', 'out', true)]).toEqual([true, false, false]);
    expect([c('doesNotStartWith', 'Checkout', 'check', true), c('doesNotStartWith', 'Checkout', 'check', false)]).toEqual([false, true]);
    expect([c('endsWith', 'file.PDF', '.pdf', true), c('endsWith', 'file.PDF', '.pdf', false), c('endsWith', 'file.PDF', 'file', true)]).toEqual([true, false, false]);
    expect([c('doesNotEndWith', 'file.PDF', '.pdf', true), c('doesNotEndWith', 'file.PDF', '.pdf', false)]).toEqual([false, true]);
    expect([c('matchesRegex', 'Order-42', '^order-\\d+$', true), c('matchesRegex', 'Order-42', '^order-\\d+$', false), c('matchesRegex', 42, '^4', false)]).toEqual([true, false, true]);
    expect([c('doesNotMatchRegex', 'Order-42', '^order', true), c('doesNotMatchRegex', 'Order-42', '^order', false)]).toEqual([false, true]);
  });
  it('the numeric operators read numeric strings as numbers and refuse anything else, at the boundary too', () => {
    expect([c('lessThan', '9', 10, false), c('lessThan', 10, 10, false), c('lessThan', 11, '10', false), c('lessThan', 'x', 10, false), c('lessThan', 1, 'x', false)]).toEqual([true, false, false, false, false]);
    expect([c('lessThanOrEqual', 10, '10', false), c('lessThanOrEqual', 11, 10, false), c('lessThanOrEqual', 9, 10, false), c('lessThanOrEqual', null, 10, false)]).toEqual([true, false, true, false]);
    expect([c('greaterThan', '11', 10, false), c('greaterThan', 10, 10, false), c('greaterThan', 9, 10, false), c('greaterThan', Infinity, 1, false)]).toEqual([true, false, false, false]);
    expect([c('greaterThanOrEqual', 10, '10', false), c('greaterThanOrEqual', 9, 10, false), c('greaterThanOrEqual', 11, 10, false), c('greaterThanOrEqual', 10, {}, false)]).toEqual([true, false, true, false]);
  });
  it('the boolean operators: true and false are the booleans only, truthy and falsy are JavaScript\'s', () => {
    expect([c('isTrue', true, undefined, false), c('isTrue', 'true', undefined, false), c('isTrue', 1, undefined, false)]).toEqual([true, false, false]);
    expect([c('isFalse', false, undefined, false), c('isFalse', 0, undefined, false), c('isFalse', '', undefined, false)]).toEqual([true, false, false]);
    expect([c('isTruthy', 'x', undefined, false), c('isTruthy', 0, undefined, false), c('isFalsy', '', undefined, false), c('isFalsy', 'x', undefined, false)]).toEqual([true, false, true, false]);
  });
  it('lists every operator the Core extension has', () => {
    expect([...launch.OPERATORS].sort()).toEqual(['contains', 'doesNotContain', 'doesNotEndWith', 'doesNotEqual', 'doesNotMatchRegex', 'doesNotStartWith', 'endsWith', 'equals', 'greaterThan', 'greaterThanOrEqual', 'isFalse', 'isFalsy', 'isTrue', 'isTruthy', 'lessThan', 'lessThanOrEqual', 'matchesRegex', 'startsWith']);
  });
  it('as a rule condition: its operands\' tokens replaced (a whole token keeps its type), negate turns it round, and it is named by its operator', async () => {
    const des = { n: launch.constant(5), s: launch.constant('Red') };
    expect(await holds(launch.valueComparison('%n%', 'greaterThan', 4, false), {}, { des })).toBe(true);
    expect(await holds(launch.valueComparison('%s% shoes', 'equals', 'red SHOES', true), {}, { des })).toBe(true);
    expect(await holds(launch.valueComparison('%s% shoes', 'equals', 'red SHOES', true, { negate: true }), {}, { des })).toBe(false);
    expect(launch.valueComparison(1, 'lessThan', 2, false).name).toBe('Value Comparison (lessThan)');
    expect(launch.valueComparison(1, 'lessThan', 2, false, { timeout: 300 })).toMatchObject({ timeout: 300 });
  });
});

describe("Core's URL, cookie and variable conditions", () => {
  it('Domain: the host or one of its subdomains, the name taken literally and case-insensitively', async () => {
    expect(await holds(launch.domain(['example.com']))).toBe(true);
    expect(await holds(launch.domain(['EXAMPLE.com']))).toBe(true);
    expect(await holds(launch.domain(['other.com', 'shop.example.com']))).toBe(true);
    expect(await holds(launch.domain(['ample.com']))).toBe(false);
    expect(await holds(launch.domain(['example.co']))).toBe(false);
    // A dot in the name is a dot, not any character.
    expect(await holds(launch.domain(['example.com']), { url: 'https://shop.exampleXcom/' })).toBe(false);
    expect(await holds(launch.domain(['shop.example.com']), { url: 'https://shopxexample.com/' })).toBe(false);
  });
  it('Path Without Query String and Path And Query String: equal, or a case-insensitive regex match', async () => {
    expect(await holds(launch.path([{ value: '/Cart/Items' }]))).toBe(true);
    expect(await holds(launch.path([{ value: '/cart/items' }]))).toBe(false);
    expect(await holds(launch.path([{ value: '^/cart/', valueIsRegex: true }]))).toBe(true);
    expect(await holds(launch.path([{ value: '/Cart/Items?Sku=A1&sku=b2&q=x%20y' }]))).toBe(false);
    expect(await holds(launch.pathAndQuerystring([{ value: '/Cart/Items?Sku=A1&sku=b2&q=x%20y' }]))).toBe(true);
    expect(await holds(launch.pathAndQuerystring([{ value: '/Cart/Items' }]))).toBe(false);
    expect(await holds(launch.pathAndQuerystring([{ value: 'items\\?sku=a1', valueIsRegex: true }]))).toBe(true);
  });
  it('Subdomain and Query String Parameter', async () => {
    expect(await holds(launch.subdomain([{ value: 'www.shop.example.com' }]))).toBe(true);
    expect(await holds(launch.subdomain([{ value: 'shop.example.com' }]))).toBe(false);
    expect(await holds(launch.subdomain([{ value: '^www\\.', valueIsRegex: true }]))).toBe(true);
    expect(await holds(launch.queryStringParameterIs('q', { value: 'x y' }))).toBe(true);
    expect(await holds(launch.queryStringParameterIs('Sku', { value: 'A1' }))).toBe(true);
    // Two values of one name are no single value.
    expect(await holds(launch.queryStringParameterIs('missing', { value: '' }))).toBe(false);
    expect(await holds(launch.queryStringParameterIs('q', { value: 'x', valueIsRegex: true }))).toBe(true);
  });
  it('Cookie: the decoded value; an absent cookie never matches', async () => {
    expect(await holds(launch.cookieIs('seg', { value: 'a b' }), { cookie: 'seg=a%20b' })).toBe(true);
    expect(await holds(launch.cookieIs('seg', { value: 'a%20b' }), { cookie: 'seg=a%20b' })).toBe(false);
    expect(await holds(launch.cookieIs('seg', { value: '.*', valueIsRegex: true }), { cookie: 'other=1' })).toBe(false);
  });
  it('Variable: a data layer path or page fact as text; null and undefined never match', async () => {
    const dataLayer = { page: { type: 'cart', count: 3, none: null } };
    expect(await holds(launch.variableIs('digitalData.page.type', { value: 'cart' }), { dataLayer })).toBe(true);
    expect(await holds(launch.variableIs('digitalData.page.count', { value: '3' }), { dataLayer })).toBe(true);
    expect(await holds(launch.variableIs('digitalData.page.none', { value: 'null' }), { dataLayer })).toBe(false);
    expect(await holds(launch.variableIs('digitalData.page.gone', { value: 'undefined' }), { dataLayer })).toBe(false);
    expect(await holds(launch.variableIs('location.pathname', { value: '/Cart/Items' }))).toBe(true);
  });
  it('Custom Code: the block\'s answer, truthy or not', async () => {
    const yes = (() => () => 'yes') as never;
    const no = (() => () => 0) as never;
    expect(await holds(launch.customCondition(yes))).toBe(true);
    expect(await holds(launch.customCondition(no))).toBe(false);
    expect(launch.customCondition(no).name).toBe('Custom Code');
  });
  it('conditions that need the page are page reads, with their negation and timeout', () => {
    expect(launch.pageCondition('function(){return 1}')).toEqual({ name: 'Custom Code', page: { from: 'launch-code', source: 'function(){return 1}' } });
    expect(launch.pageCondition('f', { negate: true, timeout: 0 }, 'Mine')).toEqual({ name: 'Mine', page: { from: 'launch-code', source: 'f' }, negate: true, timeout: 0 });
    expect(launch.pageModuleCondition('Target: X', 'ext/x.js', { a: 1 }, { negate: false })).toEqual({ name: 'Target: X', page: { from: 'module', module: 'ext/x.js', settings: { a: 1 } } });
  });
});

describe("Core's Browser, Operating System and Device Type", () => {
  const UA = {
    edge: 'Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/70.0 Safari/537.36 Edge/18.17763',
    chrome: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36',
    firefox: 'Mozilla/5.0 (X11; FreeBSD amd64; rv:120.0) Gecko/20100101 Firefox/120.0',
    ie: 'Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko',
    safari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15',
    ipad: 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1',
    ipod: 'Mozilla/5.0 (iPod touch; CPU OS 12_0 like Mac OS X) Mobile/15E148',
    crOS: 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 Chrome/120.0 Safari/537.36',
    nokia: 'Mozilla/5.0 (SymbianOS/9.4; Series60/5.0 NokiaN97) SymbOS',
    winPhone: 'Mozilla/5.0 (compatible; MSIE 10.0; Windows Phone 8.0; Trident/6.0; IEMobile/10.0)',
    blackberry: 'Mozilla/5.0 (BlackBerry; U; BlackBerry 9900; en) AppleWebKit/534.11+',
  };
  const all = (fact: launch.ClientFact) => Object.fromEntries(Object.entries(UA).map(([k, u]) => [k, launch.clientInfo(u, fact)]));
  it('each name of each list, first match in Core\'s order', () => {
    expect(all('browser')).toEqual({ edge: 'Edge', chrome: 'Chrome', firefox: 'Firefox', ie: 'IE', safari: 'Safari', ipad: 'Mobile Safari', ipod: 'Unknown', crOS: 'Chrome', nokia: 'Unknown', winPhone: 'IE', blackberry: 'Unknown' });
    expect(all('operatingSystem')).toEqual({ edge: 'Windows', chrome: 'Linux', firefox: 'Unix', ie: 'Windows', safari: 'MacOS', ipad: 'iOS', ipod: 'iOS', crOS: 'Unix', nokia: 'Unknown', winPhone: 'Windows', blackberry: 'Unknown' });
    expect(all('deviceType')).toEqual({ edge: 'Desktop', chrome: 'Desktop', firefox: 'Desktop', ie: 'Desktop', safari: 'Desktop', ipad: 'iPad', ipod: 'iPod', crOS: 'Desktop', nokia: 'Nokia', winPhone: 'Windows Phone', blackberry: 'Blackberry' });
    expect(launch.clientInfo('Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/120.0 Mobile Safari/537.36', 'deviceType')).toBe('Android');
    expect(launch.clientInfo('Mozilla/5.0 (Linux; Android 14; Pixel 8)', 'operatingSystem')).toBe('Android');
    expect(launch.clientInfo('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)', 'deviceType')).toBe('iPhone');
  });
  it('as conditions: one of the names, each named as Core names it', async () => {
    expect(await holds(launch.clientIs('browser', ['Firefox', 'Chrome']), {}, { userAgent: UA.chrome })).toBe(true);
    expect(await holds(launch.clientIs('browser', ['Firefox']), {}, { userAgent: UA.chrome })).toBe(false);
    expect(await holds(launch.clientIs('operatingSystem', ['Linux']), {}, { userAgent: UA.chrome })).toBe(true);
    expect(await holds(launch.clientIs('deviceType', ['iPad']), {}, { userAgent: UA.ipad })).toBe(true);
    expect(['browser', 'operatingSystem', 'deviceType'].map((f) => launch.clientIs(f as launch.ClientFact, []).name)).toEqual(['Browser', 'Operating System', 'Device Type']);
  });
});

describe("Core's data elements", () => {
  it('JavaScript Variable: a data layer path (array indices too) or a page fact; it reads only its part of the data layer', async () => {
    const dataLayer = { cart: { items: [{ sku: 'A1' }, { sku: 'B2' }] }, page: 'p' };
    const { seen } = await valuesOf({
      sku: launch.javascriptVariable('digitalData.cart.items[1].sku'),
      whole: launch.javascriptVariable('digitalData'),
      href: launch.javascriptVariable('location.href'),
      dhref: launch.javascriptVariable('document.location.href'),
      whref: launch.javascriptVariable('window.location.href'),
      host: launch.javascriptVariable('location.hostname'),
      path: launch.javascriptVariable('location.pathname'),
      search: launch.javascriptVariable('location.search'),
      ref: launch.javascriptVariable('document.referrer'),
      ua: launch.javascriptVariable('navigator.userAgent'),
      lang: launch.javascriptVariable('navigator.language'),
    }, [{ dataLayer, referrer: 'https://ref.example/' }], { userAgent: 'UA/1' });
    expect(seen[0]).toEqual({ sku: 'B2', whole: dataLayer, href: URL0, dhref: URL0, whref: URL0, host: 'www.shop.example.com', path: '/Cart/Items', search: '?Sku=A1&sku=b2&q=x%20y', ref: 'https://ref.example/', ua: 'UA/1', lang: expect.any(String) });
    expect(readsOf(launch.javascriptVariable('digitalData.cart.items[1].sku'))).toEqual(['cart.items.1.sku']);
    expect(readsOf(launch.javascriptVariable('digitalData'))).toBeUndefined();
    expect(launch.splitPath('a[0].b..c[12]')).toEqual(['a', '0', 'b', 'c', '12']);
    // Split once per path (every event reads the same paths), and the shared keys cannot be changed.
    expect(launch.splitPath('a[0].b..c[12]')).toBe(launch.splitPath('a[0].b..c[12]'));
    expect(Object.isFrozen(launch.splitPath('a[0].b..c[12]'))).toBe(true);
  });
  it('a global the worker does not receive is said, naming the path and the data layer', async () => {
    const { seen, batches } = await valuesOf({ x: launch.javascriptVariable('utag_data.page') });
    expect(seen[0]!.x).toBeUndefined();
    expect(logsOf(batches[0]!).join('\n')).toContain('"utag_data.page" is not the data layer (digitalData) and not a page fact the worker receives.');
    expect([launch.workerReadablePath('digitalData.a', 'digitalData'), launch.workerReadablePath('navigator.language', 'digitalData'), launch.workerReadablePath('utag.a', 'digitalData'), launch.workerReadablePath('dataLayer.a', 'digitalData')]).toEqual([true, true, false, false]);
  });
  it('Cookie (decoded), Constant, Query String Parameter (case-insensitive when asked; several values an array), Page Info', async () => {
    const { seen } = await valuesOf({
      cookie: launch.cookie('seg'),
      none: launch.cookie('nope'),
      constant: launch.constant(7),
      qExact: launch.queryStringParameter('sku', false),
      qMissing: launch.queryStringParameter('SKU', false),
      qAny: launch.queryStringParameter('SKU', true),
      qOne: launch.queryStringParameter('Q', true),
      url: launch.pageInfo('url'),
      hostname: launch.pageInfo('hostname'),
      pathname: launch.pageInfo('pathname'),
      protocol: launch.pageInfo('protocol'),
      referrer: launch.pageInfo('referrer'),
    }, [{ cookie: 'seg=a%20b%3Bc', referrer: 'https://r.example/' }]);
    expect(seen[0]).toEqual({ cookie: 'a b;c', none: undefined, constant: 7, qExact: 'b2', qMissing: undefined, qAny: 'A1', qOne: 'x y', url: URL0, hostname: 'www.shop.example.com', pathname: '/Cart/Items', protocol: 'https:', referrer: 'https://r.example/' });
    expect(launch.queryParam('https://x.example/?a=1&a=2&A=3', 'a', false)).toEqual(['1', '2']);
    expect(launch.queryParam('https://x.example/?a=', 'a', false)).toBe('');
  });
  it('Merged Objects: a deep merge into a new object (arrays on one key joined, objects merged, undefined skipped, the rest replaced); tokens keep their values\' types', async () => {
    const a = { list: [1], o: { x: 1, keep: true }, s: 'a', u: 'kept' };
    const b = { list: [2, { y: 1 }], o: { x: 2, n: null }, s: ['arr'], u: undefined, extra: { deep: [3] } };
    const { seen } = await valuesOf({ a: launch.constant(a), b: launch.constant(b), m: launch.mergedObjects(['%a%', '%b%', null, 5, { last: 1 }]) });
    expect(seen[0]!.m).toEqual({ list: [1, 2, { y: 1 }], o: { x: 2, keep: true, n: null }, s: ['arr'], u: 'kept', extra: { deep: [3] }, last: 1 });
    // The sources are left as they were: the merge copies what it takes.
    expect(a).toEqual({ list: [1], o: { x: 1, keep: true }, s: 'a', u: 'kept' });
    const merged = seen[0]!.m as { extra: { deep: number[] }; list: unknown[] };
    expect(merged.extra.deep).not.toBe(b.extra.deep);
    expect(merged.list[2]).not.toBe(b.list[1]);
  });
  it('Conditional Value: the comparison with tokens replaced, then the conditional or the fallback value, with its tokens', async () => {
    const des = { n: launch.constant(3), name: launch.constant('Ann') };
    const { seen } = await valuesOf({
      ...des,
      yes: launch.conditionalValue('%n%', 'greaterThan', '2', false, { conditionalValue: 'hi %name%', fallbackValue: 'no' }),
      no: launch.conditionalValue('%n%', 'greaterThan', 3, false, { conditionalValue: 'hi', fallbackValue: 'bye %name%' }),
      typed: launch.conditionalValue('A%name%', 'equals', 'aann', true, { conditionalValue: 5 }),
      unset: launch.conditionalValue('x', 'equals', 'y', false, {}),
    });
    expect(seen[0]).toMatchObject({ yes: 'hi Ann', no: 'bye Ann', typed: 5, unset: undefined });
  });
  it('Runtime Environment: the stage, and the event\'s type, detail and direct-call identifier', async () => {
    const des = { stage: launch.runtimeEnvironment('environmentStage'), type: launch.runtimeEnvironment('eventType'), detail: launch.runtimeEnvironment('eventDetail'), id: launch.runtimeEnvironment('DCRIdentifier') };
    const { seen } = await valuesOf(des, [{}], { event: { type: 'direct-call', id: 'go', detail: { a: 1 } } as EngineEvent });
    expect(seen[0]).toEqual({ stage: 'production', type: 'core.direct-call', detail: { a: 1 }, id: 'go' });
  });
  it('Random Number: an integer from min to max inclusive, from the engine\'s random source', async () => {
    const des: Record<string, DE> = {};
    for (let i = 0; i < 40; i++) des[`r${i}`] = launch.randomNumber(1.5, 3.5);
    const { seen } = await valuesOf(des);
    const drawn = new Set(Object.values(seen[0]!));
    expect([...drawn].sort()).toEqual([2, 3]);
  });
  it('Session Storage, and the default value for null or undefined only', async () => {
    const { seen } = await valuesOf({
      item: launch.sessionStorageItem('k'),
      absent: launch.sessionStorageItem('gone', { defaultValue: 'dflt' }),
      empty: launch.constant('', { defaultValue: 'dflt' }),
      zero: launch.constant(0, { defaultValue: 'dflt' }),
      nil: launch.constant(null, { defaultValue: 'dflt' }),
    }, [{ session: { k: 'v' } }]);
    expect(seen[0]).toEqual({ item: 'v', absent: 'dflt', empty: '', zero: 0, nil: 'dflt' });
  });
  it('storage duration: pageview keeps the last value for the page, session keeps it in sessionStorage as JSON; clean text and lower case travel to the engine', async () => {
    const cookieDe = (finish: launch.Finish) => launch.cookie('c', finish);
    const { seen, batches } = await valuesOf({ pv: cookieDe({ storageDuration: 'pageview' }), ss: launch.javascriptVariable('digitalData.v', { storageDuration: 'session' }), plain: cookieDe({}) }, [{ cookie: 'c=one', dataLayer: { v: { n: 1 } } }, { cookie: '', dataLayer: {} }]);
    expect(seen).toEqual([{ pv: 'one', ss: { n: 1 }, plain: 'one' }, { pv: 'one', ss: { n: 1 }, plain: undefined }]);
    expect(batches[0]!.effects).toContainEqual(expect.objectContaining({ type: 'storage', key: launch.storageKey('ss'), value: '{"n":1}' }));
    const fresh = await valuesOf({ ss: launch.javascriptVariable('digitalData.v', { storageDuration: 'session', defaultValue: 'd' }), pv: cookieDe({ storageDuration: 'pageview' }) }, [{ dataLayer: {} }]);
    expect(fresh.seen[0]).toEqual({ ss: 'd', pv: null });
    expect(launch.constant(' A ', { cleanText: true, forceLowerCase: true })).toMatchObject({ cleanText: true, forceLowerCase: true });
    expect(launch.constant('A')).not.toHaveProperty('cleanText');
    expect(launch.constant('A')).not.toHaveProperty('forceLowerCase');
    expect(launch.finishOf(launch.constant('A', { defaultValue: 'x' }))).toEqual({ defaultValue: 'x' });
  });
  it('data elements read on the page: each a page read, its value looked up by the element\'s name in the event', async () => {
    expect(launch.localStorageItem('k').page).toEqual({ from: 'local-storage', key: 'k' });
    expect(launch.domAttribute('#a', 'text').page).toEqual({ from: 'dom', selector: '#a', property: 'text' });
    expect(launch.pageVariable('utag.a').page).toEqual({ from: 'global', path: 'utag.a' });
    expect(launch.pageTitle().page).toEqual({ from: 'title' });
    expect(launch.pageCustomCode('function(){}').page).toEqual({ from: 'launch-code', source: 'function(){}' });
    expect(launch.pageModule('ext/m.js', { s: 1 }).page).toEqual({ from: 'module', module: 'ext/m.js', settings: { s: 1 } });
    const { seen } = await valuesOf({ title: launch.pageTitle({ defaultValue: 'none' }), ls: launch.localStorageItem('k', { defaultValue: 'none' }) }, [{ page: { d: { title: 'Cart', ls: null } } }]);
    expect(seen[0]).toEqual({ title: 'Cart', ls: 'none' });
  });
  it('custom code: the block runs with the turbine event; it may declare reading the whole data layer', async () => {
    const block = (() => function (event: { $type: string }) {
      return event.$type;
    }) as never;
    expect(await valueOf(launch.customCode(block))).toBe('core.direct-call');
    expect(readsOf(launch.customCode(block))).toEqual([]);
    expect(launch.customCode(block, {}, true, true)).not.toHaveProperty('reads');
    expect(launch.customCode(block, {}, true)).toMatchObject({ sideEffects: true });
  });
  it("Data Layer Manager's state: the push's state on a push event, else the latest push's; its conversions", async () => {
    const spec: PageTriggerSpec = { type: 'data-layer-push', global: 'appEventData', flavor: 'dlm' };
    const push = (state: unknown): EngineEvent => ({ type: 'trigger', key: keyOf(spec)!, on: 'data-layer-push', state } as EngineEvent);
    const des = {
      all: launch.dataLayerState(''),
      name: launch.dataLayerState('page.name'),
      t1: launch.dataLayerState('flags.t', { convertTrueToOne: true }),
      f0: launch.dataLayerState('flags.f', { convertFalseToZero: true }),
      u0: launch.dataLayerState('flags.u', { convertUndefinedToZero: true }),
      tKept: launch.dataLayerState('flags.t'),
      fKept: launch.dataLayerState('flags.f', { convertTrueToOne: true }),
      uKept: launch.dataLayerState('flags.u', { convertFalseToZero: true }),
    };
    const state = { page: { name: 'home' }, flags: { t: true, f: false } };
    const seen: unknown[] = [];
    const container = asContainer({
      name: 't', sessionKeys: [], dataElements: launch.dataElements(des),
      rules: [{ name: 'r', events: [spec, { type: 'direct-call', id: 'go' }], actions: [{ name: 'a', fn: (c: launch.Ctx) => void seen.push(Object.fromEntries(Object.keys(des).map((n) => [n, c.get(n)]))) }] }],
    });
    const { fire } = makeEngine(container);
    await fire({ type: 'direct-call', id: 'go' }, { url: URL0 });
    await fire(push(state), { url: URL0 });
    await fire({ type: 'direct-call', id: 'go' }, { url: URL0 });
    expect(seen[0]).toEqual({ all: undefined, name: undefined, t1: undefined, f0: undefined, u0: '0', tKept: undefined, fKept: undefined, uKept: undefined });
    expect(seen[1]).toEqual({ all: state, name: 'home', t1: '1', f0: '0', u0: '0', tKept: true, fKept: false, uKept: undefined });
    expect(seen[2]).toEqual(seen[1]);
  });
  it('Visitor Behavior: counted once per page at Library Loaded, before every rule; sessions and lifetime page views in a cookie, the session\'s facts in sessionStorage', async () => {
    const attrs = Object.fromEntries(launch.VISITOR_ATTRIBUTES.map((a) => [a, launch.visitorBehavior(a)]));
    const seen: Record<string, unknown>[] = [];
    const container = asContainer({
      name: 't', sessionKeys: [launch.VISITOR_SESSION_KEY], dataElements: launch.dataElements(attrs),
      rules: [
        { name: 'read', events: [launch.libraryLoaded()], actions: [{ name: 'a', fn: (c: launch.Ctx) => void seen.push(Object.fromEntries(Object.keys(attrs).map((n) => [n, c.get(n)]))) }] },
        launch.visitorTrackingRule(),
      ],
    });
    let session: Record<string, string | null> = {};
    let cookie = '_sdsat_session_count=4; _sdsat_lt_pages_viewed=10';
    const page = async (url: string, referrer: string, time: number, newTab = false) => {
      const { fire } = makeEngine(container);
      if (newTab) session = {};
      const batch = await fire(launch.libraryLoaded() as never, { url, referrer, time, session, cookie });
      for (const e of batch.effects) {
        if (e.type === 'storage') session = { ...session, [e.key]: e.value };
        if (e.type === 'cookie') {
          expect(e).toMatchObject({ name: launch.VISITOR_COOKIE, path: '/', expires: time + 400 * 86_400_000 });
          cookie = `${e.name}=${e.value}`;
        }
      }
    };
    await page('https://s.example/landing', '', T0);
    await page('https://s.example/two', 'https://search.example/', T0 + 5 * 60_000 + 59_000);
    await page('https://s.example/new-tab', 'https://mail.example/', T0 + 3_600_000, true);
    expect(seen).toEqual([
      { landingPage: 'https://s.example/landing', trafficSource: '', minutesOnSite: 0, sessionCount: 5, sessionPageViewCount: 1, lifetimePageViewCount: 11, isNewVisitor: false },
      { landingPage: 'https://s.example/landing', trafficSource: 'https://search.example/', minutesOnSite: 5, sessionCount: 5, sessionPageViewCount: 2, lifetimePageViewCount: 12, isNewVisitor: false },
      { landingPage: 'https://s.example/new-tab', trafficSource: 'https://mail.example/', minutesOnSite: 0, sessionCount: 6, sessionPageViewCount: 1, lifetimePageViewCount: 13, isNewVisitor: false },
    ]);
  });
  it('Visitor Behavior without any count yet: a new visitor; unreadable session facts are none', async () => {
    const attrs = Object.fromEntries(launch.VISITOR_ATTRIBUTES.map((a) => [a, launch.visitorBehavior(a)]));
    const before = await valuesOf(attrs, [{ session: { [launch.VISITOR_SESSION_KEY]: 'not json' }, cookie: `${launch.VISITOR_COOKIE}=x.y`, time: 120_000 }]);
    expect(before.seen[0]).toEqual({ landingPage: null, trafficSource: null, minutesOnSite: 2, sessionCount: 0, sessionPageViewCount: 0, lifetimePageViewCount: 0, isNewVisitor: false });
    const first = await valuesOf(attrs, [{ session: { [launch.VISITOR_SESSION_KEY]: 'null' }, cookie: `${launch.VISITOR_COOKIE}=1.1` }]);
    expect(first.seen[0]).toMatchObject({ sessionCount: 1, lifetimePageViewCount: 1, isNewVisitor: true, landingPage: null });
    expect(launch.visitorTrackingRule()).toMatchObject({ name: launch.VISITOR_TRACKING_RULE, order: Number.MIN_SAFE_INTEGER });
  });
});
