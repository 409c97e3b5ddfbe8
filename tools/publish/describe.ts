/**
 * A container in its own terms, as plain JSON: what `offtag publish` records with each version so
 * that `offtag diff` compares two versions without building or loading TypeScript. Data elements
 * by name, rules in order with their events, conditions and actions, settings; code (a custom data
 * element's function, a condition's or action's `fn`) as its source text. What a kit helper was
 * made from (`k.pageView(map)`, `k.valueIs(name, value)`…) is its `def` (src/container/define.ts),
 * so a changed variable shows as that variable, not as the same closure. Helpers that keep their
 * arguments only in a closure (an imported container's `launch.javascriptVariable(path)`, its
 * custom code) are told apart by their `source`: each data element's and rule's text in the
 * container file, where the file spells them out (`sourceOfItems`).
 */
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';

/** JSON: functions become `{ code }`. */
export type Described = null | boolean | number | string | Described[] | { [k: string]: Described };

export interface ContainerDescription {
  name: string;
  version: string;
  buildDate?: string;
  sessionKeys: Described;
  settings: Described;
  settingChecks?: Described;
  dataElements: Record<string, Described>;
  rules: Array<{ [k: string]: Described }>;
  services?: Described;
  hooks?: Described;
}

/** A value as JSON: functions as their source, `undefined` left out, a cycle or an exotic value named. */
export function describeValue(v: unknown, seen = new Set<unknown>()): Described {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v === 'function') return { code: Function.prototype.toString.call(v) };
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v !== 'object') return String(v);
  if (seen.has(v)) return '[circular]';
  if (v instanceof RegExp) return { regexp: String(v) };
  if (v instanceof Date) return v.toISOString();
  seen.add(v);
  try {
    if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : describeValue(x, seen)));
    const out: { [k: string]: Described } = {};
    for (const k of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) out[k] = describeValue(x, seen);
    }
    return out;
  } finally {
    seen.delete(v);
  }
}

interface ContainerLike {
  name: string;
  version?: string;
  buildDate?: string;
  sessionKeys?: unknown;
  settings?: unknown;
  settingChecks?: unknown;
  dataElements: Record<string, unknown>;
  rules: Array<Record<string, unknown>>;
  services?: unknown;
  hooks?: unknown;
}

const withSource = (d: Described, text: string | undefined): Described =>
  text !== undefined && d && typeof d === 'object' && !Array.isArray(d) ? { ...d, source: text } : d;

/** A kit helper's `uses` is derived from its `def`: left out, so a changed map is one line, not two. */
function withoutDerived(rule: Record<string, unknown>): Record<string, unknown> {
  const strip = (items: unknown) =>
    Array.isArray(items) ? items.map((x) => (x && typeof x === 'object' && 'def' in x ? { ...x, uses: undefined } : x)) : items;
  return { ...rule, conditions: strip(rule.conditions), actions: strip(rule.actions) };
}

