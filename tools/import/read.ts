/**
 * Reads a deployed Launch library's `_satellite.container` without running the library: the
 * file is evaluated in a Node `vm` context that has only a stub `window`, and evaluation stops
 * at the moment the library assigns `window._satellite.container` — before any of turbine's
 * runtime (which follows the assignment in a built library) or any module script runs. Functions
 * in the container (module scripts, custom code) are kept as their source text, never called.
 */
import vm from 'node:vm';
import * as acorn from 'acorn';
import * as walk from 'acorn-walk';
import { renameFree } from './scope.ts';

/** Source text of a function found in the container (a module script, a custom code block). */
export interface Code {
  code: string;
}

export type LaunchValue = string | number | boolean | null | Code | LaunchValue[] | { [k: string]: LaunchValue };

export interface LaunchComponent {
  modulePath: string;
  settings?: Record<string, LaunchValue>;
}

export interface LaunchDataElement extends LaunchComponent {
  defaultValue?: string;
  forceLowerCase?: boolean;
  cleanText?: boolean;
  storageDuration?: 'pageview' | 'session' | 'visitor';
}

export interface LaunchRule {
  id: string;
  name: string;
  events?: Array<LaunchComponent & { ruleOrder?: number }>;
  conditions?: Array<LaunchComponent & { negate?: boolean; timeout?: number }>;
  actions?: Array<LaunchComponent & { timeout?: number; delayNext?: boolean }>;
}

export interface LaunchExtension {
  displayName: string;
  hostedLibFilesBaseUrl?: string;
  settings?: Record<string, LaunchValue>;
  modules?: Record<string, { name?: string; displayName?: string; script: LaunchValue; shared?: boolean }>;
}

export interface LaunchContainer {
  buildInfo?: Record<string, LaunchValue>;
  environment?: { id?: string; stage?: string };
  dataElements?: Record<string, LaunchDataElement>;
  extensions?: Record<string, LaunchExtension>;
  rules?: LaunchRule[];
  company?: Record<string, LaunchValue>;
  property?: { name?: string; settings?: Record<string, LaunchValue> };
}

export function isCode(v: unknown): v is Code {
  return typeof v === 'object' && v !== null && typeof (v as Code).code === 'string' && Object.keys(v).length === 1;
}

/** Thrown inside the sandbox to stop the library right after the container assignment. */
const STOP = Symbol('stop');

/** How long the top of a library may run before the container is assigned. */
const READ_TIMEOUT_MS = 2000;

export class LibraryReadError extends Error {}

/**
 * The container a library assigns. A built library is read as written: the object literal assigned
 * to `<something>._satellite.container` is found with a JavaScript parser and evaluated on its own,
 * so a library a site's bundle carries inside one of its functions reads as well as a standalone
 * one, and nothing else of the file runs. When the literal cannot be evaluated alone (it names a
 * variable of the code around it), the file's top is run in the stub context up to the assignment.
 * Throws LibraryReadError with a one-line reason when the file assigns no container (not a Launch
 * library, or a turbine build older than the `_satellite.container` format) or cannot be read.
 */
export function readLibrary(text: string, file: string): LaunchContainer {
  const { literal, windowName } = findContainer(text);
  const read = (): LaunchContainer => {
    if (literal) {
      try {
        const value = vm.runInContext(`(${literal})`, stubContext().context, { filename: file, timeout: READ_TIMEOUT_MS }) as unknown;
        if (typeof value === 'object' && value !== null) return plain(value) as LaunchContainer;
      } catch {
        /* the literal needs the code around it: run the file's top instead */
      }
    }
    return runToAssignment(text, file);
  };
  const c = read();
  // A bundle's `function install(e) { e._satellite.container = … }`: its blocks name the window `e`.
  return windowName ? (renamed(c as unknown as LaunchValue, windowName) as unknown as LaunchContainer) : c;
}

const GLOBAL_NAMES = new Set(['window', 'self', 'globalThis', 'top', 'parent', 'frames']);

/** Each code block of the container with its free uses of `windowName` written as `window`. */
function renamed(v: LaunchValue, windowName: string): LaunchValue {
  if (isCode(v)) return { code: renameFree(v.code, windowName, 'window') };
  if (Array.isArray(v)) return v.map((x) => renamed(x, windowName));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, renamed(x, windowName)]));
  return v;
}

/**
 * A site's bundle that carries the library inside one of its functions, without it: the text of
 * `file` with the body of the function that assigns the container (the library, turbine's runtime
 * after it) left empty, so that the bundle's own code — what it builds before it starts the library,
 * what it does after — runs as before and its call of that function does nothing. `undefined` for
 * a library that is not inside a bundle: the assignment at the top of the file, or inside a function
 * the file calls at its top (turbine 27's builds wrap it so), which the page replaces as a whole.
 */
export function bundleWithoutLibrary(text: string): { text: string; functionName?: string } | undefined {
  const ast = parse(text);
  if (!ast) return undefined;
  let fn: acorn.Function | undefined;
  walk.fullAncestor(ast, (node, _state, ancestors) => {
    if (fn || !isContainerAssignment(node)) return;
    for (let i = ancestors.length - 2; i >= 0; i--) {
      const a = ancestors[i]!;
      if (a.type === 'FunctionDeclaration' || a.type === 'FunctionExpression' || a.type === 'ArrowFunctionExpression') {
        fn = a as acorn.Function;
        if (calledAtTop(ancestors.slice(0, i + 1))) fn = undefined;
        return;
      }
    }
  });
  if (!fn) return undefined;
  const body = fn.body;
  const note = 'the Adobe Launch library this function installed is imported by offtag import: offtag.js runs it';
  const emptied =
    body.type === 'BlockStatement'
      ? text.slice(0, body.start + 1) + `/* ${note} */` + text.slice(body.end - 1)
      : text.slice(0, body.start) + `(void 0 /* ${note} */)` + text.slice(body.end);
  const id = (fn as { id?: acorn.Identifier | null }).id;
  return { text: emptied, ...(id ? { functionName: id.name } : {}) };
}

