/**
 * `offtag diff`: what changed between two versions, in the container's terms: its settings, data
 * elements (by name) and rules (by name; their events, conditions and actions by name), each
 * added, removed or changed, with the fields that changed. Compares the descriptions recorded at
 * publish (describe.ts): no build, no TypeScript.
 */
import type { ContainerDescription, Described } from './describe.ts';

export interface Change {
  /** `setting`, `data element`, `rule`, or `container` (its name, version, session keys, services). */
  kind: 'container' | 'setting' | 'data element' | 'rule';
  name: string;
  change: 'added' | 'removed' | 'changed';
  /** For a change: one line per field, `path: before → after` (code as "code changed"). */
  fields?: string[];
}

const isObject = (v: Described | undefined): v is { [k: string]: Described } => !!v && typeof v === 'object' && !Array.isArray(v);
const isCode = (v: Described | undefined): v is { code: string } => isObject(v) && typeof v.code === 'string' && Object.keys(v).length === 1;
const equal = (a: Described | undefined, b: Described | undefined) => JSON.stringify(a) === JSON.stringify(b);

/** A value in one short line. */
export function show(v: Described | undefined): string {
  if (v === undefined) return '(none)';
  if (isCode(v)) return 'code';
  const text = JSON.stringify(v);
  return text.length > 100 ? text.slice(0, 97) + '…' : text;
}

/** Arrays whose items are objects with distinct names (conditions, actions) are compared by name. */
function byName(v: Described | undefined): Map<string, Described> | undefined {
  if (!Array.isArray(v) || !v.length) return undefined;
  const m = new Map<string, Described>();
  for (const x of v) {
    if (!isObject(x) || typeof x.name !== 'string' || m.has(x.name)) return undefined;
    m.set(x.name, x);
  }
  return m;
}

const ITEM: Record<string, string> = { conditions: 'condition', actions: 'action' };

/** The fields that differ between `a` and `b`, one line each. */
export function fieldChanges(a: Described | undefined, b: Described | undefined, path = ''): string[] {
  if (equal(a, b)) return [];
  const at = path ? `${path}: ` : '';
  if (isCode(a) && isCode(b)) return [`${at}code changed`];
  const key = path.split('.').pop() ?? '';
  const [na, nb] = [byName(a), byName(b)];
  if ((na || nb) && Array.isArray(a ?? []) && Array.isArray(b ?? []) && ITEM[key]) {
    const ma = na ?? new Map<string, Described>();
    const mb = nb ?? new Map<string, Described>();
    const out: string[] = [];
    const item = ITEM[key];
    for (const n of mb.keys()) if (!ma.has(n)) out.push(`${item} ${JSON.stringify(n)} added`);
    for (const n of ma.keys()) if (!mb.has(n)) out.push(`${item} ${JSON.stringify(n)} removed`);
    for (const [n, x] of mb) if (ma.has(n)) out.push(...fieldChanges(ma.get(n), x).map((l) => `${item} ${JSON.stringify(n)}: ${l}`));
    const order = (m: Map<string, Described>) => [...m.keys()].filter((n) => ma.has(n) && mb.has(n)).join('\0');
    if (!out.length && order(ma) !== order(mb)) out.push(`${key} reordered: ${[...mb.keys()].map((n) => JSON.stringify(n)).join(', ')}`);
    return out;
  }
  if (isObject(a) && isObject(b) && !isCode(a) && !isCode(b)) {
    const out: string[] = [];
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) out.push(...fieldChanges(a[k], b[k], path ? `${path}.${k}` : k));
    return out;
  }
  if (a === undefined) return [`${at}added (${show(b)})`];
  if (b === undefined) return [`${at}removed (was ${show(a)})`];
  return [`${at}${show(a)} → ${show(b)}`];
}

