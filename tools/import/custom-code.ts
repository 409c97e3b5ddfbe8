/**
 * Where a custom code block can run. The block is parsed and its free names found by scope
 * analysis (scope.ts); it runs in the worker when every one of them is a JavaScript built-in or
 * something the worker's virtual page serves (src/launch/virtual-page.ts): `window`, `location`,
 * `document.URL`/`referrer`/`cookie`/`location`, `navigator.userAgent`/`language`, `screen`,
 * `innerWidth`/`innerHeight`, `_satellite` (getVar, cookie, logger, environment, buildInfo,
 * notify), `sessionStorage`'s items, `Visitor.getInstance`, the Analytics tracker `s`, and the
 * data layer global (its snapshot, read only). A name the block assigns without declaring it (a
 * sloppy implicit global) is its own in the worker. `this` is the window for the Analytics
 * `customSetup`, and the event's element for the other blocks (its attributes, id, class, tag,
 * href and text). Anything else — another page global, the DOM, a write into the data layer —
 * keeps the block on the page, with the first such use as the reason.
 */
import * as acorn from 'acorn';
import { analyse, analyseFunctionText, type Analysis, type FreeUse } from './scope.ts';

export interface Placement {
  where: 'worker' | 'page';
  /** Why it stays on the page. */
  reason?: string;
  /** It writes (cookies or storage): read only by the rules that need it. */
  sideEffects: boolean;
  /** sessionStorage keys it names with a string literal. */
  sessionKeys: string[];
  /** It reads the data layer global directly (`digitalData.…` or `window.digitalData.…`). */
  readsDataLayer?: boolean;
  /** When it does: the paths it reads (`dataPath`), or undefined when it may read any of it (the whole layer travels). */
  dataLayerPaths?: string[];
  /** In the worker: the names it takes from the virtual page (built-ins excluded). */
  globals?: string[];
  /** In the worker: the block's source, `new Function` texts written as functions. */
  source?: string;
  /** In the worker: page globals it only reads as data, delivered with each event (page reads of `window.<name>`). */
  pageGlobals?: string[];
  /** Of each page global: the paths it reads (`dataPath`), or null when it may read any of it (the whole value travels). */
  pageGlobalPaths?: Record<string, string[] | null>;
}

export interface PlaceOptions {
  /** The data layer global, which worker code may read (its snapshot) but not assign to. */
  dataLayer?: string;
  /** What the block's own `this` is: the window (Analytics customSetup) or the event's element. */
  thisIs?: 'window' | 'element';
  /** Page globals the worker's window has too (a plugin an imported extension puts there). */
  globals?: string[];
  /** Collects the page globals the block reads as data (set by `place`; absent: such a read keeps the block on the page). */
  pageData?: Set<string>;
  /** Page globals whose members the block reads (set by `place`). */
  dataNames?: Set<string>;
  /** The uses of each page global in `pageData`: the path each reads (`dataPath`), and whether it only tests it (set by `place`). */
  pageDataUses?: Map<string, Array<{ path: string; tested: boolean }>>;
}

/** Globals of JavaScript itself (and the console): the same in the worker as on the page. */
export const BUILT_INS = new Set(
  ('Math JSON String Number Boolean Array Object Date RegExp Error TypeError RangeError SyntaxError ReferenceError EvalError URIError ' +
    'parseInt parseFloat isNaN isFinite encodeURIComponent decodeURIComponent encodeURI decodeURI escape unescape undefined NaN Infinity ' +
    'Map Set WeakMap WeakSet Symbol Promise Proxy Reflect BigInt Intl ArrayBuffer DataView Uint8Array Int8Array Uint16Array Int16Array ' +
    'Uint32Array Int32Array Float32Array Float64Array TextEncoder TextDecoder URL URLSearchParams atob btoa structuredClone console').split(' '),
);

/** The window's names for itself. */
const WINDOW_NAMES = new Set(['window', 'self', 'top', 'parent', 'globalThis', 'frames']);
const LOCATION = new Set(['href', 'protocol', 'host', 'hostname', 'port', 'pathname', 'search', 'hash', 'origin', 'toString']);
/** What the worker serves, by global and first member (`true`: any use of the name itself). */
const SERVED: Record<string, { read: Set<string> | true; write?: Set<string> }> = {
  document: { read: new Set(['URL', 'location', 'referrer', 'cookie', 'domain']), write: new Set(['cookie']) },
  location: { read: LOCATION },
  navigator: { read: new Set(['userAgent', 'language', 'languages', 'cookieEnabled']) },
  screen: { read: new Set(['width', 'height', 'colorDepth', 'pixelDepth']) },
  innerWidth: { read: true },
  innerHeight: { read: true },
  _satellite: { read: new Set(['getVar', 'cookie', 'logger', 'environment', 'buildInfo', 'notify']) },
  sessionStorage: { read: new Set(['getItem', 'setItem', 'removeItem']) },
  Visitor: { read: new Set(['getInstance']) },
  s: { read: true, write: new Set(['*']) },
  s_gi: { read: true },
};
/** What the worker gives `this` as the event's element (src/launch/virtual-page.ts `elementOf`). */
const ELEMENT = new Set(['getAttribute', 'hasAttribute', 'id', 'className', 'tagName', 'nodeName', 'href', 'textContent', 'innerText']);