/** The function (the last of `chain`) is called by a statement of the program's own: turbine 27's wrapper of the container's assignment, not a bundle's function. */
function calledAtTop(chain: acorn.Node[]): boolean {
  // Program → ExpressionStatement → (`!`, `void` …) → CallExpression → the function (parentheses are no nodes).
  const between = chain.slice(2, -1);
  const call = between.at(-1);
  return chain[1]?.type === 'ExpressionStatement' && call?.type === 'CallExpression' && (call as acorn.CallExpression).callee === chain.at(-1) && between.slice(0, -1).every((n) => n.type === 'UnaryExpression');
}

/** The source text of the object assigned to `…._satellite.container`, or undefined. */
export function containerLiteral(text: string): string | undefined {
  return findContainer(text).literal;
}

/**
 * The container's literal, and the name the code around it gives the window when it assigns it
 * through a variable of its own (`e._satellite.container = …` inside a bundle's function).
 */
function findContainer(text: string): { literal?: string; windowName?: string } {
  const ast = parse(text);
  if (!ast) return {};
  let found: string | undefined;
  let windowName: string | undefined;
  walk.simple(ast, {
    AssignmentExpression(node) {
      if (found || !isContainerAssignment(node)) return;
      const n = node as acorn.AssignmentExpression;
      found = text.slice(n.right.start, n.right.end);
      const target = (n.left as acorn.MemberExpression).object;
      const owner = target.type === 'MemberExpression' ? (target as acorn.MemberExpression).object : undefined;
      if (owner?.type === 'Identifier' && !GLOBAL_NAMES.has(owner.name)) windowName = owner.name;
    },
  });
  return { ...(found !== undefined ? { literal: found } : {}), ...(windowName ? { windowName } : {}) };
}

/** The last file parsed: the import reads a library's container and then its bundle from one parse. */
let parsed: { text: string; ast: acorn.Node | undefined } | undefined;

function parse(text: string): acorn.Node | undefined {
  if (parsed?.text !== text) parsed = { text, ast: parseOnce(text) };
  return parsed.ast;
}

function parseOnce(text: string): acorn.Node | undefined {
  try {
    return acorn.parse(text, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true, allowHashBang: true });
  } catch {
    try {
      return acorn.parse(text, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true });
    } catch {
      return undefined;
    }
  }
}

/** `<something>._satellite.container = {…}` or `_satellite.container = {…}`. */
function isContainerAssignment(node: acorn.Node): boolean {
  if (node.type !== 'AssignmentExpression') return false;
  const n = node as acorn.AssignmentExpression;
  if (n.operator !== '=' || n.right.type !== 'ObjectExpression' || memberName(n.left) !== 'container') return false;
  const target = (n.left as acorn.MemberExpression).object;
  return (target.type === 'MemberExpression' && memberName(target) === '_satellite') || (target.type === 'Identifier' && target.name === '_satellite');
}

const memberName = (n: acorn.Node): string | undefined => {
  if (n.type !== 'MemberExpression') return undefined;
  const m = n as acorn.MemberExpression;
  if (!m.computed && m.property.type === 'Identifier') return m.property.name;
  if (m.computed && m.property.type === 'Literal' && typeof m.property.value === 'string') return m.property.value;
  return undefined;
};

function stubContext(onAssign?: (value: unknown) => void) {
  let captured: unknown;
  const satellite = {};
  Object.defineProperty(satellite, 'container', {
    configurable: true,
    set(value: unknown) {
      captured = value;
      onAssign?.(value);
      throw STOP;
    },
    get: () => captured,
  });
  const window: Record<string, unknown> = { _satellite: satellite };
  window.window = window;
  window.self = window;
  return { context: vm.createContext({ window, self: window, _satellite: satellite }) };
}

/** Runs the library's top in the stub context and stops it at the container assignment. */
function runToAssignment(text: string, file: string): LaunchContainer {
  let captured: unknown;
  let assigned = false;
  const { context } = stubContext((value) => {
    captured = value;
    assigned = true;
  });
  try {
    vm.runInContext(text, context, { filename: file, timeout: READ_TIMEOUT_MS });
  } catch (err) {
    if (!assigned) {
      const why = err instanceof Error ? err.message : String(err);
      throw new LibraryReadError(`${file}: the library failed before assigning _satellite.container: ${why}`);
    }
  }
  if (!assigned || typeof captured !== 'object' || captured === null) {
    throw new LibraryReadError(`${file}: no window._satellite.container assignment found (is this a Launch library built by turbine 25 or later?).`);
  }
  return plain(captured) as LaunchContainer;
}

/** A copy made of this realm's plain values; functions become their source text. */
function plain(value: unknown, seen = new Set<unknown>()): LaunchValue {
  if (typeof value === 'function') return { code: Function.prototype.toString.call(value) };
  if (value === null || typeof value !== 'object') {
    return typeof value === 'undefined' || typeof value === 'symbol' || typeof value === 'bigint' ? null : (value as LaunchValue);
  }
  if (seen.has(value)) return null;
  seen.add(value);
  const out: LaunchValue = Array.isArray(value)
    ? value.map((v) => plain(v, seen))
    : Object.fromEntries(
        Object.keys(value)
          .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
          .map((k) => [k, plain((value as Record<string, unknown>)[k], seen)]),
      );
  seen.delete(value);
  return out;
}