/** Where two texts differ, with a little of what surrounds it: `…Info.pageType" → …Info.pageName"`. */
export function textChange(a: string, b: string, context = 24): string {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const from = Math.max(0, start - context);
  const cut = (t: string) => {
    const to = Math.min(t.length, t.length - end + context);
    let mid = t.slice(from, to).replace(/\s+/g, ' ');
    if (mid.length > 160) mid = mid.slice(0, 157) + '…';
    return `${from > 0 ? '…' : ''}${mid}${to < t.length ? '…' : ''}`;
  };
  return `${cut(a)} → ${cut(b)}`;
}

/**
 * An item's changed fields. Its `source` (its text in the container file) shows only when nothing
 * else says what changed (a closure's arguments, imported custom code): then as the part that differs.
 */
function itemChanges(a: Described | undefined, b: Described | undefined): string[] {
  const strip = (d: Described | undefined) => (isObject(d) ? { ...d, source: null } : d);
  const fields = fieldChanges(strip(a), strip(b));
  if (fields.some((l) => !l.endsWith('code changed'))) return fields;
  const [sa, sb] = [isObject(a) ? a.source : undefined, isObject(b) ? b.source : undefined];
  if (typeof sa === 'string' && typeof sb === 'string' && sa !== sb) return [`source: ${textChange(sa, sb)}`];
  return fields;
}

function named(kind: Change['kind'], a: Map<string, Described>, b: Map<string, Described>): Change[] {
  const out: Change[] = [];
  for (const [n, x] of a) {
    if (!b.has(n)) out.push({ kind, name: n, change: 'removed' });
    else {
      const fields = itemChanges(x, b.get(n));
      if (fields.length) out.push({ kind, name: n, change: 'changed', fields });
    }
  }
  for (const n of b.keys()) if (!a.has(n)) out.push({ kind, name: n, change: 'added' });
  return out;
}

const rulesByName = (rules: ContainerDescription['rules']) => new Map(rules.map((r, i) => [typeof r.name === 'string' ? r.name : `#${i + 1}`, r as Described]));

export function diffDescriptions(a: ContainerDescription, b: ContainerDescription): Change[] {
  const out: Change[] = [];
  const container = [
    ...fieldChanges(a.name, b.name, 'name'),
    ...fieldChanges(a.version, b.version, 'version'),
    ...fieldChanges(a.buildDate, b.buildDate, 'buildDate'),
    ...fieldChanges(a.sessionKeys, b.sessionKeys, 'sessionKeys'),
    ...fieldChanges(a.settingChecks, b.settingChecks, 'settingChecks'),
    ...fieldChanges(a.services, b.services, 'services'),
    ...fieldChanges(a.hooks, b.hooks, 'hooks'),
  ];
  if (container.length) out.push({ kind: 'container', name: b.name, change: 'changed', fields: container });
  const settings = (d: ContainerDescription) => new Map(Object.entries(isObject(d.settings) ? d.settings : {}));
  out.push(...named('setting', settings(a), settings(b)));
  out.push(...named('data element', new Map(Object.entries(a.dataElements)), new Map(Object.entries(b.dataElements))));
  const [ra, rb] = [rulesByName(a.rules), rulesByName(b.rules)];
  out.push(...named('rule', ra, rb));
  const kept = (m: Map<string, Described>, other: Map<string, Described>) => [...m.keys()].filter((n) => other.has(n));
  if (kept(ra, rb).join('\0') !== kept(rb, ra).join('\0'))
    out.push({ kind: 'rule', name: '(order)', change: 'changed', fields: [`rules reordered: ${kept(rb, ra).map((n) => JSON.stringify(n)).join(', ')}`] });
  return out;
}

/** The changes as lines: `rule "Page View" changed: action "Send page view beacon": def.pageView.eVar4: "%edition%" → "%section%"`. */
export function diffLines(changes: Change[]): string[] {
  const lines: string[] = [];
  for (const c of changes) {
    const head = c.kind === 'container' ? 'container' : `${c.kind} ${JSON.stringify(c.name)}`;
    if (c.change !== 'changed') lines.push(`${head}: ${c.change}`);
    else for (const f of c.fields ?? []) lines.push(`${head}: ${f}`);
  }
  return lines;
}
