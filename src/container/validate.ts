/**
 * What `offtag build` checks before it bundles a container: each problem is one line naming the
 * container file, the item and what is wrong (docs/containers.md, "Build"):
 * - a `%token%` of an action, or a data element a condition or a function element reads, that
 *   names no data element;
 * - a circular reference between data elements;
 * - a setting whose default has the wrong type for the engine's setting of that name, or fails
 *   the container's own check, or one the build owns (`environment`);
 * - two rules with one name.
 * Function elements are run once on an empty page to see what they read; one that throws there
 * is not a problem (it may need a real page), and what it did not read is not checked.
 */
import { emptySnapshot } from '../worker-engine/core/page-state.ts';
import { createResolver } from '../worker-engine/core/data-elements.ts';
import { DEFAULT_SETTINGS, defaultsFor, resolveSettings } from '../worker-engine/core/settings.ts';
import type { Container, CookieJar, DataElement } from '../worker-engine/core/types.ts';
import type { PageInfo } from '../protocol.ts';
import { tokensIn } from './tokens.ts';

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
  const container = checked as AnyContainer;
  const say = (item: string, what: string) => `${file}: ${item}: ${what}`;
  const elements = container.dataElements as Record<string, DataElement<string, unknown>>;
  const known = (name: string) => Object.prototype.hasOwnProperty.call(elements, name);
  return [
    ...settingProblems(container, say),
    ...duplicateRules(container, say),
    ...ruleReferences(container, known, say),
    ...elementReferences(container, say),
  ];
}

function settingProblems(container: AnyContainer, say: (item: string, what: string) => string): string[] {
  const own = container.settings ?? {};
  const out: string[] = [];
  if ('environment' in own) out.push(say('setting "environment"', 'is chosen by the build (--env), not the container'));
  // The container's defaults for the engine's settings, checked as a page's offtagConfig would be.
  const engineKeys = Object.fromEntries(Object.entries(own).filter(([k]) => k in DEFAULT_SETTINGS && k !== 'environment'));
  for (const p of resolveSettings(engineKeys).problems) out.push(say(settingOf(p), whatOf(p)));
  // The container's own checks, on its own defaults.
  const defaults = defaultsFor(container) as unknown as Record<string, unknown>;
  for (const [path, check] of Object.entries(container.settingChecks ?? {})) {
    const value = path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], defaults);
    const must = check(value);
    if (must) out.push(say(`setting "${path}"`, `must be ${must}; got ${JSON.stringify(value)}`));
  }
  return out;
}

/** `offtagConfig.reportSuites must be an object; got string. Using the default.` → the setting's name … */
const settingOf = (problem: string) => `setting "${/^offtagConfig\.(\S+)/.exec(problem)?.[1] ?? '?'}"`;
const whatOf = (problem: string) => problem.replace(/^offtagConfig\.\S+ /, '').replace(/\. Using .*$|; it is ignored\.$/, '');

function duplicateRules(container: AnyContainer, say: (item: string, what: string) => string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const rule of container.rules) {
    if (seen.has(rule.name)) out.push(say(`rule "${rule.name}"`, 'another rule has this name (rule names must be unique)'));
    seen.add(rule.name);
  }
  return out;
}

/** The data elements actions name in `%tokens%` and conditions read (`uses`, set by the kit's helpers). */
function ruleReferences(container: AnyContainer, known: (name: string) => boolean, say: (item: string, what: string) => string): string[] {
  const out: string[] = [];
  for (const rule of container.rules) {
    const parts = [...(rule.conditions ?? []).map((c) => ['condition', c] as const), ...rule.actions.map((a) => ['action', a] as const)];
    for (const [kind, part] of parts) {
      // A name, or a text whose `%tokens%` are names (`D=` copies and constants name none).
      const uses = (part.uses ?? []).flatMap((u) => (u.includes('%') ? tokensIn(u) : /^D=/.test(u) ? [] : [u]));
      for (const name of uses)
        if (!known(name)) out.push(say(`rule "${rule.name}", ${kind} "${part.name}"`, `%${name}% names no data element`));
    }
  }
  return out;
}

/** Each data element read once on an empty page: what it reads that does not exist, and cycles. */
function elementReferences(container: AnyContainer, say: (item: string, what: string) => string): string[] {
  const out = new Set<string>();
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
      if (missing && !imported) out.add(say(`data element "${name}"`, `reads "${missing[1]}", which is no data element`));
      const cycle = /^Data element circular reference detected: (.+)$/.exec(m);
      if (cycle) out.add(say(`data element "${name}"`, `circular reference: ${shortestCycle(cycle[1].split(' -> '))}`));
    }
  }
  // Strings of the elements' own `%tokens%` (a constant text) are checked too.
  for (const [name, de] of Object.entries(container.dataElements as Record<string, DataElement<string>>))
    if (de.type === 'constant' && typeof de.value === 'string')
      for (const t of tokensIn(de.value))
        if (!(t in container.dataElements)) out.add(say(`data element "${name}"`, `%${t}% names no data element`));
  return [...out];
}

/** `a -> b -> a -> b -> …` (the depth limit's trace) as its one loop, `a -> b -> a`. */
function shortestCycle(trace: string[]): string {
  for (let i = 0; i < trace.length; i++) {
    const j = trace.indexOf(trace[i], i + 1);
    if (j > 0) return trace.slice(i, j + 1).join(' -> ');
  }
  return trace.join(' -> ');
}