export function describeContainer(c: ContainerLike, source: ItemSources = {}): ContainerDescription {
  const d: ContainerDescription = {
    name: c.name,
    version: c.version ?? '',
    sessionKeys: describeValue(c.sessionKeys ?? []),
    settings: describeValue(c.settings ?? {}),
    dataElements: Object.fromEntries(Object.entries(c.dataElements).map(([k, v]) => [k, withSource(describeValue(v), source.dataElements?.[k])])),
    rules: c.rules.map((r) => withSource(describeValue(withoutDerived(r)), typeof r.name === 'string' ? source.rules?.[r.name] : undefined) as { [k: string]: Described }),
  };
  if (c.buildDate !== undefined) d.buildDate = c.buildDate;
  if (c.settingChecks) d.settingChecks = describeValue(c.settingChecks);
  if (c.services) d.services = describeValue(c.services);
  if (c.hooks) d.hooks = describeValue(c.hooks);
  return d;
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\1/g;

/** The file a relative import names: as written, or with the extensions TypeScript lets it leave out. */
function resolveImport(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  const candidates = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base}.tsx`, `${base}.js`, `${base}.mjs`, `${base}/index.ts`, `${base}/index.js`];
  return candidates.find((f) => existsSync(f) && statSync(f).isFile());
}

/**
 * The container's source: its file and every file it reaches by relative imports, except the
 * Offtag sources it is written with (`src/`: those are Offtag's version, not the container's).
 */
export async function sourceFiles(file: string, offtagSrc: string): Promise<string[]> {
  const found = new Set<string>();
  const visit = async (f: string) => {
    if (found.has(f)) return;
    found.add(f);
    const text = await readFile(f, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const next = resolveImport(f, m[2]);
      if (next && !next.startsWith(offtagSrc)) await visit(next);
    }
  };
  await visit(resolve(file));
  return [...found].sort();
}

/** SHA-256 over the container's source files (paths relative to the container's folder, and contents). */
export async function sourceHash(file: string, offtagSrc: string): Promise<string> {
  const h = createHash('sha256');
  const root = dirname(resolve(file));
  for (const f of await sourceFiles(file, offtagSrc)) h.update(`${relative(root, f)}\0`).update(await readFile(f)).update('\0');
  return h.digest('hex');
}

/** Each data element's and rule's source text in the container file, by name (`{}` for what the file does not spell out). */
export interface ItemSources {
  dataElements?: Record<string, string>;
  rules?: Record<string, string>;
}

type AstNode = { type: string; start: number; end: number; [k: string]: unknown };

const keyName = (p: AstNode): string | undefined => {
  const k = p.key as AstNode & { name?: string; value?: unknown };
  if (p.computed) return undefined;
  return k.type === 'Identifier' ? k.name : typeof k.value === 'string' ? k.value : undefined;
};

/** The object literal a property's value is, or passes first to a call (`launch.dataElements({...})`). */
function objectOf(v: AstNode | undefined): AstNode | undefined {
  if (v?.type === 'ObjectExpression') return v;
  if (v?.type === 'CallExpression') return objectOf((v.arguments as AstNode[])[0]);
  return undefined;
}

/** The array literal of rules: the value itself, or what an arrow function (`(k) => [...]`) returns. */
function arrayOf(v: AstNode | undefined): AstNode | undefined {
  if (v?.type === 'ArrayExpression') return v;
  if (v?.type === 'ArrowFunctionExpression' || v?.type === 'FunctionExpression') {
    const body = v.body as AstNode;
    if (body.type !== 'BlockStatement') return arrayOf(body);
    const ret = (body.body as AstNode[]).find((st) => st.type === 'ReturnStatement');
    return arrayOf(ret?.argument as AstNode | undefined);
  }
  return undefined;
}

/**
 * The container file's data elements and rules as written: its TypeScript stripped (Vite's
 * transform, so the same formatting for every version), the `defineContainer({...})` call found,
 * and the text of each entry of its `dataElements` object and of each rule object of its `rules`
 * array (by its `name`). What the file does not spell out there (a table imported from another
 * file, a rule built by a function) has no source: its description is what it is at run time.
 */
export async function sourceOfItems(file: string): Promise<ItemSources> {
  const [{ transformWithOxc }, acorn, walk] = await Promise.all([import('vite'), import('acorn'), import('acorn-walk')]);
  const js = (await transformWithOxc(await readFile(file, 'utf8'), file, { lang: file.endsWith('x') ? 'tsx' : 'ts' })).code;
  const ast = acorn.parse(js, { ecmaVersion: 'latest', sourceType: 'module' }) as unknown as AstNode;
  let def: AstNode | undefined;
  walk.simple(ast as never, {
    CallExpression(n: unknown) {
      const call = n as AstNode;
      const callee = call.callee as AstNode & { name?: string; property?: { name?: string } };
      const name = callee.type === 'Identifier' ? callee.name : callee.type === 'MemberExpression' ? callee.property?.name : undefined;
      if (name === 'defineContainer' && !def) def = objectOf((call.arguments as AstNode[])[0]);
    },
  });
  if (!def) return {};
  const prop = (name: string) => (def!.properties as AstNode[]).find((p) => p.type === 'Property' && keyName(p) === name)?.value as AstNode | undefined;
  const text = (n: AstNode) => js.slice(n.start, n.end);
  const out: ItemSources = {};
  const elements = objectOf(prop('dataElements'));
  if (elements)
    out.dataElements = Object.fromEntries(
      (elements.properties as AstNode[]).flatMap((p) => (p.type === 'Property' && keyName(p) !== undefined ? [[keyName(p)!, text(p.value as AstNode)]] : [])),
    );
  const rules = arrayOf(prop('rules'));
  if (rules)
    out.rules = Object.fromEntries(
      (rules.elements as Array<AstNode | null>).flatMap((r) => {
        // A rule object, or a helper's call on one (an imported container's `launch.rule({...})`).
        const o = objectOf(r ?? undefined);
        const name = o ? (o.properties as AstNode[]).find((p) => p.type === 'Property' && keyName(p) === 'name') : undefined;
        const value = name?.value as (AstNode & { value?: unknown }) | undefined;
        return r && typeof value?.value === 'string' ? [[value.value, text(r)]] : [];
      }),
    );
  return out;
}
