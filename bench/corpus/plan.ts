/**
 * The page states of a corpus run, generated from a Launch container alone (the same for turbine
 * and for Offtag, and the same from one run to the next):
 * - the data layer: every path the library's JavaScript Variable data elements and Variable
 *   conditions read, and every path under the same globals its code reads (`digitalData.page.x`
 *   in a custom code block), filled with a string (the value a Value Comparison or Variable
 *   condition on it asks for when one does and the value is a plain one, else a word made from
 *   the path; the boolean an `is true` / `is false` comparison asks for, which no string meets);
 * - cookies: every cookie its Cookie data elements and Cookie conditions read, but the tags' own
 *   (`AMCV_…`, `s_…`, `mbox`, …), the same way;
 * - the steps after the page's load: every Direct Call identifier tracked, every Custom Event
 *   type dispatched (on an element made to match the rule's selector when it has one, else on
 *   `document`), a click on an element made to match each Click rule's selector. A rule that
 *   reads `event.detail.<path>` gets that path filled in the event's detail.
 * Library Loaded, Page Bottom, DOM Ready and Window Loaded come with the page's own load.
 * The visitor has accepted the consent banner of OneTrust (the consent manager half the corpus
 * reads, and one site's bundle waits for before it starts Launch): its two cookies are set; so is
 * the Analytics extension's EU-compliance cookie, to `true`, when the library uses one.
 */
import { compare, type Operator } from '../../src/launch/conditions.ts';
import type { LaunchContainer, LaunchRule, LaunchValue } from '../../tools/import/read.ts';
import { elementsFor, renderAttrs, renderElements, type ElementSpec, type RootAttrs } from './selector.ts';

const CORE = 'core/src/lib/';

export type Step =
  | { kind: 'track'; id: string; detail?: Record<string, unknown> }
  | { kind: 'custom'; type: string; target: 'document' | number; selector?: string; detail?: Record<string, unknown> }
  | { kind: 'click'; target: number; selector?: string };

export interface PagePlan {
  /** The page's URL: the property's first domain (with `www.` when it is a bare domain), path `/`. */
  url: string;
  title: string;
  /** Page globals and their values (set only where the browser has no global of that name). */
  globals: Record<string, unknown>;
  /** The paths filled, and those left out with why (a browser global, the Analytics tracker). */
  paths: { filled: string[]; skipped: Array<{ path: string; why: string }> };
  root: RootAttrs;
  elements: ElementSpec[];
  steps: Step[];
  /** Selectors no element could be made for. */
  unbuildable: string[];
  /** Cookies the page's response sets (`name=value; Domain=…; Path=/`). */
  cookies: string[];
}

/** Every category of OneTrust accepted, in both group naming schemes (`C0001` and `1`), on a fixed date. */
export const CONSENT_COOKIES = [
  'OptanonAlertBoxClosed=2026-01-01T00:00:00.000Z',
  `OptanonConsent=${['isGpcEnabled=0', 'datestamp=Thu+Jan+01+2026+00%3A00%3A00+GMT%2B0000', 'version=202401.1.0', 'isIABGlobal=false', 'hosts=', 'landingPath=NotLandingPage', `groups=${encodeURIComponent(['C0001:1', 'C0002:1', 'C0003:1', 'C0004:1', 'C0005:1', '1:1', '2:1', '3:1', '4:1', '6:1', '8:1'].join(','))}`].join('&')}`,
];

/** Roots the browser (or the tags themselves) own: a library reading them reads the page, not a data layer. */
const BROWSER_ROOTS = new Set([
  'window', 'self', 'top', 'parent', 'frames', 'globalThis', 'document', 'location', 'navigator', 'screen', 'history',
  'performance', 'event', 'localStorage', 'sessionStorage', 'console', 'crypto', 'Math', 'JSON', 'Date', 'Intl',
  'origin', 'name', 'status', 'innerWidth', 'innerHeight', 'outerWidth', 'outerHeight', 'devicePixelRatio', 'scrollX',
  'scrollY', 'pageXOffset', 'pageYOffset', 'opener', 'length', 'closed', 'customElements', 'visualViewport',
  '_satellite', 'Visitor', 'adobe', 'AppMeasurement', 's_gi', 's_c_il', 'Object', 'Array', 'String', 'Number',
]);

