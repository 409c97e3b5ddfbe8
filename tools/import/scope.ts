/**
 * A custom code block's free names, found by parsing it (acorn) and resolving every identifier
 * against the scopes the block itself declares (functions, `var` hoisting, `let`/`const`/`class`
 * in blocks, parameters, `catch`). What is left are the names the block takes from its
 * surroundings: the page's globals under turbine. Each use records how it is used (read, written,
 * called, the member path after it), so the import can tell whether the worker can serve it.
 */
import * as acorn from 'acorn';

type Node = acorn.Node & Record<string, any>;

export interface FreeUse {
  name: string;
  /** `a.b.c` member names after the identifier (non-computed only; a computed member ends the path with `[]`). */
  path: string[];
  /** It is assigned (`x = …`, `x.y = …`, `x++`, `delete x.y`, `for (x in …)`). */
  write: boolean;
  /** It, or its member at the end of `path`, is called. */
  call: boolean;
  /** `typeof x`: reading it never throws. */
  typeofOnly: boolean;
  /**
   * Only whether the end of `path` is there is used: a condition's test, `!x`, the left of `&&`,
   * `x == null` and the like, `typeof x.y` — never the value itself (not `x || {}`, which is an alias).
   */
  tested?: boolean;
  /** Where the identifier is in the block's source, and whether it is a shorthand property (`{x}`). */
  at?: { start: number; end: number; shorthand: boolean };
}

export interface CodeTextFunction {
  /** The `new Function(…)`/`Function(…)` expression's range in the source, and its parameters and body. */
  start: number;
  end: number;
  params: string[];
  body: string;
}

export interface Analysis {
  /** Every use of a name the block does not declare, in source order. */
  free: FreeUse[];
  /** `this` outside any function of its own (the block's own `this`): its member paths. */
  thisUses: Array<{ path: string[]; write: boolean; call: boolean }>;
  /** `new Function("a", "body")` with literal texts: the import writes them as functions. */
  functionTexts: CodeTextFunction[];
  /** Every name the block declares somewhere (any scope). */
  declared: Set<string>;
  /** Why the block cannot be analysed (a syntax error, `eval`, `Function` with computed text), if so. */
  problem?: string;
}

interface Scope {
  names: Set<string>;
  fn: boolean;
  parent?: Scope;
}

const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

function patternNames(p: Node | null | undefined, out: string[] = []): string[] {
  if (!p) return out;
  switch (p.type) {
    case 'Identifier':
      out.push(p.name);
      break;
    case 'ObjectPattern':
      for (const prop of p.properties) patternNames(prop.type === 'RestElement' ? prop.argument : prop.value, out);
      break;
    case 'ArrayPattern':
      for (const el of p.elements) patternNames(el, out);
      break;
    case 'RestElement':
      patternNames(p.argument, out);
      break;
    case 'AssignmentPattern':
      patternNames(p.left, out);
      break;
  }
  return out;
}

const children = (n: Node): Array<[string, Node]> => {
  const out: Array<[string, Node]> = [];
  for (const key of Object.keys(n)) {
    if (key === 'type' || key === 'start' || key === 'end' || key === 'loc' || key === 'range') continue;
    const v = n[key];
    if (Array.isArray(v)) for (const c of v) c && typeof c.type === 'string' && out.push([key, c]);
    else if (v && typeof v.type === 'string') out.push([key, v]);
  }
  return out;
};

