/**
 * The container's page code, as `offtag build` writes it into offtag.js (docs/containers.md,
 * "Page reads"; docs/import.md): page reads, the page steps of imported Launch rules, and an
 * imported library's other extensions. For a container with none, nothing: the bridge's page side
 * (src/page-side) is left out and offtag.js does not grow. Otherwise the build bundles the page
 * side into offtag.js and writes the container's own code beside it as plain script text — never
 * through the bundler or a TypeScript transform: a data literal at the top level of offtag.js,
 * outside the bridge's code, whose functions (page code, custom code blocks, module scripts) are
 * their source text as the container holds it. Each is compiled in its own scope, sloppy mode,
 * with the page's globals only: `a = …` in a site's custom code assigns the page's `a`, as under
 * turbine, and nothing of offtag.js is visible to it. No Node import: the browser tests evaluate
 * the generated text.
 */
import * as acorn from 'acorn';
import type { PageRead, PageSide } from '../../src/worker-engine/core/page-reads.ts';
import { conditionKey } from '../../src/worker-engine/core/page-reads.ts';
import type { Container, RuleEventSpec } from '../../src/worker-engine/core/types.ts';
import { launchFacts } from './launch.ts';

const q = (v: unknown) => JSON.stringify(v);

/** A marker an imported library's settings hold for a function (tools/import/translate.ts): written as the function itself. */
export const FUNCTION_MARK = 'offtag:function';

