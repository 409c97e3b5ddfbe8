/**
 * What `offtag build` checks before it bundles a container: each problem is one line naming the
 * container file, the item and what is wrong (docs/containers.md, "Build"):
 * - a `%token%` of an action, or a data element a condition or a function element reads, that
 *   names no data element;
 * - a circular reference between data elements;
 * - a setting whose default has the wrong type for the engine's setting of that name, or fails
 *   the container's own check, or one the build owns (`environment`);
 * - two rules with one name;
 * - a rule event of no known type, with a field its type does not have, or a field of the wrong
 *   type or out of range (the engine's own trigger checks, core/triggers.ts), a CSS selector that
 *   does not parse, a data element change of no data element, a data layer push's global written
 *   with `window.`;
 * - a setting whose name is one letter or two from an engine setting's (a misspelling would
 *   otherwise become a setting of the container's own);
 * - an action that needs a service the container does not have (`k.link` without `adobeServices()`);
 * - a data element helper's own finding (`fromEvent` of a token that is no event token).
 * Each problem says where it is (`Where`): `offtag build` turns that into `file:line:column`.
 * Function elements are run once on an empty page to see what they read; one that throws there
 * is not a problem (it may need a real page), and what it did not read is not checked.
 */
import { emptySnapshot } from '../worker-engine/core/page-state.ts';
import { createResolver } from '../worker-engine/core/data-elements.ts';
import { DEFAULT_SETTINGS, defaultsFor, resolveSettings } from '../worker-engine/core/settings.ts';
import type { Container, CookieJar, DataElement } from '../worker-engine/core/types.ts';
import type { PageInfo } from '../protocol.ts';
import { isPageTrigger, listenerOf } from '../worker-engine/core/triggers.ts';
import type { RuleEventSpec } from '../worker-engine/core/types.ts';
import { selectorProblem } from './selectors.ts';
import { tokensIn } from './tokens.ts';

/** An item of a container, as a problem names it (`offtag build` finds where it is written). */
export type Where =
  | { kind: 'container' }
  | { kind: 'setting'; path: string }
  | { kind: 'element'; name: string }
  | { kind: 'rule'; rule: string; part?: 'events' | 'conditions' | 'actions' | 'exceptions'; index?: number; field?: string };