/** Declares, in each scope, what it declares (hoisted `var` and functions to their function scope). */
function declare(node: Node, scope: Scope, scopes: Map<Node, Scope>): void {
  const fnScope = (s: Scope) => {
    let x = s;
    while (!x.fn && x.parent) x = x.parent;
    return x;
  };
  const visit = (n: Node, s: Scope) => {
    if (FUNCTION_TYPES.has(n.type)) {
      if (n.type === 'FunctionDeclaration' && n.id) fnScope(s).names.add(n.id.name);
      const inner: Scope = { names: new Set(['arguments']), fn: true, parent: s };
      if (n.type === 'FunctionExpression' && n.id) inner.names.add(n.id.name);
      if (n.type === 'ArrowFunctionExpression') inner.names.delete('arguments');
      for (const p of n.params) patternNames(p).forEach((x) => inner.names.add(x));
      scopes.set(n, inner);
      for (const p of n.params) visit(p, inner);
      // The body block shares the function's scope.
      if (n.body.type === 'BlockStatement') {
        scopes.set(n.body, inner);
        for (const st of n.body.body) visit(st, inner);
      } else visit(n.body, inner);
      return;
    }
    let s2 = s;
    if (n.type === 'BlockStatement' || n.type === 'ForStatement' || n.type === 'ForInStatement' || n.type === 'ForOfStatement' || n.type === 'SwitchStatement' || n.type === 'StaticBlock') {
      if (!scopes.has(n)) {
        s2 = { names: new Set(), fn: false, parent: s };
        scopes.set(n, s2);
      } else s2 = scopes.get(n)!;
    }
    if (n.type === 'CatchClause') {
      s2 = { names: new Set(patternNames(n.param)), fn: false, parent: s };
      scopes.set(n, s2);
    }
    if (n.type === 'VariableDeclaration') {
      const target = n.kind === 'var' ? fnScope(s2) : s2;
      for (const d of n.declarations) patternNames(d.id).forEach((x) => target.names.add(x));
    }
    if (n.type === 'ClassDeclaration' && n.id) s2.names.add(n.id.name);
    if (n.type === 'ClassExpression' && n.id) {
      s2 = { names: new Set([n.id.name]), fn: false, parent: s };
      scopes.set(n, s2);
    }
    for (const [, c] of children(n)) visit(c, s2);
  };
  visit(node, scope);
}

const resolves = (s: Scope | undefined, name: string): boolean => {
  for (let x = s; x; x = x.parent) if (x.names.has(name)) return true;
  return false;
};

