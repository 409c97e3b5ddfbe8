/** Data elements resolved one by one (core/data-elements.ts), and the data layer's paths, cycles and read set (core/data-layer.ts). */
import { describe, expect, it } from 'vitest';
import type { EngineEvent, LogLevel } from '../../../src/protocol.ts';
import { createResolver } from '../../../src/worker-engine/core/data-elements.ts';
import { dropCycles, parsePath, readPath, readSetOf } from '../../../src/worker-engine/core/data-layer.ts';
import { defaultsFor } from '../../../src/worker-engine/core/settings.ts';
import { storefront } from '../../../containers/storefront/container.ts';

const DEFAULT_SETTINGS = defaultsFor(storefront);
import type { DataElement } from '../../../src/worker-engine/core/types.ts';
import { SITES, snap } from '../harness.ts';

function resolver(elements: Record<string, DataElement<string>>, over: { cookies?: Record<string, string>; session?: Record<string, string>; dataLayer?: unknown; vars?: Record<string, unknown> } = {}) {
  const logs: Array<[LogLevel, string]> = [];
  const r = createResolver(elements, {
    settings: DEFAULT_SETTINGS,
    page: SITES.shop,
    snapshot: snap({ dataLayer: over.dataLayer }),
    event: { type: 'dom-ready' } as EngineEvent,
    cookies: { get: (n) => over.cookies?.[n], all: () => ({ ...over.cookies }), set: () => {}, remove: () => {} },
    session: { get: (k) => over.session?.[k] ?? null, set: () => {} },
    log: (level, message) => void logs.push([level, message]),
    customVars: new Map(Object.entries(over.vars ?? {})),
  });
  return { r, logs };
}

describe('data element sources', () => {
  it('a cookie is %-decoded unless decode is false; its name may be a function of the settings', () => {
    const { r } = resolver(
      {
        dec: { type: 'cookie', name: 'c' },
        raw: { type: 'cookie', name: 'c', decode: false },
        byBrand: { type: 'cookie', name: (s) => `${s.brand}_c` },
        none: { type: 'cookie', name: 'missing', decode: true },
      },
      { cookies: { c: 'a%20b', acme_c: 'brand' } },
    );
    expect(r.get('dec')).toBe('a b');
    expect(r.get('raw')).toBe('a%20b');
    expect(r.get('byBrand')).toBe('brand');
    expect(r.get('none')).toBeUndefined();
  });

  it('a session key may be a function of the settings', () => {
    const { r } = resolver({ s: { type: 'session', key: (s) => `${s.brand}Key` } }, { session: { acmeKey: 'v' } });
    expect(r.get('s')).toBe('v');
  });

  it('an unknown source type fails like a throwing element: said, and the default returned', () => {
    const { r, logs } = resolver({ odd: { type: 'nope', default: 'd' } as never });
    expect(r.get('odd')).toBe('d');
    expect(logs).toEqual([['error', 'Failed to execute data element module for data element "odd". Unknown data element type "nope".']]);
  });

  it('a non-Error throw is said as text', () => {
    const { r, logs } = resolver({
      t: {
        type: 'custom',
        fn: () => {
          throw 'plain';
        },
      },
    });
    expect(r.get('t')).toBeUndefined();
    expect(logs[0]![1]).toBe('Failed to execute data element module for data element "t". plain');
  });
});

describe('defaults and finishing', () => {
  it('a missing value logs its missingMessage and takes the default; a default may be a function of the settings', () => {
    const { r, logs } = resolver({
      a: { type: 'constant', value: null, default: (s: typeof DEFAULT_SETTINGS) => s.brand, missingMessage: 'a is missing' },
      b: { type: 'constant', value: 'there', default: 'unused', missingMessage: 'never said' },
    });
    expect(r.get('a')).toBe('acme');
    expect(r.get('b')).toBe('there');
    expect(logs).toEqual([['log', 'a is missing']]);
  });

  it('without a default, an empty value stays what it was ("" stays "", null stays null)', () => {
    const { r } = resolver({ e: { type: 'constant', value: '' }, n: { type: 'constant', value: null } });
    expect(r.get('e')).toBe('');
    expect(r.get('n')).toBeNull();
  });

  it('cleanText and forceLowerCase touch strings only', () => {
    const { r } = resolver({
      s: { type: 'constant', value: ' A \t B ', cleanText: true, forceLowerCase: true },
      n: { type: 'constant', value: 5, cleanText: true, forceLowerCase: true },
      keep: { type: 'constant', value: ' A  B ' },
    });
    expect(r.get('s')).toBe('a b');
    expect(r.get('n')).toBe(5);
    expect(r.get('keep')).toBe(' A  B ');
  });
});