/** One problem: where, the item as the message names it, and what is wrong. */
export interface Problem {
  at: Where;
  item: string;
  what: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any container, whatever its services
type AnyContainer = Container<string, any, unknown>;

const EMPTY_PAGE: PageInfo = {
  userAgent: '',
  language: '',
  screen: { width: 0, height: 0, colorDepth: 0 },
  cookieDomain: '',
  origin: 'https://example.invalid',
  secure: true,
  cookiesEnabled: true,
};

const noCookies: CookieJar = { get: () => undefined, all: () => ({}), set: () => {}, remove: () => {} };

/** Every problem of `container`, one line each, prefixed with `file`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any container, whatever its names, services and settings
export function validateContainer(checked: Container<any, any, any>, file: string): string[] {
  return containerProblems(checked).map((p) => `${file}: ${p.item}: ${p.what}`);
}

/** Every problem of `container`, each with where it is. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any container, whatever its names, services and settings
export function containerProblems(checked: Container<any, any, any>): Problem[] {
  const container = checked as AnyContainer;
  const elements = container.dataElements as Record<string, DataElement<string, unknown>>;
  const known = (name: string) => Object.prototype.hasOwnProperty.call(elements, name);
  return [
    ...settingProblems(container),
    ...duplicateRules(container),
    ...eventProblems(container, known),
    ...ruleReferences(container, known),
    ...serviceProblems(container),
    ...elementReferences(container),
  ];
}

const setting = (path: string, what: string): Problem => ({ at: { kind: 'setting', path }, item: `setting "${path}"`, what });

function settingProblems(container: AnyContainer): Problem[] {
  const own = container.settings ?? {};
  const out: Problem[] = [];
  if ('environment' in own) out.push(setting('environment', 'is chosen by the build (--env), not the container'));
  // A key one or two letters from an engine setting's is a misspelling, not a setting of the container's own.
  for (const key of Object.keys(own)) {
    if (key in DEFAULT_SETTINGS) continue;
    const near = nearest(key, Object.keys(DEFAULT_SETTINGS));
    if (near) out.push(setting(key, `is no engine setting; did you mean "${near}"? (a setting of the container's own needs a name further from the engine's)`));
  }
  // The container's defaults for the engine's settings, checked as a page's offtagConfig would be.
  const engineKeys = Object.fromEntries(Object.entries(own).filter(([k]) => k in DEFAULT_SETTINGS && k !== 'environment'));
  for (const p of resolveSettings(engineKeys).problems) out.push(setting(settingOf(p), whatOf(p)));
  // The container's own checks, on its own defaults.
  const defaults = defaultsFor(container) as unknown as Record<string, unknown>;
  for (const [path, check] of Object.entries(container.settingChecks ?? {})) {
    const value = path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], defaults);
    const must = check(value);
    if (must) out.push(setting(path, `must be ${must}; got ${JSON.stringify(value)}`));
  }
  return out;
}

/** `offtagConfig.reportSuites must be an object; got string. Using the default.` → the setting's path … */
const settingOf = (problem: string) => /^offtagConfig\.(\S+)/.exec(problem)?.[1] ?? '?';
const whatOf = (problem: string) => problem.replace(/^offtagConfig\.\S+ /, '').replace(/\. Using .*$|; it is ignored\.$/, '');

function duplicateRules(container: AnyContainer): Problem[] {
  const seen = new Set<string>();
  const out: Problem[] = [];
  for (const rule of container.rules) {
    if (seen.has(rule.name)) out.push({ at: { kind: 'rule', rule: rule.name }, item: `rule "${rule.name}"`, what: 'another rule has this name (rule names must be unique)' });
    seen.add(rule.name);
  }
  return out;
}

/** The data elements actions name in `%tokens%` and conditions read (`uses`, set by the kit's helpers). */
function ruleReferences(container: AnyContainer, known: (name: string) => boolean): Problem[] {
  const out: Problem[] = [];
  for (const rule of container.rules) {
    const parts = [
      ...(rule.conditions ?? []).map((c, i) => ['condition', 'conditions', c, i] as const),
      ...(rule.actions ?? []).map((a, i) => ['action', 'actions', a, i] as const),
    ];
    for (const [kind, part, item, index] of parts) {
      const problem = (item as { problem?: string }).problem;
      if (problem) out.push({ at: { kind: 'rule', rule: rule.name, part, index }, item: `rule "${rule.name}", ${kind} "${item.name}"`, what: problem });
      // A name, or a text whose `%tokens%` are names (`D=` copies and constants name none).
      const uses = (item.uses ?? []).flatMap((u) => (u.includes('%') ? tokensIn(u) : /^D=/.test(u) ? [] : [u]));
      for (const name of uses)
        if (!known(name))
          out.push({ at: { kind: 'rule', rule: rule.name, part, index }, item: `rule "${rule.name}", ${kind} "${item.name}"`, what: `%${name}% names no data element` });
    }
  }
  return out;
}

/** The fields each event type has besides `type` (a field of no type is a misspelling: `selecter`). */
type KeysOf<T> = T extends unknown ? keyof T : never;
const EVENT_FIELDS: { [T in RuleEventSpec['type']]: { [K in Exclude<KeysOf<Extract<RuleEventSpec, { type: T }>>, 'type'>]-?: true } } = {
  'library-loaded': {},
  'page-bottom': {},
  'dom-ready': {},
  'window-loaded': {},
  'direct-call': { id: true, code: true },
  click: { selector: true, properties: true, bubbleFireIfParent: true, bubbleFireIfChildFired: true, bubbleStop: true },
  'custom-event': { name: true, target: true, selector: true, properties: true, bubbleFireIfParent: true, bubbleFireIfChildFired: true, bubbleStop: true },
  'form-submit': { selector: true, properties: true, bubbleFireIfParent: true, bubbleFireIfChildFired: true, bubbleStop: true },
  'element-visible': { selector: true, everyEntry: true, properties: true, delay: true },
  'scroll-depth': { percent: true },
  timer: { ms: true, limit: true },
  'data-element-change': { name: true },
  'history-change': {},
  'element-exists': { selector: true, properties: true },
  hover: { selector: true, delay: true, properties: true, bubbleFireIfParent: true, bubbleFireIfChildFired: true, bubbleStop: true },
  'media-time-played': { amount: true, unit: true, selector: true, properties: true, bubbleFireIfParent: true, bubbleFireIfChildFired: true, bubbleStop: true },
  'data-layer-push': { global: true, event: true, flavor: true },
};
/** The event types a rule may listen to, in the order the docs give them. */
export const EVENT_TYPES = Object.keys(EVENT_FIELDS) as Array<RuleEventSpec['type']>;
/** Own keys only: `toString` is no event type (with `in` it passed as one, and got Object's own "check"). */
const isEventType = (type: unknown): type is RuleEventSpec['type'] => typeof type === 'string' && Object.hasOwn(EVENT_FIELDS, type);

/** What is wrong with one rule event (its field when one is to blame), or undefined. */
export function eventProblem(spec: unknown, known: (name: string) => boolean): { what: string; field?: string } | undefined {
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return { what: `must be an object with a type; got ${JSON.stringify(spec)}` };
  const e = spec as Record<string, unknown>;
  const type = e.type;
  if (!isEventType(type)) {
    const near = typeof type === 'string' ? nearest(type, EVENT_TYPES) : undefined;
    return { what: `${JSON.stringify(type)} is no event type${near ? `; did you mean "${near}"?` : ''} (the types: ${EVENT_TYPES.join(', ')})`, field: 'type' };
  }
  const fields = Object.keys(EVENT_FIELDS[type]);
  for (const key of Object.keys(e)) {
    if (key === 'type' || fields.includes(key)) continue;
    const near = nearest(key, fields);
    const has = fields.length ? `its fields: ${fields.join(', ')}` : 'it has no other field';
    return { what: `"${key}" is no field of a ${type} event${near ? `; did you mean "${near}"?` : ''} (${has})`, field: key };
  }
  if (type === 'direct-call' && (typeof e.id !== 'string' || e.id.trim() === '')) return { what: `id must be the direct call's identifier (a text); got ${JSON.stringify(e.id)}`, field: 'id' };
  if (type === 'data-element-change') {
    if (typeof e.name !== 'string' || !known(e.name)) return { what: `name must name a data element; got ${JSON.stringify(e.name)}`, field: 'name' };
    return undefined;
  }
  if (typeof e.selector === 'string') {
    const wrong = selectorProblem(e.selector);
    if (wrong) return { what: `selector ${JSON.stringify(e.selector)} is not a CSS selector: ${wrong}`, field: 'selector' };
  }
  const page = spec as RuleEventSpec;
  if (isPageTrigger(page)) {
    // The engine's own check (the one the worker applies when it installs the listeners).
    const l = listenerOf({ ...page } as Parameters<typeof listenerOf>[0]);
    if (typeof l === 'string') {
      const field = /^(\w+) must/.exec(l)?.[1];
      const v = field && field in e ? e[field] : undefined;
      const got = !field ? '' : field in e ? `; got ${JSON.stringify(v)}${typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? ' (a text: write the number without quotes)' : ''}` : `; the event has no ${field}`;
      const hint = type === 'data-layer-push' && field === 'global' && typeof v === 'string' && /^window\.[A-Za-z_$][\w$]*$/.test(v) ? ` (the global's name alone: "${v.slice(7)}")` : '';
      return { what: l + got + hint, ...(field && field in e ? { field } : {}) };
    }
  }
  return undefined;
}

function eventProblems(container: AnyContainer, known: (name: string) => boolean): Problem[] {
  const out: Problem[] = [];
  for (const rule of container.rules) {
    if (!Array.isArray(rule.events) || rule.events.length === 0) {
      out.push({ at: { kind: 'rule', rule: rule.name, part: 'events' }, item: `rule "${rule.name}"`, what: 'needs at least one event (events: [{ type: … }])' });
      continue;
    }
    rule.events.forEach((spec, index) => {
      const p = eventProblem(spec, known);
      if (!p) return;
      const type = (spec as { type?: unknown } | null)?.type;
      const shown = isEventType(type) ? ` (${type})` : '';
      out.push({ at: { kind: 'rule', rule: rule.name, part: 'events', index, ...(p.field ? { field: p.field } : {}) }, item: `rule "${rule.name}", event ${index + 1}${shown}`, what: p.what });
    });
  }
  return out;
}

/** Actions that need a service the container has none of (the kit's analytics and visitor actions need `adobeServices()`). */
function serviceProblems(container: AnyContainer): Problem[] {
  if (container.services) return [];
  const out: Problem[] = [];
  for (const rule of container.rules)
    (rule.actions ?? []).forEach((a, index) => {
      const needs = (a as { needs?: string }).needs;
      if (needs)
        out.push({
          at: { kind: 'rule', rule: rule.name, part: 'actions', index },
          item: `rule "${rule.name}", action "${a.name}"`,
          what: `needs ${needs}, and the container has no services: add \`services: adobeServices()\` to defineContainer`,
        });
    });
  return out;
}

/** The candidate within two edits of `word` (one for short words), the closest first; ignoring case. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = distance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return bestDistance <= (word.length <= 4 ? 1 : 2) ? best : undefined;
}

/** Levenshtein distance, a swap of two neighbours counting one. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

/** Each data element read once on an empty page: what it reads that does not exist, and cycles. */
function elementReferences(container: AnyContainer): Problem[] {
  const out = new Map<string, Problem>();
  const say = (name: string, what: string) => out.set(`${name}\n${what}`, { at: { kind: 'element', name }, item: `data element "${name}"`, what });
  // An imported Launch container's custom code may getVar a name no data element has: turbine then
  // answers what the page set with `_satellite.setVar` (or undefined), so it is no mistake there.
  const imported = 'launch' in container;
  const settings = defaultsFor(container);
  for (const name of Object.keys(container.dataElements)) {
    const messages: string[] = [];
    const resolver = createResolver(container.dataElements as Record<string, DataElement<string>>, {
      settings,
      page: EMPTY_PAGE,
      snapshot: { ...emptySnapshot(), url: `${EMPTY_PAGE.origin}/` },
      event: { type: 'library-loaded' },
      cookies: noCookies,
      session: { get: () => null, set: () => {} },
      log: (level, message) => level === 'warn' && messages.push(message),
      customVars: new Map(),
    });
    try {
      resolver.get(name);
    } catch {
      /* a function that needs a real page: what it reads is not checked */
    }
    for (const m of messages) {
      const missing = /^Data element "(.+)" is not defined in the container\.$/.exec(m);
      if (missing && !imported) say(name, `reads "${missing[1]}", which is no data element`);
      const cycle = /^Data element circular reference detected: (.+)$/.exec(m);
      if (cycle) say(name, `circular reference: ${shortestCycle(cycle[1].split(' -> '))}`);
    }
  }
  // What a helper found wrong with how it was written (`fromEvent` of a token that is no event token).
  for (const [name, de] of Object.entries(container.dataElements as Record<string, DataElement<string> & { problem?: unknown }>))
    if (typeof de.problem === 'string') say(name, de.problem);
  // Strings of the elements' own `%tokens%` (a constant text) are checked too.
  for (const [name, de] of Object.entries(container.dataElements as Record<string, DataElement<string>>))
    if (de.type === 'constant' && typeof de.value === 'string')
      for (const t of tokensIn(de.value))
        if (!(t in container.dataElements)) say(name, `%${t}% names no data element`);
  // A page read's selector (domAttribute) is checked as a rule event's is.
  for (const [name, de] of Object.entries(container.dataElements as Record<string, DataElement<string>>))
    if (de.page?.from === 'dom') {
      const wrong = selectorProblem(de.page.selector);
      if (wrong) say(name, `selector ${JSON.stringify(de.page.selector)} is not a CSS selector: ${wrong}`);
    }
  return [...out.values()];
}

/** `a -> b -> a -> b -> …` (the depth limit's trace) as its one loop, `a -> b -> a`. */
function shortestCycle(trace: string[]): string {
  for (let i = 0; i < trace.length; i++) {
    const j = trace.indexOf(trace[i], i + 1);
    if (j > 0) return trace.slice(i, j + 1).join(' -> ');
  }
  return trace.join(' -> ');
}
