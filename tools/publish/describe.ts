/**
 * A container in its own terms, as plain JSON: what `offtag publish` records with each version so
 * that `offtag diff` compares two versions without building or loading TypeScript. Data elements
 * by name, rules in order with their events, conditions and actions, settings; code (a custom data
 * element's function, a condition's or action's `fn`) as its source text. What a kit helper was
 * made from (`k.pageView(map)`, `k.valueIs(name, value)`…) is its `def` (src/container/define.ts),
 * so a changed variable shows as that variable, not as the same closure.
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

/** A kit helper's `uses` is derived from its `def`: left out, so a changed map is one line, not two. */
function withoutDerived(rule: Record<string, unknown>): Record<string, unknown> {
  const strip = (items: unknown) =>
    Array.isArray(items) ? items.map((x) => (x && typeof x === 'object' && 'def' in x ? { ...x, uses: undefined } : x)) : items;
  return { ...rule, conditions: strip(rule.conditions), actions: strip(rule.actions) };
}

export function describeContainer(c: ContainerLike): ContainerDescription {
  const d: ContainerDescription = {
    name: c.name,
    version: c.version ?? '',
    sessionKeys: describeValue(c.sessionKeys ?? []),
    settings: describeValue(c.settings ?? {}),
    dataElements: Object.fromEntries(Object.entries(c.dataElements).map(([k, v]) => [k, describeValue(v)])),
    rules: c.rules.map((r) => describeValue(withoutDerived(r)) as { [k: string]: Described }),
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