describe('the resolver', () => {
  it('a name that is no element answers a setVar value, else warns and answers undefined', () => {
    const { r, logs } = resolver({}, { vars: { mine: 1 } });
    expect(r.has('mine')).toBe(true);
    expect(r.get('mine')).toBe(1);
    expect(r.has('nope')).toBe(false);
    expect(r.has('toString')).toBe(false);
    expect(r.get('nope')).toBeUndefined();
    expect(logs).toEqual([['warn', 'Data element "nope" is not defined in the container.']]);
  });

  it('a name every object inherits (toString, constructor) is no element either: warned, undefined, not read as one', () => {
    const { r, logs } = resolver({ real: { type: 'constant', value: 'x' } });
    expect(r.get('toString')).toBeUndefined();
    expect(r.get('constructor')).toBeUndefined();
    expect(logs).toEqual([
      ['warn', 'Data element "toString" is not defined in the container.'],
      ['warn', 'Data element "constructor" is not defined in the container.'],
    ]);
    expect(r.values()).toEqual({});
  });

  it('reads each element once per event, and values() lists what was read', () => {
    let reads = 0;
    const { r } = resolver({ c: { type: 'custom', fn: () => ++reads }, other: { type: 'constant', value: 'x' } });
    expect(r.get('c')).toBe(1);
    expect(r.get('c')).toBe(1);
    expect(r.values()).toEqual({ c: 1 });
  });

  it('a custom element reads the data layer and other elements through its context', () => {
    const { r } = resolver(
      {
        a: { type: 'custom', fn: (c) => `${String(c.dataLayer('page.type'))}/${String(c.get('b'))}/${c.page.origin}/${c.settings.brand}` },
        b: { type: 'data-layer', path: 'list[1]' },
      },
      { dataLayer: { page: { type: 'home' }, list: ['x', 'y'] } },
    );
    expect(r.get('a')).toBe('home/y/https://shop.example.com/acme');
  });
});

describe('the data layer', () => {
  it('parsePath reads dots, [n] and numeric steps', () => {
    expect(parsePath('product[0].productInfo.sku')).toEqual(['product', '0', 'productInfo', 'sku']);
    expect(parsePath('page.element.0.click.id')).toEqual(['page', 'element', '0', 'click', 'id']);
    expect(parsePath('')).toEqual([]);
  });

  it('readPath stops at a missing or primitive step, reads into strings, and takes a parsed path', () => {
    const dl = { a: { b: [null, { c: 'x' }] }, n: 5, s: 'text' };
    expect(readPath(dl, 'a.b[1].c')).toBe('x');
    expect(readPath(dl, ['a', 'b', '1', 'c'])).toBe('x');
    expect(readPath(dl, 'a.b[0].c')).toBeUndefined();
    expect(readPath(dl, 'n.toFixed')).toBeUndefined();
    expect(readPath(dl, 's.length')).toBe(4);
    expect(readPath(undefined, 'a')).toBeUndefined();
    expect(readPath(dl, '')).toBe(dl);
  });

  it('dropCycles cuts back-references in objects and arrays, names their paths, and leaves Maps, Sets and Dates alone', () => {
    const root: Record<string, unknown> = { list: [] as unknown[], when: new Date(0), m: new Map(), set: new Set() };
    (root.list as unknown[]).push(root, { ok: 1 });
    root.self = root;
    const shared = { x: 1 };
    root.a = shared;
    root.b = shared;
    const { value, cycles } = dropCycles(root);
    expect(cycles).toEqual(['list[0]', 'self']);
    expect((value as Record<string, unknown>).self).toBeUndefined();
    expect((value as { list: unknown[] }).list).toEqual([undefined, { ok: 1 }]);
    expect((value as Record<string, unknown>).b).toBe(shared);
    expect((value as Record<string, unknown>).when).toBeInstanceOf(Date);
    const arr: unknown[] = [];
    arr.push(arr);
    expect(dropCycles(arr).cycles).toEqual(['[0]']);
    expect(dropCycles('text')).toEqual({ value: 'text', cycles: [] });
  });

  it('readSetOf: the paths as a tree; a path under another is covered by it; a custom element\'s reads count', () => {
    expect(
      readSetOf({
        a: { type: 'data-layer', path: 'page.info.type' },
        b: { type: 'data-layer', path: 'page.info' },
        c: { type: 'custom', reads: ['user.id', 'page.info.x'] },
        d: { type: 'constant' },
        e: { type: 'cookie' },
      }),
    ).toEqual({ page: { info: 0 }, user: { id: 0 } });
    expect(readSetOf({ b: { type: 'data-layer', path: 'page' }, a: { type: 'data-layer', path: 'page.x' } })).toEqual({ page: 0 });
  });

  it('readSetOf is null (the whole layer) for a custom element without reads, or an empty path', () => {
    expect(readSetOf({ c: { type: 'custom' } })).toBeNull();
    expect(readSetOf({ a: { type: 'data-layer', path: '' } })).toBeNull();
    expect(readSetOf({ c: { type: 'custom', reads: [] } })).toEqual({});
  });
});