/**
 * Methods of text and arrays: calling one at the end of a page global's path reads data. Any other
 * call (`pageDataTracker.md5(…)`) may be the page's own function, which cannot cross to the worker.
 */
const DATA_METHODS = new Set(
  ('split join indexOf lastIndexOf includes slice substring substr toLowerCase toUpperCase trim replace match search charAt charCodeAt ' +
    'startsWith endsWith concat toString toFixed map filter forEach some every find findIndex reduce keys hasOwnProperty').split(' '),
);

/** Member names that read a value as a whole, not a branch of it: where a data path stops (a path through an array would otherwise become an object of the indices read). */
const WHOLE_VALUE = new Set(['length', 'constructor', 'prototype', '__proto__']);

/**
 * The part of a use's member path that names data: up to a computed member or `length`, or the
 * member called (its owner is read whole: a method of text or arrays, or a function, which cannot
 * travel), `x.items.map.call(…)` as a call of `map`. `''`: the whole value. The worker's copy holds
 * only the branches read (src/main-bridge/read-set.ts).
 */
export function dataPath(path: string[], call: boolean): string {
  let end = path.findIndex((k, i) => k === '[]' || WHOLE_VALUE.has(k) || (DATA_METHODS.has(k) && /^(call|apply|bind)$/.test(path[i + 1] ?? '')));
  if (end < 0) end = call ? path.length - 1 : path.length;
  return path.slice(0, Math.max(end, 0)).join('.');
}

/** A use's data path; a test only when it tests the very end of its member path (`!x.list.length` reads the list). */
const dataUse = (path: string[], call: boolean, tested?: boolean) => {
  const p = dataPath(path, call);
  return { path: p, tested: tested === true && p === path.join('.') };
};

/**
 * The paths read of a value, from its uses: undefined when one reads it whole. A use that only
 * tests whether its path is there needs no path of its own for the value itself (the copy keeps
 * it: an object as a fresh one, anything else as it is), nor one under which another is read.
 */
const pathsOf = (uses: Iterable<{ path: string; tested?: boolean }>): string[] | undefined => {
  const list = [...uses];
  const read = new Set(list.filter((u) => !u.tested).map((u) => u.path));
  if (read.has('')) return undefined;
  for (const u of list) if (u.tested && u.path && ![...read].some((r) => r === u.path || r.startsWith(u.path + '.'))) read.add(u.path);
  return [...read].sort();
};

const describe = (u: { name?: string; path: string[] }) => [u.name ?? 'this', ...u.path].slice(0, 3).join('.');

