/**
 * Where in a container's source files an item is written, so that each problem `offtag build`
 * finds reads `file:line:column: …` (as a compiler's do). The container is a value by the time it
 * is checked; its source is read again here: each of its own files (not the package's) is made
 * JavaScript by esbuild with a source map, parsed by acorn, and the object literals that write
 * rules (by their `name`), data elements (by their key in a `dataElements` table) and settings (by
 * their key under `settings`) are indexed. An item written by code (a rule made in a loop) is not
 * found: its problem names the item without a position.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

/** An item of a container, as validation names it. */
export type Where =
  | { kind: 'container' }
  | { kind: 'setting'; path: string }
  | { kind: 'element'; name: string }
  | { kind: 'rule'; rule: string; part?: 'events' | 'conditions' | 'actions' | 'exceptions'; index?: number; field?: string };

export interface Position {
  file: string;
  line: number;
  column: number;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- acorn's nodes */
type Node = any;

interface FileIndex {
  file: string;
  /** The written position of a generated offset. */
  position(node: Node): Position | undefined;
  rules: Map<string, Node>;
  elements: Map<string, Node>;
  settings: Map<string, Node>;
  containers: Node[];
}

const keyName = (p: Node): string | undefined =>
  p?.type !== 'Property' ? undefined : p.key.type === 'Identifier' && !p.computed ? p.key.name : typeof p.key.value === 'string' ? p.key.value : undefined;
const stringValue = (n: Node): string | undefined =>
  n?.type === 'Literal' && typeof n.value === 'string' ? n.value : n?.type === 'TemplateLiteral' && n.expressions.length === 0 ? n.quasis[0].value.cooked : undefined;
const prop = (obj: Node, name: string): Node | undefined => (obj?.type === 'ObjectExpression' ? obj.properties.find((p: Node) => keyName(p) === name) : undefined);

/** The object literal a function returns: its expression body, or its block's last `return {…}`. */
function returnedObject(fn: Node): Node | undefined {
  if (fn.body?.type === 'ObjectExpression') return fn.body;
  if (fn.body?.type !== 'BlockStatement') return undefined;
  const ret = [...fn.body.body].reverse().find((st: Node) => st.type === 'ReturnStatement');
  return ret?.argument?.type === 'ObjectExpression' ? ret.argument : undefined;
}

/** Every node under `node`, depth first. */
function* walk(node: Node): Generator<Node> {
  if (!node || typeof node.type !== 'string') return;
  yield node;
  for (const key of Object.keys(node)) {
    if (key === 'loc' || key === 'start' || key === 'end') continue;
    const v = node[key];
    if (Array.isArray(v)) for (const c of v) yield* walk(c);
    else if (v && typeof v === 'object' && typeof v.type === 'string') yield* walk(v);
  }
}

interface Parsed {
  file: string;
  ast: Node;
  position(node: Node): Position | undefined;
  /** `const name = {…}` of the file, by name. */
  objects: Map<string, Node>;
}

/** The file each node was parsed from. */
const ownerOf = new WeakMap<Node, Parsed>();

async function parseFile(path: string, shown: string): Promise<Parsed | undefined> {
  const [{ transform }, acorn, { TraceMap, originalPositionFor }] = await Promise.all([import('esbuild'), import('acorn'), import('@jridgewell/trace-mapping')]);
  const source = readFileSync(path, 'utf8');
  const loader = /\.[mc]?tsx?$/.test(path) ? (path.endsWith('x') ? 'tsx' : 'ts') : path.endsWith('x') ? 'jsx' : 'js';
  let code: string;
  let map: InstanceType<typeof TraceMap>;
  try {
    const out = await transform(source, { loader, sourcemap: 'external', sourcefile: path, format: 'esm', target: 'esnext', jsx: 'preserve' });
    code = out.code;
    map = new TraceMap(out.map);
  } catch {
    return undefined;
  }
  let ast: Node;
  try {
    ast = acorn.parse(code, { ecmaVersion: 'latest', sourceType: 'module', locations: true, allowHashBang: true });
  } catch {
    return undefined;
  }
  const position = (node: Node): Position | undefined => {
    if (!node?.loc) return undefined;
    const o = originalPositionFor(map, { line: node.loc.start.line, column: node.loc.start.column });
    return o.line == null ? undefined : { file: shown, line: o.line, column: (o.column ?? 0) + 1 };
  };
  const objects = new Map<string, Node>();
  const parsed: Parsed = { file: shown, ast, position, objects };
  for (const n of walk(ast)) {
    ownerOf.set(n, parsed);
    if (n.type === 'VariableDeclarator' && n.id.type === 'Identifier' && n.init?.type === 'ObjectExpression') objects.set(n.id.name, n.init);
  }
  return parsed;
}

/**
 * The rules, data elements and settings each file writes. A table named by a variable is looked up
 * in its own file first, then in the container's other files (the storefront's settings and data
 * elements are modules of their own).
 */
function indexFiles(parsed: Parsed[]): FileIndex[] {
  const everywhere = new Map<string, { node: Node; owner: Parsed }>();
  for (const p of parsed) for (const [name, node] of p.objects) if (!everywhere.has(name)) everywhere.set(name, { node, owner: p });
  return parsed.map((p) => {
    // A node of another file's table is shown at its own file's position.
    const index: FileIndex = { file: p.file, position: (node) => ownerOf.get(node)?.position(node), rules: new Map(), elements: new Map(), settings: new Map(), containers: [] };
    const tableOf = (value: Node): Node | undefined => {
      if (value?.type === 'ObjectExpression') return value;
      if (value?.type === 'Identifier') {
        const local = p.objects.get(value.name);
        if (local) return local;
        return everywhere.get(value.name)?.node;
      }
      if (value?.type === 'CallExpression') return value.arguments.map(tableOf).find(Boolean);
      return undefined;
    };
    const addTable = (into: Map<string, Node>, table: Node | undefined, prefix = '', nested = false, seen = new Set<Node>()) => {
      if (!table || seen.has(table)) return;
      seen.add(table);
      for (const prop of table.properties) {
        if (prop.type === 'SpreadElement') addTable(into, tableOf(prop.argument), prefix, nested, seen);
        const k = keyName(prop);
        if (k === undefined) continue;
        if (!into.has(prefix + k)) into.set(prefix + k, prop);
        if (nested && prop.value.type === 'ObjectExpression') addTable(into, prop.value, `${prefix}${k}.`, true, seen);
      }
    };
    for (const n of walk(p.ast)) {
      if (n.type !== 'ObjectExpression') continue;
      const name = stringValue(prop(n, 'name')?.value);
      if (name !== undefined && (prop(n, 'events') || prop(n, 'actions')) && !index.rules.has(name)) index.rules.set(name, n);
      const elements = prop(n, 'dataElements');
      if (elements) addTable(index.elements, tableOf(elements.value));
      // `derived: (e) => ({ … })`: the elements the function returns as an object literal.
      const derived = prop(n, 'derived')?.value;
      if (elements && /FunctionExpression$/.test(derived?.type ?? '')) addTable(index.elements, returnedObject(derived));
      if (elements && prop(n, 'rules')) {
        index.containers.push(n);
        const settings = prop(n, 'settings');
        if (settings) addTable(index.settings, tableOf(settings.value), '', true);
      }
    }
    // A table of data elements written apart from the container (`export const dataElements = {…}`).
    for (const [name, obj] of p.objects) if (/elements$/i.test(name)) addTable(index.elements, obj);
    return index;
  });
}

export interface Locator {
  /** Where `at` is written, or undefined when no file writes it as a literal. */
  locate(at: Where): Position | undefined;
}

/** The container's own files (not the package's), indexed; `shownFrom`: paths are shown relative to it. */
export async function createLocator(files: string[], shownFrom = process.cwd()): Promise<Locator> {
  const parsed = (await Promise.all(files.map((f) => parseFile(f, relative(shownFrom, f) || f)))).filter((p): p is Parsed => !!p);
  const indexes = indexFiles(parsed);
  const first = <T>(f: (i: FileIndex) => T | undefined): T | undefined => {
    for (const i of indexes) {
      const v = f(i);
      if (v !== undefined) return v;
    }
    return undefined;
  };
  return {
    locate(at) {
      if (at.kind === 'container') return first((i) => i.position(i.containers[0]));
      if (at.kind === 'setting') return first((i) => i.position(i.settings.get(at.path)));
      if (at.kind === 'element') return first((i) => i.position(i.elements.get(at.name)));
      return first((i) => {
        const rule = i.rules.get(at.rule);
        if (!rule) return undefined;
        let node: Node = prop(rule, 'name');
        const part = at.part ? prop(rule, at.part) : undefined;
        if (part) {
          node = part;
          const item = part.value.type === 'ArrayExpression' && at.index !== undefined ? part.value.elements[at.index] : undefined;
          if (item) {
            node = item;
            const field = at.field ? prop(item, at.field) : undefined;
            if (field) node = field;
          }
        }
        return i.position(node);
      });
    },
  };
}

/** `file:line:column` of a position, or the file alone. */
export const shownAt = (p: Position | undefined, file: string): string => (p ? `${p.file}:${p.line}:${p.column}` : file);