describe('an element stored for the session (Launch\'s storage duration)', () => {
  function stored(elements: Record<string, DataElement<string>>, session: Record<string, string> = {}) {
    const writes: Array<[string, string | null]> = [];
    const r = createResolver(elements, {
      settings: DEFAULT_SETTINGS,
      page: SITES.shop,
      snapshot: snap({ dataLayer: { v: 'from layer', o: { a: 1 } } }),
      event: { type: 'dom-ready' } as EngineEvent,
      cookies: { get: () => undefined, all: () => ({}), set: () => {}, remove: () => {} },
      session: { get: (k) => session[k] ?? null, set: (k, v) => void writes.push([k, v]) },
      log: () => {},
      customVars: new Map(),
    });
    return { r, writes };
  }

  it('a value is written as JSON under Launch\'s key, and not written again when the session holds it already', () => {
    const { r, writes } = stored(
      { v: { type: 'data-layer', path: 'v', storage: 'session' }, o: { type: 'data-layer', path: 'o', storage: 'session' } },
      { 'com.adobe.reactor.dataElements.o': '{"a":1}' },
    );
    expect(r.get('v')).toBe('from layer');
    expect(r.get('o')).toEqual({ a: 1 });
    expect(writes).toEqual([['com.adobe.reactor.dataElements.v', '"from layer"']]);
  });

  it('a value JSON cannot write (a function) is answered but not stored', () => {
    const fn = () => 1;
    const { r, writes } = stored({ f: { type: 'constant', value: fn, storage: 'session' } });
    expect(r.get('f')).toBe(fn);
    expect(writes).toEqual([]);
  });

  it('a missing value answers the stored one; nothing stored leaves it missing, and stored text that is no JSON too', () => {
    const { r } = stored(
      {
        kept: { type: 'data-layer', path: 'none', storage: 'session' },
        never: { type: 'data-layer', path: 'none', storage: 'session' },
        broken: { type: 'data-layer', path: 'none', storage: 'session' },
        empty: { type: 'constant', value: '', storage: 'session' },
      },
      { 'com.adobe.reactor.dataElements.kept': '"earlier"', 'com.adobe.reactor.dataElements.broken': '{not json', 'com.adobe.reactor.dataElements.empty': '{' },
    );
    expect(r.get('kept')).toBe('earlier');
    expect(r.get('never')).toBeUndefined();
    expect(r.get('broken')).toBeUndefined();
    expect(r.get('empty')).toBe('');
  });
});

describe('what counts as missing', () => {
  it('an empty text takes the default, as undefined and null do', () => {
    const { r, logs } = resolver({ e: { type: 'constant', value: '', default: 'd', missingMessage: 'e is empty' } });
    expect(r.get('e')).toBe('d');
    expect(logs).toEqual([['log', 'e is empty']]);
  });
});

describe('a custom element\'s context', () => {
  it('has the engine\'s random source, and has() names elements and setVar values', () => {
    const r = createResolver(
      {
        roll: { type: 'custom', fn: (c) => c.random?.() },
        knows: { type: 'custom', fn: (c) => [c.has('roll'), c.has('mine'), c.has('nope')] },
      },
      {
        settings: DEFAULT_SETTINGS,
        page: SITES.shop,
        snapshot: snap(),
        event: { type: 'dom-ready' } as EngineEvent,
        cookies: { get: () => undefined, all: () => ({}), set: () => {}, remove: () => {} },
        session: { get: () => null, set: () => {} },
        log: () => {},
        random: () => 0.25,
        customVars: new Map([['mine', 1]]),
      },
    );
    expect(r.get('roll')).toBe(0.25);
    expect(r.get('knows')).toEqual([true, true, false]);
  });
});

describe('dropCycles, more shapes', () => {
  it('null anywhere in the layer stays null', () => {
    const dl = { a: null, list: [null, { b: null }] };
    expect(dropCycles(dl)).toEqual({ value: { a: null, list: [null, { b: null }] }, cycles: [] });
    expect(dropCycles(null)).toEqual({ value: null, cycles: [] });
  });

  it('a typed array is kept as it is, not walked: a property added to it is left alone', () => {
    const root: Record<string, unknown> = {};
    const bytes = Object.assign(new Uint8Array([1, 2]), { back: root });
    root.bytes = bytes;
    const { value, cycles } = dropCycles(root);
    expect(cycles).toEqual([]);
    expect((value as { bytes: typeof bytes }).bytes).toBe(bytes);
    expect(bytes.back).toBe(root);
  });
});