/** Why the worker cannot serve this use of a free name, or undefined when it can. */
function unserved(u: FreeUse, o: PlaceOptions, implicit: Set<string>): string | undefined {
  if (BUILT_INS.has(u.name)) return u.write && u.path.length ? `it changes \`${describe(u)}\`, a JavaScript built-in` : undefined;
  if (implicit.has(u.name)) return undefined;
  if (o.globals?.includes(u.name)) return u.write ? `it assigns \`${u.name}\`` : undefined;
  if (WINDOW_NAMES.has(u.name)) {
    if (!u.path.length) return u.write ? `it assigns \`${u.name}\`` : `it uses \`${u.name}\` itself (only its members are served in the worker)`;
    if (u.path[0] === '[]') return `it reads \`${u.name}[…]\`, a page global named at run time`;
    const [name, ...path] = u.path;
    if (WINDOW_NAMES.has(name!)) return unserved({ ...u, name: name!, path }, o, implicit);
    // `window.x = …` for a name the page does not otherwise use is the block's own global.
    if (u.write && !path.length && !SERVED[name!] && name !== o.dataLayer && !BUILT_INS.has(name!)) return `it assigns \`window.${name}\`, which the page may read`;
    return unserved({ ...u, name: name!, path }, o, implicit);
  }
  if (u.name === o.dataLayer) return u.write ? `it writes into \`${o.dataLayer}\`, the page's data layer` : undefined;
  const served = SERVED[u.name];
  if (!served) {
    // A page global read as data (never assigned, never called but for a method of text or arrays) travels with each event.
    const dataRead = !u.write && (!u.call || (u.path.length > 0 && DATA_METHODS.has(u.path[u.path.length - 1]!))) && u.path[0] !== '[]';
    // Only a name the block reads members of is taken for data: one only tested for being there (`window.ga && …`) may be a function, which cannot travel.
    if (dataRead && o.pageData && o.dataNames?.has(u.name)) {
      o.pageData.add(u.name);
      o.pageDataUses?.set(u.name, [...(o.pageDataUses.get(u.name) ?? []), dataUse(u.path, u.call, u.tested)]);
      return undefined;
    }
    return `it uses \`${describe(u)}\`, which only the page has`;
  }
  if (u.name === 'document' && u.path[0] === 'location') return unserved({ ...u, name: 'location', path: u.path.slice(1) }, o, implicit);
  if (u.write) {
    const ok = served.write && (served.write.has('*') || (u.path.length === 1 && served.write.has(u.path[0]!)));
    return ok ? undefined : `it changes \`${describe(u)}\` on the page`;
  }
  if (served.read === true) return undefined;
  if (!u.path.length) return u.typeofOnly ? undefined : `it uses \`${u.name}\` itself (the worker serves ${[...served.read].map((m) => `${u.name}.${m}`).join(', ')})`;
  return served.read.has(u.path[0]!) ? undefined : `it uses \`${describe(u)}\`, which only the page has`;
}

function thisReason(a: Analysis, o: PlaceOptions, implicit: Set<string>): string | undefined {
  for (const t of a.thisUses) {
    if (o.thisIs === 'window') {
      const why = unserved({ name: 'window', path: t.path, write: t.write, call: t.call, typeofOnly: false }, o, implicit);
      if (why) return why;
    } else if (!t.path.length || !ELEMENT.has(t.path[0]!) || t.write) return 'it uses `this` (the element of the event) beyond its attributes, id, class, tag, href and text';
  }
  return undefined;
}

/**
 * Where `source` (a custom code block, as a function expression's source) can run, and in the
 * worker what it takes from the virtual page.
 */