type Settings = Record<string, LaunchValue>;
const settingsOf = (c: { settings?: Settings }): Settings => (c.settings ?? {}) as Settings;
const isModule = (c: { modulePath: string }, path: string) => c.modulePath === CORE + path;

/** The property's site: `https://www.<first domain>/` (a domain that has a `www.` or a subdomain already stays as it is). */
export function siteUrl(c: LaunchContainer): string {
  const domains = (c.property?.settings?.domains ?? []) as unknown[];
  const first = typeof domains[0] === 'string' && domains[0] ? (domains[0] as string).toLowerCase() : 'corpus.example';
  const host = first.split('.').length > 2 ? first : `www.${first}`;
  return `https://${host}/`;
}

/** A data layer path as Core's getObjectProperty walks it (split on dots), without leading `window.`s. */
export function pathParts(path: string): string[] {
  const parts = path.trim().split('.');
  while (parts.length > 1 && parts[0] === 'window') parts.shift();
  return parts;
}

/**
 * A string the regular expression matches, for the simple ones conditions use (a literal, an
 * alternation of literals, anchors, `.*`); undefined when none is found.
 */
export function sampleForRegex(source: string, caseInsensitive = false): string | undefined {
  let re: RegExp;
  try {
    re = new RegExp(source, caseInsensitive ? 'i' : '');
  } catch {
    return undefined;
  }
  const candidates: string[] = [];
  const body = source.replace(/^\^/, '').replace(/\$$/, '');
  for (const alt of topAlternatives(body)) {
    const lit = alt
      .replace(/^\^|\$$/g, '')
      .replace(/^\(\?:|^\(|\)$/g, '')
      .replace(/\.\*\??|\.\+\??/g, 'x')
      .replace(/\\([.\\/?*+()[\]{}|^$-])/g, '$1')
      .replace(/\\d/g, '1')
      .replace(/\\s/g, ' ')
      .replace(/\\w/g, 'a');
    candidates.push(lit);
  }
  candidates.push(body.replace(/[\\^$()?*+[\]{}|]/g, ''));
  return candidates.find((c) => re.test(c));
}

function topAlternatives(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === '\\') {
      cur += ch + (s[i + 1] ?? '');
      i++;
      continue;
    }
    if (ch === '(' || ch === '[') depth++;
    if (ch === ')' || ch === ']') depth--;
    if (ch === '|' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/**
 * The value a condition on a data layer path asks for, or undefined (negated, a token on the
 * right, not a plain value): a string, or the boolean `is true` / `is false` ask for.
 */
function wantedByComparison(s: Settings, negate: boolean): string | boolean | undefined {
  if (negate) return undefined;
  const comparison = (s.comparison ?? {}) as { operator?: string; caseInsensitive?: boolean };
  const op = comparison.operator as Operator | undefined;
  if (op === 'isTrue' || op === 'isFalse') return op === 'isTrue';
  const right = s.rightOperand;
  if (!op || (typeof right !== 'string' && typeof right !== 'number')) return undefined;
  if (typeof right === 'string' && /%[^%]+%/.test(right)) return undefined;
  const ci = comparison.caseInsensitive === true;
  let candidate: string | undefined;
  switch (op) {
    case 'equals':
    case 'contains':
    case 'startsWith':
    case 'endsWith':
    case 'lessThanOrEqual':
    case 'greaterThanOrEqual':
      candidate = String(right);
      break;
    case 'matchesRegex':
      candidate = sampleForRegex(String(right), ci);
      break;
    case 'greaterThan':
      candidate = String(Number(right) + 1);
      break;
    case 'lessThan':
      candidate = String(Number(right) - 1);
      break;
    default:
      return undefined;
  }
  return candidate !== undefined && compare(op, candidate, right, ci) ? candidate : undefined;
}

/** `event.detail.<path>` read anywhere in a rule (its settings, its code, `%event.detail.…%` tokens). */
function detailPaths(r: LaunchRule): string[] {
  const text = JSON.stringify(r);
  return [...new Set([...text.matchAll(/event\.detail((?:\.[A-Za-z_$][\w$]*)+)/g)].map((m) => m[1]!.slice(1)))];
}

function setPath(target: Record<string, unknown>, parts: string[], value: unknown): void {
  let node = target;
  for (const p of parts.slice(0, -1)) {
    if (typeof node[p] !== 'object' || node[p] === null) node[p] = {};
    node = node[p] as Record<string, unknown>;
  }
  const last = parts.at(-1)!;
  if (typeof node[last] !== 'object' || node[last] === null) node[last] = value;
}

/** Nodes whose keys are all 0, 1, 2… become arrays, as a data layer's lists are. */
function withArrays(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  const fixed = Object.fromEntries(keys.map((k) => [k, withArrays(o[k])]));
  if (keys.length && keys.every((k) => /^\d+$/.test(k)) && Math.max(...keys.map(Number)) < 50) {
    const arr: unknown[] = [];
    for (const k of keys) arr[Number(k)] = fixed[k];
    for (let i = 0; i < arr.length; i++) if (!(i in arr)) arr[i] = {};
    return arr;
  }
  return fixed;
}

/** A word for a path's value: its last segment with a marker, so a value read shows where it came from. */
const wordFor = (parts: string[]) => `${parts.at(-1)!.replace(/[^\w-]/g, '') || 'value'}-1`;

function detailFor(paths: string[]): Record<string, unknown> | undefined {
  if (!paths.length) return undefined;
  const d: Record<string, unknown> = {};
  for (const p of [...paths].sort((a, b) => b.split('.').length - a.split('.').length)) setPath(d, p.split('.'), wordFor(p.split('.')));
  return withArrays(d) as Record<string, unknown>;
}

/** Every string in a container (code blocks as their text), for the paths its code reads. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) strings(x, out);
  return out;
}

/**
 * `root.a.b` read in code, for each root: dotted names only (a computed access ends the path),
 * without the method a path ends with when it is called (`…siteCode.indexOf(` reads `…siteCode`)
 * nor `length`.
 */
export function codePaths(code: string, roots: Set<string>): string[] {
  if (!roots.size) return [];
  const names = [...roots].map((r) => r.replace(/[$]/g, '\\$')).join('|');
  const out = new Set<string>();
  for (const m of code.matchAll(new RegExp(`(?<![\\w$.])(?:window\\.)?(${names})((?:\\.[A-Za-z_$][\\w$]*)+)(\\s*\\()?`, 'g'))) {
    const parts = [m[1]!, ...m[2]!.slice(1).split('.')];
    if (m[3]) parts.pop();
    while (parts.length > 1 && parts.at(-1) === 'length') parts.pop();
    if (parts.length > 1) out.add(parts.join('.'));
  }
  return [...out];
}

/** Cookies the tags write themselves: never filled. */
const TAG_COOKIES = /^(AMCVS?_|s_|mbox|at_|demdex|dextp|dst|_ga|_gid|_gcl|_fbp|kndctr_|Optanon)/;

/** `name=value` for each cookie its Cookie data elements and conditions read (the value a condition asks for, else a word), and the EU-compliance cookie. */
function cookiesFor(c: LaunchContainer): string[] {
  const wanted = new Map<string, string | undefined>();
  const want = (name: string, value: string | undefined) => {
    if (!name || TAG_COOKIES.test(name)) return;
    if (!wanted.has(name) || (wanted.get(name) === undefined && value !== undefined)) wanted.set(name, value);
  };
  for (const de of Object.values(c.dataElements ?? {})) if (isModule(de, 'dataElements/cookie.js') && typeof settingsOf(de).name === 'string') want(settingsOf(de).name as string, undefined);
  for (const r of c.rules ?? [])
    for (const cond of r.conditions ?? []) {
      const s = settingsOf(cond);
      if (!isModule(cond, 'conditions/cookie.js') || typeof s.name !== 'string') continue;
      want(s.name, cond.negate ? undefined : s.valueIsRegex === true ? sampleForRegex(String(s.value ?? '')) : typeof s.value === 'string' ? s.value : undefined);
    }
  const a = c.extensions?.['adobe-analytics']?.settings as Settings | undefined;
  if (a?.euComplianceEnabled === true && typeof a.trackingCookieName === 'string' && a.trackingCookieName) wanted.set(a.trackingCookieName, 'true');
  return [...wanted].map(([name, value]) => `${name}=${encodeURIComponent(value ?? `${name}-1`)}`);
}

/** The page states for a container (docs/import.md, "Real libraries"). */
export function planPage(c: LaunchContainer): PagePlan {
  const rules = c.rules ?? [];
  const des = c.dataElements ?? {};
  const hasAnalytics = !!c.extensions?.['adobe-analytics'];
  const paths = new Map<string, string | boolean | undefined>();
  const skipped: Array<{ path: string; why: string }> = [];
  const want = (path: string, value: string | boolean | undefined) => {
    const key = pathParts(path).join('.');
    if (!paths.has(key) || (paths.get(key) === undefined && value !== undefined)) paths.set(key, value);
  };
  for (const de of Object.values(des)) if (isModule(de, 'dataElements/javascriptVariable.js') && typeof settingsOf(de).path === 'string') want(settingsOf(de).path as string, undefined);
  const jsVarPath = (token: unknown): string | undefined => {
    const m = typeof token === 'string' ? /^%([^%]+)%$/.exec(token.trim()) : null;
    const de = m ? des[m[1]!] : undefined;
    return de && isModule(de, 'dataElements/javascriptVariable.js') && typeof settingsOf(de).path === 'string' ? (settingsOf(de).path as string) : undefined;
  };
  for (const r of rules)
    for (const cond of r.conditions ?? []) {
      const s = settingsOf(cond);
      if (isModule(cond, 'conditions/variable.js') && typeof s.name === 'string') {
        const value = cond.negate ? undefined : s.valueIsRegex === true ? sampleForRegex(String(s.value ?? '')) : typeof s.value === 'string' || typeof s.value === 'number' ? String(s.value) : undefined;
        want(s.name, value);
      } else if (isModule(cond, 'conditions/valueComparison.js')) {
        const path = jsVarPath(s.leftOperand);
        if (path) want(path, wantedByComparison(s, cond.negate === true));
      }
    }

  // The Web SDK's Send Event refuses options of the wrong type (`xdm` and `data` objects, the decision
  // scopes a list): what its tokens read gets that shape, as a site's data layer gives it.
  const shapes = new Map<string, () => unknown>();
  for (const r of rules)
    for (const a of r.actions ?? []) {
      if (!/^adobe-alloy\/.*\/actions\/sendEvent\//.test(a.modulePath)) continue;
      const s = settingsOf(a);
      const scopes = (s.personalization as Settings | undefined)?.decisionScopes;
      for (const [token, shape] of [[s.xdm, () => ({})], [s.data, () => ({})], [scopes, () => ['scope-1']]] as const) {
        const path = jsVarPath(token);
        if (path) want(path, undefined), shapes.set(pathParts(path).join('.'), shape);
      }
    }

  // Paths the library's code reads under the globals its data elements and conditions name.
  const roots = new Set([...paths.keys()].map((p) => p.split('.')[0]!).filter((r) => r && !BROWSER_ROOTS.has(r)));
  for (const text of strings(c)) for (const path of codePaths(text, roots)) want(path, undefined);

  const globals: Record<string, unknown> = {};
  const filled: string[] = [];
  // Longest paths first: a path that is another's prefix becomes its object.
  for (const [path, value] of [...paths].sort((a, b) => b[0].split('.').length - a[0].split('.').length || a[0].localeCompare(b[0]))) {
    const parts = path.split('.');
    const root = parts[0]!;
    if (!root || BROWSER_ROOTS.has(root)) skipped.push({ path, why: 'a browser global' });
    else if (root === 's' && hasAnalytics) skipped.push({ path, why: "the Analytics extension's tracker" });
    else {
      setPath(globals, parts, value ?? shapes.get(path)?.() ?? wordFor(parts));
      filled.push(path);
    }
  }

  // Steps, each once, in the library's rule order.
  const root: RootAttrs = { html: {}, body: {} };
  const elements: ElementSpec[] = [];
  const unbuildable: string[] = [];
  const tracks = new Map<string, string[]>();
  const customs = new Map<string, { type: string; selector?: string; props: unknown; detail: string[] }>();
  const clicks = new Map<string, { selector?: string; props: unknown }>();
  for (const r of rules)
    for (const e of r.events ?? []) {
      const s = settingsOf(e);
      if (isModule(e, 'events/directCall.js') && typeof s.identifier === 'string') tracks.set(s.identifier, [...(tracks.get(s.identifier) ?? []), ...detailPaths(r)]);
      else if (isModule(e, 'events/customEvent.js') && typeof s.type === 'string') {
        const selector = typeof s.elementSelector === 'string' && s.elementSelector.trim() ? s.elementSelector.trim() : undefined;
        const key = JSON.stringify([s.type, selector ?? null, s.elementProperties ?? null]);
        const prev = customs.get(key);
        customs.set(key, { type: s.type, selector, props: s.elementProperties, detail: [...(prev?.detail ?? []), ...detailPaths(r)] });
      } else if (isModule(e, 'events/click.js')) {
        const selector = typeof s.elementSelector === 'string' && s.elementSelector.trim() ? s.elementSelector.trim() : undefined;
        clicks.set(JSON.stringify([selector ?? null, s.elementProperties ?? null]), { selector, props: s.elementProperties });
      }
    }

  let marks = 0;
  /** An element for a step: made to match the selector and the element property filters; its mark. */
  const element = (selector: string | undefined, props: unknown, fallbackTag: string): number | undefined => {
    const mark = marks++;
    let target: ElementSpec;
    if (selector) {
      const built = elementsFor(selector, root);
      if (!built) {
        unbuildable.push(selector);
        return undefined;
      }
      if (built.target.tag === 'body') {
        // The body itself: a child of it is clicked and the event bubbles to it.
        target = { tag: 'span', attrs: {}, children: [] };
        elements.push(target);
      } else {
        elements.push(...built.roots);
        target = built.target;
      }
    } else {
      target = { tag: fallbackTag, attrs: fallbackTag === 'button' ? { type: 'button' } : {}, children: [] };
      elements.push(target);
    }
    target.attrs['data-corpus'] = String(mark);
    target.text ??= `item ${mark}`;
    for (const p of Array.isArray(props) ? (props as Array<{ name?: unknown; value?: unknown; valueIsRegex?: unknown }>) : []) {
      if (typeof p.name !== 'string' || typeof p.value !== 'string' || /%[^%]+%/.test(p.value)) continue;
      const value = p.valueIsRegex === true ? sampleForRegex(p.value, true) : p.value;
      if (value === undefined) continue;
      if (p.name === '@text' || p.name === 'innerText' || p.name === 'textContent' || p.name === 'text') target.text = value;
      else if (p.name === 'className') target.attrs.class = value;
      else target.attrs[p.name] = value;
    }
    return mark;
  };

  const steps: Step[] = [];
  for (const [id, detail] of tracks) {
    const d = detailFor([...new Set(detail)]);
    steps.push({ kind: 'track', id, ...(d ? { detail: d } : {}) });
  }
  for (const ce of customs.values()) {
    const d = detailFor([...new Set(ce.detail)]);
    if (!ce.selector && !ce.props) {
      steps.push({ kind: 'custom', type: ce.type, target: 'document', ...(d ? { detail: d } : {}) });
      continue;
    }
    const mark = element(ce.selector, ce.props, 'div');
    if (mark !== undefined) steps.push({ kind: 'custom', type: ce.type, target: mark, ...(ce.selector ? { selector: ce.selector } : {}), ...(d ? { detail: d } : {}) });
  }
  for (const cl of clicks.values()) {
    const mark = element(cl.selector, cl.props, 'button');
    if (mark !== undefined) steps.push({ kind: 'click', target: mark, ...(cl.selector ? { selector: cl.selector } : {}) });
  }

  const url = siteUrl(c);
  const domain = new URL(url).hostname.replace(/^www\./, '');
  return {
    url,
    title: `${new URL(url).hostname} home`,
    globals: withArrays(globals) as Record<string, unknown>,
    paths: { filled: filled.sort(), skipped },
    root,
    elements,
    steps,
    unbuildable,
    cookies: [...CONSENT_COOKIES, ...cookiesFor(c)].map((k) => `${k}; Domain=.${domain}; Path=/; Max-Age=31536000`),
  };
}

/** The body's markup: every element the steps act on, in step order, then a paragraph of text. */
export function bodyHtml(plan: PagePlan): string {
  return `${renderElements(plan.elements)}<p>${plan.title}</p>`;
}

export const rootAttrs = renderAttrs;
