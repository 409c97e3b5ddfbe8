/**
 * Checks a replay fixture (docs/replay.md, "Format") before it runs: the first problem found, as
 * one line that names the event (or the part of the fixture) and the field, or undefined when the
 * fixture is well formed. `offtag replay` prints it and exits with code 2; a typo in an event type
 * or a field name is reported, never replayed as an event that does nothing.
 */
import type { Fixture } from './replay.ts';

type Obj = Record<string, unknown>;

const EVENT_TYPES = ['library-loaded', 'page-bottom', 'dom-ready', 'window-loaded', 'direct-call', 'click', 'get-var', 'set-var', 'service-call', 'trigger'];

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const shown = (v: unknown): string => (v === undefined ? 'nothing' : Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v === 'string' ? JSON.stringify(v) : typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`);

/** A problem: the path of the field (`page.viewport.width`) and what is wrong with it. */
interface Problem {
  path: string[];
  msg: string;
}
const at = (path: string[], msg: string): Problem => ({ path, msg });
const said = (p: Problem): string => (p.path.length ? `"${p.path.join('.')}" ${p.msg}` : p.msg);

/** A field's expected kind: a typeof name, 'object', 'array', 'string-map' (name → string), or a check of its own. */
type Kind = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'any' | 'string-map' | 'nullable-string-map' | ((v: unknown) => Problem | undefined);

function kindProblem(kind: Kind, v: unknown): Problem | undefined {
  if (typeof kind === 'function') return kind(v);
  switch (kind) {
    case 'any':
      return undefined;
    case 'object':
      return isObj(v) ? undefined : at([], `must be an object; got ${shown(v)}`);
    case 'array':
      return Array.isArray(v) ? undefined : at([], `must be an array; got ${shown(v)}`);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) ? undefined : at([], `must be a number; got ${shown(v)}`);
    case 'string-map':
    case 'nullable-string-map': {
      const orNull = kind === 'nullable-string-map' ? ' or null' : '';
      if (!isObj(v)) return at([], `must be an object of name → string${orNull}; got ${shown(v)}`);
      const bad = Object.entries(v).find(([, x]) => typeof x !== 'string' && !(orNull && x === null));
      return bad ? at([bad[0]], `must be a string${orNull}; got ${shown(bad[1])}`) : undefined;
    }
    default:
      return typeof v === kind ? undefined : at([], `must be a ${kind}; got ${shown(v)}`);
  }
}

/** The first problem of an object against its fields (`?` marks an optional one); unknown keys are problems too. */
function fieldsProblem(o: Obj, fields: Record<string, Kind>): Problem | undefined {
  for (const [key, kind] of Object.entries(fields)) {
    const name = key.replace(/\?$/, '');
    if (o[name] === undefined) {
      if (key.endsWith('?')) continue;
      return at([name], 'is missing');
    }
    const p = kindProblem(kind, o[name]);
    if (p) return at([name, ...p.path], p.msg);
  }
  const known = Object.keys(fields).map((k) => k.replace(/\?$/, ''));
  const unknown = Object.keys(o).find((k) => !known.includes(k));
  return unknown === undefined ? undefined : at([unknown], `is not a field here (known: ${known.join(', ')})`);
}

const check = (ok: (v: unknown) => boolean, want: string) => (v: unknown) => (ok(v) ? undefined : at([], `must be ${want}; got ${shown(v)}`));
const nonNegative = check((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0, 'a number ≥ 0');
const nonEmptyString = check((v) => typeof v === 'string' && v !== '', 'a non-empty string');
const nested = (fields: Record<string, Kind>) => (v: unknown) => (isObj(v) ? fieldsProblem(v, fields) : at([], `must be an object; got ${shown(v)}`));

const LINK: Record<string, Kind> = { href: 'string', 'text?': 'string', 'region?': 'string', 'html?': 'string', 'hasTlCall?': 'boolean', 'tag?': 'string', 'objectId?': 'string' };
const SET: Record<string, Kind> = { 'cookies?': 'nullable-string-map', 'session?': 'nullable-string-map', 'url?': 'string', 'gpc?': 'boolean' };
/** What every object event may carry besides its own fields. */
const COMMON: Record<string, Kind> = { type: 'string', 'advance?': nonNegative, 'dataLayer?': 'any', 'set?': nested(SET) };
const BY_TYPE: Record<string, Record<string, Kind>> = {
  'direct-call': { id: nonEmptyString, 'detail?': 'any' },
  click: { link: nested(LINK) },
  'get-var': { name: nonEmptyString },
  'set-var': { values: 'object' },
  'service-call': { service: nonEmptyString, method: nonEmptyString, args: 'array' },
  // A page trigger (docs/triggers.md): `key` names the container's listener.
  trigger: { key: nonEmptyString, on: nonEmptyString, 'element?': 'object', 'target?': 'object', 'detail?': 'any', 'percent?': 'number', 'count?': 'number', 'ms?': 'number' },
};

/** How an event is named in a message: `event #1 ("Page Vew")`, `event #2 (pageview)`. */
function eventName(i: number, e: unknown): string {
  const what = typeof e === 'string' ? JSON.stringify(e) : isObj(e) && typeof e.type === 'string' ? e.type : shown(e);
  return `event #${i + 1} (${what})`;
}

function eventProblem(e: unknown): Problem | undefined {
  if (typeof e === 'string') return e === '' ? at([], 'a direct call needs an identifier; got ""') : undefined;
  if (!isObj(e)) return at([], `must be a direct-call identifier (a string) or an object with "type"; got ${shown(e)}`);
  const types = EVENT_TYPES.join(', ');
  if (typeof e.type !== 'string') return at(['type'], `${e.type === undefined ? 'is missing' : `must be a string; got ${shown(e.type)}`} (one of ${types})`);
  if (!EVENT_TYPES.includes(e.type)) return at(['type'], `must be one of ${types}; got ${JSON.stringify(e.type)}`);
  return fieldsProblem(e, { ...COMMON, ...BY_TYPE[e.type] });
}

const PAGE: Record<string, Kind> = {
  'url?': 'string',
  'referrer?': 'string',
  'viewport?': nested({ width: 'number', height: 'number' }),
  'screen?': nested({ width: 'number', height: 'number', colorDepth: 'number' }),
  'gpc?': 'boolean',
  'cookieDomain?': 'string',
  'userAgent?': 'string',
  'language?': 'string',
  'origin?': 'string',
  'secure?': 'boolean',
  'cookiesEnabled?': 'boolean',
};
const RESPONSE: Record<string, Kind> = {
  match: 'string',
  'status?': 'number',
  'body?': 'any',
  'error?': check((v) => v === 'network' || v === 'timeout', '"network" or "timeout"'),
  'times?': nonNegative,
};
const clockStart = check((v) => typeof v === 'number' || (typeof v === 'string' && !Number.isNaN(Date.parse(v))), 'a date ("2026-01-15T10:30:00Z") or milliseconds');
const TOP: Record<string, Kind> = {
  'name?': 'string',
  'settings?': 'any',
  'page?': nested(PAGE),
  'cookies?': 'string-map',
  'session?': 'string-map',
  'dataLayer?': 'any',
  'clock?': nested({ 'start?': clockStart, 'tz?': 'number' }),
  'seed?': 'number',
  events: 'array',
  'responses?': 'array',
};

/** The fixture's first problem, as one line without a prefix; undefined when it can be replayed. */
export function fixtureProblem(fixture: unknown): string | undefined {
  if (!isObj(fixture)) return `a fixture is an object with "events"; got ${shown(fixture)}`;
  const top = fieldsProblem(fixture, TOP);
  if (top) return `the fixture: ${said(top)}`;
  for (const [i, e] of (fixture.events as unknown[]).entries()) {
    const p = eventProblem(e);
    if (p) return `${eventName(i, e)}: ${said(p)}`;
  }
  for (const [i, r] of ((fixture.responses ?? []) as unknown[]).entries()) {
    const p = isObj(r) ? fieldsProblem(r, RESPONSE) : at([], `must be an object with "match"; got ${shown(r)}`);
    if (p) return `response #${i + 1}: ${said(p)}`;
  }
  return undefined;
}

/** Narrows a checked fixture. */
export const isFixture = (fixture: unknown): fixture is Fixture => fixtureProblem(fixture) === undefined;