/** Analyses a block given as a function expression's source (`function (event, s) {…}`). */
export function analyse(fnSource: string): Analysis {
  let ast: Node;
  try {
    ast = acorn.parse(`(${fnSource}\n)`, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true }) as Node;
  } catch (e) {
    return { free: [], thisUses: [], functionTexts: [], declared: new Set(), problem: `it does not parse (${(e as Error).message})` };
  }
  const root: Scope = { names: new Set(), fn: true };
  const scopes = new Map<Node, Scope>();
  declare(ast, root, scopes);
  const declared = new Set<string>();
  for (const sc of scopes.values()) sc.names.forEach((n) => declared.add(n));
  root.names.forEach((n) => declared.add(n));
  const out: Analysis = { free: [], thisUses: [], functionTexts: [], declared };
  // The block function itself: its `this` is the block's.
  const blockFn = (ast.body[0] as Node)?.expression as Node | undefined;

  /** The member path above an identifier or `this`, and how the end of it is used. */
  function usage(stack: Node[], i: number): { path: string[]; write: boolean; call: boolean; typeofOnly: boolean; tested: boolean } {
    const path: string[] = [];
    let cur = stack[i]!;
    let j = i - 1;
    while (j >= 0) {
      const p = stack[j]!;
      if (p.type === 'MemberExpression' && p.object === cur) {
        if (p.computed) {
          path.push(p.property.type === 'Literal' ? String(p.property.value) : '[]');
        } else path.push(p.property.name);
        cur = p;
        j--;
        if (path[path.length - 1] === '[]') break;
        continue;
      }
      if (p.type === 'ChainExpression') {
        cur = p;
        j--;
        continue;
      }
      break;
    }
    const parent = stack[j];
    const write =
      (parent?.type === 'AssignmentExpression' && parent.left === cur) ||
      parent?.type === 'UpdateExpression' ||
      (parent?.type === 'UnaryExpression' && parent.operator === 'delete') ||
      ((parent?.type === 'ForInStatement' || parent?.type === 'ForOfStatement') && parent.left === cur) ||
      // A destructuring target.
      (parent?.type === 'ArrayPattern' || parent?.type === 'RestElement' || (parent?.type === 'Property' && stack[j - 1]?.type === 'ObjectPattern') || parent?.type === 'AssignmentPattern' && parent.left === cur);
    const call = (parent?.type === 'CallExpression' || parent?.type === 'NewExpression') && parent.callee === cur;
    const typeofOnly = parent?.type === 'UnaryExpression' && parent.operator === 'typeof' && path.length === 0;
    const nullish = (n: Node) => (n.type === 'Literal' && n.value === null) || (n.type === 'Identifier' && n.name === 'undefined') || (n.type === 'UnaryExpression' && n.operator === 'void');
    // The right of `&&` is the value of the whole: a test when the whole is one.
    const testAt = (c: Node, k: number): boolean => {
      const p = stack[k];
      if (!p) return false;
      if (p.type === 'LogicalExpression' && p.operator === '&&') return p.left === c || testAt(p, k - 1);
      return (
        (p.type === 'UnaryExpression' && (p.operator === '!' || p.operator === 'typeof')) ||
        (p.type === 'BinaryExpression' && ['==', '!=', '===', '!=='].includes(p.operator) && nullish(p.left === c ? p.right : p.left)) ||
        (['IfStatement', 'WhileStatement', 'DoWhileStatement', 'ForStatement', 'ConditionalExpression'].includes(p.type) && p.test === c)
      );
    };
    const tested = testAt(cur, j);
    return { path, write, call, typeofOnly, tested };
  }

  const stack: Node[] = [];
  function walk(n: Node, s: Scope, fnDepth: number): void {
    const own = scopes.get(n);
    const scope = own ?? s;
    stack.push(n);
    const parent = stack[stack.length - 2];
    const key = parent ? Object.keys(parent).find((k) => parent[k] === n || (Array.isArray(parent[k]) && parent[k].includes(n))) : undefined;
    if (n.type === 'Identifier') {
      const skip =
        (parent?.type === 'MemberExpression' && key === 'property' && !parent.computed) ||
        ((parent?.type === 'Property' || parent?.type === 'PropertyDefinition' || parent?.type === 'MethodDefinition') && key === 'key' && !parent.computed && !(parent.shorthand && parent.value === n)) ||
        parent?.type === 'LabeledStatement' ||
        parent?.type === 'BreakStatement' ||
        parent?.type === 'ContinueStatement' ||
        parent?.type === 'MetaProperty' ||
        (FUNCTION_TYPES.has(parent?.type) && key === 'id') ||
        ((parent?.type === 'ClassDeclaration' || parent?.type === 'ClassExpression') && key === 'id');
      if (!skip && !resolves(scope, n.name)) {
        const u = usage(stack, stack.length - 1);
        // The source is parsed inside `(…)`: one character before the block's own.
        out.free.push({ name: n.name, ...u, at: { start: n.start - 1, end: n.end - 1, shorthand: parent?.type === 'Property' && parent.shorthand === true } });
        if ((n.name === 'eval' || n.name === 'Function') && u.path.length === 0 && u.call) {
          const callNode = stack[stack.length - 2]!;
          const args = callNode.arguments as Node[];
          if (n.name === 'eval' || !args.every((a) => a.type === 'Literal' && typeof a.value === 'string')) out.problem ??= `it builds code from text at run time (${n.name})`;
          else {
            const texts = args.map((a) => String(a.value));
            out.functionTexts.push({ start: callNode.start - 1, end: callNode.end - 1, params: texts.slice(0, -1).flatMap((p) => p.split(',').map((x) => x.trim()).filter(Boolean)), body: texts[texts.length - 1] ?? '' });
          }
        }
      }
    } else if (n.type === 'ThisExpression' && fnDepth <= 1) {
      const u = usage(stack, stack.length - 1);
      out.thisUses.push({ path: u.path, write: u.write, call: u.call });
    }
    const depth = FUNCTION_TYPES.has(n.type) && n.type !== 'ArrowFunctionExpression' ? fnDepth + 1 : fnDepth;
    for (const [k, c] of children(n)) {
      // A shorthand property's key and value are one name: walk it once, as the value.
      if (n.type === 'Property' && n.shorthand && k === 'key') continue;
      walk(c, scope, depth);
    }
    stack.pop();
  }
  walk(ast, root, blockFn && FUNCTION_TYPES.has(blockFn.type) ? 0 : 1);
  return out;
}

/** A function text's own analysis (its free names are the page's globals, never the block's). */
export function analyseFunctionText(f: CodeTextFunction): Analysis {
  return analyse(`function anonymous(${f.params.join(',')}\n) {\n${f.body}\n}`);
}

/**
 * The block with each free use of `name` replaced by `by` (a shorthand property `{name}` becomes
 * `{name: by}`); the block unchanged when it does not parse. A library a site's bundle carries
 * inside a function (`function install(e) { e._satellite.container = … }`) has blocks that name
 * the window by that function's parameter: they read as the page's globals once it is `window`.
 */
export function renameFree(fnSource: string, name: string, by: string): string {
  if (!new RegExp(`(^|[^\\w$])${name.replace(/[$]/g, '\\$')}($|[^\\w$])`).test(fnSource)) return fnSource;
  const a = analyse(fnSource);
  if (a.problem?.startsWith('it does not parse')) return fnSource;
  let out = fnSource;
  const sites = a.free.flatMap((f) => (f.name === name && f.at ? [f.at] : [])).sort((x, y) => y.start - x.start);
  for (const at of sites) out = out.slice(0, at.start) + (at.shorthand ? `${name}: ${by}` : by) + out.slice(at.end);
  return out;
}