/** A settings value as JavaScript text: JSON, with each marked function written as its source. */
function literal(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(literal).join(',')}]`;
  if (v && typeof v === 'object') {
    const keys = Object.keys(v);
    const mark = (v as Record<string, unknown>)[FUNCTION_MARK];
    if (keys.length === 1 && typeof mark === 'string') return `(${mark}\n)`;
    return `{${keys.map((k) => `${q(k)}:${literal((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return v === undefined ? 'undefined' : q(v);
}

/** The global offtag.js's wrapper hands the bridge: the page data (the `__OFFTAG_PAGE__` define names it). */
export const PAGE_PARAMETER = '__offtagPage';

/** The page reads of a container, by group and key, as `pageValue` looks them up. */
export interface PageReadList {
  elements: Array<{ key: string; read: PageRead }>;
  conditions: Array<{ key: string; read: PageRead; events: RuleEventSpec[]; rule: string }>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any container, whatever its names, services and settings
export function pageReadsIn(container: Container<any, any, any>): PageReadList {
  const elements = Object.entries(container.dataElements as Record<string, { page?: PageRead }>)
    .filter(([, de]) => de.page)
    .map(([key, de]) => ({ key, read: de.page! }));
  const conditions: PageReadList['conditions'] = [];
  for (const rule of container.rules as Array<{ name: string; events: RuleEventSpec[]; conditions?: Array<{ page?: PageRead }> }>)
    (rule.conditions ?? []).forEach((c, i) => {
      if (c.page) conditions.push({ key: conditionKey(rule.name, i), read: c.page, events: rule.events, rule: rule.name });
    });
  return { elements, conditions };
}

/**
 * `source` without the `__name(fn, "name")` calls esbuild's keepNames adds (the TypeScript loader
 * the build loads a container with adds them to functions it names): the helper is not defined
 * on the page, and a function written into offtag.js must not need it.
 */
export function withoutNameHelper(source: string): string {
  for (;;) {
    let ast: acorn.Node;
    try {
      ast = acorn.parse(`(${source}\n)`, { ecmaVersion: 'latest', sourceType: 'script' });
    } catch {
      return source;
    }
    // The last helper call in the text: replaced alone, then the text is read again.
    let edit: { start: number; end: number; text: string } | undefined;
    const visit = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) return node.forEach(visit);
      const n = node as acorn.Node & Record<string, unknown>;
      if (typeof n.type !== 'string') return;
      const isHelper = (x: unknown) => {
        const c = x as acorn.CallExpression;
        return c?.type === 'CallExpression' && c.callee.type === 'Identifier' && c.callee.name === '__name' && c.arguments.length === 2 && c.arguments[1]!.type === 'Literal';
      };
      const at = (start: number, end: number, text: string) => {
        if (!edit || start > edit.start) edit = { start: start - 1, end: end - 1, text };
      };
      if (n.type === 'ExpressionStatement' && isHelper(n.expression)) at(n.start, n.end, '');
      else if (n.type === 'StaticBlock' && (n.body as acorn.Node[]).length === 1 && n.body && isHelper(((n.body as acorn.Node[])[0] as acorn.ExpressionStatement).expression)) at(n.start, n.end, '');
      else if (isHelper(n)) {
        const fn = (n as unknown as acorn.CallExpression).arguments[0]!;
        // In parentheses: the helper's call was one expression, whatever stands around it.
        at(n.start, n.end, `(${source.slice(fn.start - 1, fn.end - 1)})`);
      }
      for (const k of Object.keys(n)) if (k !== 'type') visit(n[k]);
    };
    visit(ast);
    if (!edit) return source;
    source = source.slice(0, edit.start) + edit.text + source.slice(edit.end);
  }
}

/** A function's source as an expression offtag.js can hold, or why it cannot be written. */
export function codeSource(code: unknown): { source: string } | { problem: string } {
  if (typeof code !== 'function') return { problem: 'is not a function' };
  const source = withoutNameHelper(Function.prototype.toString.call(code));
  if (/\{\s*\[native code\]\s*\}\s*$/.test(source)) return { problem: 'is a built-in or bound function, whose source cannot be written into offtag.js' };
  try {
    // Compiled, not run: the function itself is only created.
    if (typeof new Function(`return (${source});`)() !== 'function') throw new Error();
  } catch {
    return { problem: 'cannot be written into offtag.js as source text (write it as an arrow function or a function expression, not a method)' };
  }
  return { source };
}

/** Why a function's source text does not compile as a function on its own, or undefined. */
function compileProblem(source: string): string | undefined {
  try {
    if (typeof new Function(`return (${source}\n);`)() !== 'function') return 'is not a function';
  } catch (err) {
    return `does not compile (${(err as Error).name}: ${(err as Error).message})`;
  }
  return undefined;
}

/** The read as the page side takes it (src/page-side/types.ts `Read`). */
function readText(read: PageRead): string {
  switch (read.from) {
    case 'local-storage':
      return `["l",${q(read.key)}]`;
    case 'title':
      return '["t"]';
    case 'global':
      return `["v",${q(read.path.replace(/\[(\d+)\]/g, '.$1').split('.'))}]`;
    case 'dom':
      return `["a",${q(read.selector)},${q(read.property)}]`;
    case 'code': {
      const c = codeSource(read.code);
      if ('problem' in c) throw new Error(c.problem);
      return `["f",(${c.source}\n)]`;
    }
    case 'launch-code':
      return `["b",(${read.source}\n)]`;
    case 'module':
      return `["m",${q(read.module)},${literal(read.settings ?? {})}]`;
  }
}

/** The events a page condition is read for: `1` for every event, else `[type, id]`s. */
function readOn(events: RuleEventSpec[]): string {
  const on = new Map<string, string>();
  for (const spec of events) {
    if (spec.type === 'data-element-change') return '1'; // the worker's own event, found on any event's snapshot
    if (spec.type === 'direct-call') on.set(q(['direct-call', spec.id]), '');
    else if (spec.type === 'click' && !('selector' in spec)) on.set(q(['click']), '');
    // Page Bottom runs on its own event, or on DOM Ready's (or Window Loaded's) when the page never called it (core/events.ts).
    else if (spec.type === 'page-bottom') ['page-bottom', 'dom-ready', 'window-loaded'].forEach((t) => on.set(q([t]), ''));
    else if (['library-loaded', 'dom-ready', 'window-loaded'].includes(spec.type)) on.set(q([spec.type]), '');
    else on.set(q(['trigger']), '');
  }
  return `[${[...on.keys()].join(',')}]`;
}

/** Problems of the container's page code (code that cannot be written into offtag.js, or does not compile), one line each. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any container
export function pageReadProblems(list: PageReadList, file: string, page?: PageSide, events: Array<{ rule: string; code: string }> = []): string[] {
  const out: string[] = [];
  const check = (read: PageRead, what: string) => {
    if (read.from === 'code') {
      const c = codeSource(read.code);
      if ('problem' in c) out.push(`${file}: ${what}: its page code ${c.problem}`);
    } else if (read.from === 'launch-code') {
      const p = compileProblem(read.source);
      if (p) out.push(`${file}: ${what}: its custom code ${p}`);
    }
  };
  for (const { key, read } of list.elements) check(read, `data element "${key}"`);
  for (const { key, read, rule } of list.conditions) check(read, `rule "${rule}", page condition ${Number(key.slice(key.lastIndexOf('#') + 1)) + 1}`);
  for (const { rule, code } of events) {
    const p = compileProblem(code);
    if (p) out.push(`${file}: rule "${rule}", its Custom Code event: its block ${p}`);
  }
  for (const [name, ext] of Object.entries(page?.extensions ?? {}))
    for (const [path, m] of Object.entries(ext.modules)) {
      const p = compileProblem(m.script);
      if (p) out.push(`${file}: extension "${name}", module ${path}: its script ${p}`);
    }
  return out;
}

/** Whether a rule of the container has a step that runs on the page (an imported Launch rule's page code). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any container
export const hasPageSteps = (container: Container<any, any, any>): boolean => (container.rules as Array<{ actions: Array<{ page?: boolean }> }>).some((r) => r.actions.some((a) => a.page));

export interface PageText {
  /** The data literal (src/page-side/types.ts `PageData`), or undefined for a container without page code. */
  data?: string;
  /** A module host is written (the container has other Launch extensions). */
  host: boolean;
  /** The container's rules have steps on the page. */
  steps?: boolean;
  /** The container was imported from a Launch library: its `_satellite` is turbine's (src/page-side/satellite.ts). */
  launch?: boolean;
}

/** Core's Custom Code events of an imported container (src/launch `customCodeEvent`): their direct call, rule and block, in rule order. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any container
export function codeEventsIn(container: Container<any, any, any>): Array<{ id: string; rule: string; code: string }> {
  const out: Array<{ id: string; rule: string; code: string }> = [];
  const rules = [...(container.rules as Array<{ name: string; order?: number; events: RuleEventSpec[] }>)].sort((a, b) => (a.order ?? 50) - (b.order ?? 50));
  for (const rule of rules) for (const e of rule.events) if (e.type === 'direct-call' && e.code !== undefined) out.push({ id: e.id, rule: rule.name, code: e.code });
  return out;
}

/** The page data literal of a container: its page reads, and its module host's extensions and events. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any container
export function pageText(container: Container<any, any, any>): PageText {
  const list = pageReadsIn(container);
  const page = container.page as PageSide | undefined;
  const host = !!page && (Object.keys(page.extensions).length > 0 || page.events.length > 0);
  const steps = hasPageSteps(container);
  const events = codeEventsIn(container);
  const launch = launchFacts(container);
  if (!list.elements.length && !list.conditions.length && !host && !steps && !events.length && !launch) return { host: false };
  const parts: string[] = [];
  if (list.elements.length) parts.push(`elements: {\n${list.elements.map(({ key, read }) => `${q(key)}: ${readText(read)}`).join(',\n')}\n}`);
  if (list.conditions.length) parts.push(`conditions: [\n${list.conditions.map(({ key, read, events }) => `[${q(key)}, ${readOn(events)}, ${readText(read)}]`).join(',\n')}\n]`);
  if (host) {
    const extensions = Object.entries(page.extensions).map(([name, ext]) => {
      const modules = Object.entries(ext.modules).map(([path, m]) => `${q(path)}: {script: (${m.script}\n)${m.name !== undefined ? `, name: ${q(m.name)}` : ''}${m.shared ? ', shared: true' : ''}}`);
      return `${q(name)}: {displayName: ${q(ext.displayName)}, settings: ${literal(ext.settings ?? {})}, hostedLibFilesBaseUrl: ${q(ext.hostedLibFilesBaseUrl ?? '')}, modules: {\n${modules.join(',\n')}\n}}`;
    });
    parts.push(`host: {\nextensions: {\n${extensions.join(',\n')}\n},\ninfo: ${q(page.info)},\nevents: ${literal(page.events)},\ndataElements: ${q(page.dataElements ?? [])}\n}`);
  }
  if (events.length) parts.push(`events: [\n${events.map(({ id, rule, code }) => `[${q(id)}, ${q(rule)}, (${code}\n)]`).join(',\n')}\n]`);
  if (launch) parts.push(`launch: ${q(launch)}`);
  return { data: `{\n${parts.join(',\n')}\n}`, host, steps, launch: !!launch };
}

/**
 * offtag.js for a container with page code: the bridge (built with the `__OFFTAG_PAGE__` define
 * naming the wrapper's parameter) inside a function of that parameter, called with the page data
 * literal. The literal is evaluated at the top level of the script, so its functions see the
 * page's globals and nothing else.
 */
export function wrapBridge(bridge: string, data: string): string {
  return `(function (${PAGE_PARAMETER}) {\n${bridge.trimEnd()}\n})(\n${PAGE_CODE_COMMENT}\n${data}\n);\n`;
}

/** The line of offtag.js above the container's page code (bench/corpus/attribute.ts finds the code by it). */
export const PAGE_CODE_COMMENT = "// The container's page code, written by offtag build as the container holds it: each function is compiled on its own, with the page's globals.";