export function place(source: string, options: PlaceOptions = {}): Placement {
  const o: PlaceOptions = { ...options, pageData: new Set(), pageDataUses: new Map() };
  const sideEffects = /\.(setItem|removeItem|set|remove|c_w|cookieWrite)\s*\(|document\.cookie\s*=/.test(source);
  const sessionKeys = [...source.matchAll(/sessionStorage\.(?:getItem|setItem|removeItem)\(\s*(['"])([^'"]+)\1/g)].map((m) => m[2]!);
  const page = (reason: string): Placement => ({ where: 'page', reason, sideEffects, sessionKeys });
  const a = analyse(source);
  if (a.problem) return page(a.problem);
  // `new Function("…")` texts become functions in the block; their free names are the page's globals.
  const texts = a.functionTexts.map((f) => ({ f, a: analyseFunctionText(f) }));
  const uses = [...a.free];
  for (const t of texts) {
    if (t.a.problem) return page(`a \`new Function\` text in it ${t.a.problem}`);
    const clash = t.a.free.find((u) => a.declared.has(u.name));
    if (clash) return page(`a \`new Function\` text in it names \`${clash.name}\`, which the block declares too`);
    uses.push(...t.a.free.filter((u) => u.name !== 'Function'));
  }
  const freeUses = uses.filter((u) => !(u.name === 'Function' && u.call && !u.path.length));
  o.dataNames = new Set(freeUses.flatMap((u) => (WINDOW_NAMES.has(u.name) ? (u.path.length > 1 ? [u.path[0]!] : []) : u.path.length ? [u.name] : [])));
  // Names it assigns without declaring them: sloppy-mode globals, the block's own in the worker.
  const implicit = new Set(freeUses.filter((u) => u.write && !u.path.length && !WINDOW_NAMES.has(u.name) && !SERVED[u.name] && !BUILT_INS.has(u.name) && u.name !== o.dataLayer).map((u) => u.name));
  for (const u of freeUses) {
    const why = unserved(u, o, implicit);
    if (why) return page(why);
  }
  const why = thisReason(a, o, implicit);
  if (why) return page(why);
  let text = source;
  for (const f of [...a.functionTexts].sort((x, y) => y.start - x.start)) {
    text = `${text.slice(0, f.start)}(function anonymous(${f.params.join(',')}\n) {\n${f.body}\n})${text.slice(f.end)}`;
  }
  const pageGlobals = [...o.pageData!].sort();
  const globals = [...new Set(freeUses.map((u) => u.name).filter((n) => !BUILT_INS.has(n)))].sort();
  const pageGlobalPaths = Object.fromEntries(pageGlobals.map((g) => [g, pathsOf(o.pageDataUses!.get(g) ?? [{ path: '' }]) ?? null]));
  // Its uses of the data layer, each as the member path after the layer (`window.` dropped).
  const layerUses: Array<{ path: string[]; call: boolean; tested?: boolean }> = [];
  for (const u of freeUses) {
    let path = [u.name, ...u.path];
    while (path.length > 1 && WINDOW_NAMES.has(path[0]!)) path = path.slice(1);
    if (o.dataLayer && path[0] === o.dataLayer) layerUses.push({ path: path.slice(1), call: u.call, tested: u.tested });
  }
  const readsDataLayer = layerUses.length > 0;
  const dataLayerPaths = readsDataLayer ? pathsOf(layerUses.map((u) => dataUse(u.path, u.call, u.tested))) : undefined;
  return {
    where: 'worker',
    sideEffects,
    sessionKeys,
    globals,
    source: text,
    ...(pageGlobals.length ? { pageGlobals, pageGlobalPaths } : {}),
    ...(readsDataLayer ? { readsDataLayer, ...(dataLayerPaths ? { dataLayerPaths } : {}) } : {}),
  };
}

/**
 * The worker's code for a placed block: a function of the virtual page (`__w`) that takes the
 * block's globals from it and returns the block. A global it only assigns starts undefined.
 */
export function workerFactory(p: Placement): string {
  const names = (p.globals ?? []).filter((n) => n !== 'Function');
  const reads = p.pageGlobals?.length ? `  __w.__pageGlobals(${JSON.stringify(p.pageGlobals)});\n` : '';
  return names.length ? `(__w) => {\n${reads}  let { ${names.join(', ')} } = __w;\n  return (${p.source});\n}` : `(__w) => (${p.source})`;
}

/**
 * Why a custom code data element's value can only live on the page, or undefined: the block
 * returns a function or a promise (a `function`/arrow, `new Promise(…)` or `Promise.resolve(…)`,
 * with `.then`/`.catch`/`.finally` after it, or it is an async function). Under turbine
 * `_satellite.getVar` hands page code that very object, to call or to wait on; a worker's value
 * reaches the page only as data, so such an element is read on the page, where getVar answers it.
 */
export function pageOnlyValue(fnSource: string): string | undefined {
  let fn: acorn.Node & Record<string, any>;
  try {
    const program = acorn.parse(`(${fnSource}\n)`, { ecmaVersion: 'latest', sourceType: 'script' }) as acorn.Node & Record<string, any>;
    fn = program.body[0].expression;
  } catch {
    return undefined;
  }
  if (!/Function/.test(fn.type)) return undefined;
  if (fn.async) return 'its value is a promise (an async function), which only the page can hold for getVar';
  const returned: Array<acorn.Node & Record<string, any>> = fn.body.type === 'BlockStatement' ? [] : [fn.body];
  const visit = (n: unknown): void => {
    if (!n || typeof n !== 'object') return;
    if (Array.isArray(n)) return n.forEach(visit);
    const node = n as acorn.Node & Record<string, any>;
    if (typeof node.type !== 'string' || /Function/.test(node.type)) return;
    if (node.type === 'ReturnStatement' && node.argument) returned.push(node.argument);
    for (const k of Object.keys(node)) if (k !== 'type') visit(node[k]);
  };
  if (fn.body.type === 'BlockStatement') visit(fn.body.body);
  for (let r of returned) {
    while (r.type === 'SequenceExpression') r = r.expressions.at(-1);
    if (/Function/.test(r.type)) return 'its value is a function, which only the page can hold for getVar';
    while (r.type === 'CallExpression' && r.callee.type === 'MemberExpression' && ['then', 'catch', 'finally'].includes(r.callee.property?.name)) r = r.callee.object;
    const promise =
      (r.type === 'NewExpression' && r.callee.type === 'Identifier' && r.callee.name === 'Promise') ||
      (r.type === 'CallExpression' && r.callee.type === 'MemberExpression' && r.callee.object.type === 'Identifier' && r.callee.object.name === 'Promise');
    if (promise) return 'its value is a promise, which only the page can hold for getVar';
  }
  return undefined;
}
