/**
 * Data element helpers: where a value comes from (the data layer, a cookie, sessionStorage, the
 * query string, a constant, a function, or the page itself: localStorage, a DOM attribute, the
 * title, a function run on the page) and how it is finished (default, lower-casing, clean
 * text, storage duration). Each returns the engine's `DataElement` (core/types.ts), so a table of
 * helpers and a table of hand-written elements are the same thing.
 */
import type { DataElement, DataElementContext } from '../worker-engine/core/types.ts';
import type { EngineEvent } from '../protocol.ts';
import type { Settings } from '../worker-engine/core/settings.ts';
import { eventToken, isEventToken } from '../worker-engine/core/event-tokens.ts';
import type { EventToken } from './tokens.ts';

/**
 * How long a value outlives the event it was read on, as Launch's "storage duration": `pageview`
 * (default) keeps nothing; `session` stores each value that is not missing in sessionStorage and
 * answers with it while the source is missing, for the rest of the tab's session.
 */
export type StorageDuration = 'pageview' | 'session';

export { storedKey } from '../worker-engine/core/types.ts';

/** What a function data element gets: the engine's context, its settings typed with the container's `X`. */
export type ElementCtx<N extends string, X> = Omit<DataElementContext<N>, 'settings'> & { readonly settings: Settings & X };

export interface Finish {
  /** Used when the value is undefined, null or ''. A function gets the settings. */
  default?: unknown;
  /** Lower-case string values. */
  lowerCase?: boolean;
  /** Collapse runs of whitespace into one space and trim (strings only). */
  cleanText?: boolean;
  /** Logged (at `log` level) when the default is used. */
  missingMessage?: string;
  storage?: StorageDuration;
}

export type Element<N extends string = string> = DataElement<N>;

function finish<N extends string>(source: DataElement<N>, f: Finish = {}): Element<N> {
  const el: Element<N> = { ...source };
  if (f.default !== undefined) el.default = f.default;
  if (f.lowerCase) el.forceLowerCase = true;
  if (f.cleanText) el.cleanText = true;
  if (f.missingMessage) el.missingMessage = f.missingMessage;
  if (f.storage === 'session') el.storage = 'session';
  return el;
}

/** A value of the data layer at a dotted path (`page.pageInfo.pageName`, `product[0].sku`). */
export const dataLayer = (path: string, f?: Finish): Element => finish({ type: 'data-layer', path }, f);

/** A cookie's value, URI-decoded unless `decode: false`; the name may be a setting. */
export const cookie = <X = object>(name: string | ((s: Settings & X) => string), f?: Finish & { decode?: boolean }): Element =>
  finish({ type: 'cookie', name: name as string | ((s: Settings) => string), ...(f?.decode === false ? { decode: false } : {}) }, f);

/**
 * A sessionStorage value. The bridge reads only the keys a container declares: the build adds this
 * key to them (a key with `{brand}` follows the brand setting).
 */
export const sessionStorage = (key: string, f?: Finish): Element => finish({ type: 'session', key }, f);

/** A query string parameter of the page URL (the first, decoded), as Launch's Query String Parameter. */
export const queryString = (name: string, f?: Finish): Element =>
  Object.assign(
    finish(
      {
        type: 'custom',
        reads: [],
        fn: (ctx) => new URL(ctx.snapshot.url).searchParams.get(name) ?? undefined,
      },
      f,
    ),
    // What it was made from, for `offtag diff` (its `fn` is this helper's closure); the engine never reads it.
    { def: { queryString: name } },
  );

/** A fixed value. */
export const constant = (value: unknown, f?: Omit<Finish, 'default'>): Element => finish({ type: 'constant', value }, f);

/**
 * A value computed from other values. `reads`: the data layer paths `fn` reads through
 * `ctx.dataLayer` (leave it out and the whole data layer travels with each event).
 */
export const fn = <N extends string = string, X = object>(
  compute: (ctx: ElementCtx<N, X>) => unknown,
  f?: Finish & { reads?: string[]; sideEffects?: boolean },
): Element<N> =>
  finish<N>(
    {
      type: 'custom',
      fn: compute as (ctx: DataElementContext<N>) => unknown,
      ...(f?.reads ? { reads: f.reads } : {}),
      ...(f?.sideEffects ? { sideEffects: true } : {}),
    },
    f,
  );

/**
 * A value of the event, read as its `%token%` reads it (the engine's one reader,
 * core/event-tokens.ts): `event.detail.…`, a data layer push's object (a custom event's or a
 * direct call's detail); `event.state.…`, the data layer's state after that push; `event.url`, the
 * URL after a history change; `this.…` and `target.…`, the element a trigger matched and the DOM
 * event's target. Undefined (so the default) on an event without it. A token that does not begin
 * with `event.`, `this.` or `target.` is refused by the build.
 */
export const fromEvent = (token: EventToken, f?: Finish): Element =>
  Object.assign(
    finish({ type: 'custom', reads: [], fn: (ctx) => eventToken(token, ctx.event) }, f),
    { def: { fromEvent: token } },
    isEventToken(token) ? {} : { problem: `fromEvent(${JSON.stringify(token)}): the token must begin with "event.", "this." or "target." (as \`%event.detail.sku%\` reads the event)` },
  );

/** What a page code data element or page condition gets: the event the bridge is sending (its `type`, a direct call's `id` and `detail`…). */
export type PageEvent = EngineEvent;

/**
 * A localStorage item, read on the page with each event (offtag.js then carries the read: see
 * docs/containers.md, "Page reads"). `null` when the item is absent or localStorage cannot be
 * read, so the default applies.
 */
export const localStorage = (key: string, f?: Finish): Element => finish({ type: 'page', page: { from: 'local-storage', key } }, f);

/**
 * An attribute or property of the first element matching `selector`, read on the page with each
 * event, as Launch's DOM Attribute: `text` is the element's text (`innerText`), a property the
 * element has (`id`, `className`, `href`, `value`, `innerHTML`…) is read as a property, any other
 * name (`data-sku`) as an attribute; undefined (so the default) when no element matches.
 */
export const domAttribute = (selector: string, property: string, f?: Finish): Element =>
  finish({ type: 'page', page: { from: 'dom', selector, property } }, f);

/**
 * A page global at a dotted path from `window` (`utag_data.page_name`, `products[0].sku`), read on
 * the page with each event; undefined (so the default) as soon as a step is missing. For the data
 * layer itself use `dataLayer(path)`: only its read branches travel.
 */
export const pageVariable = (path: string, f?: Finish): Element => finish({ type: 'page', page: { from: 'global', path } }, f);

/** `document.title`, read on the page with each event. */
export const pageTitle = (f?: Finish): Element => finish({ type: 'page', page: { from: 'title' } }, f);

/**
 * A function run on the page when the bridge takes each event's snapshot, its value carried to
 * the worker. It gets the event and, for a page trigger's event, the element the trigger matched. It is written into offtag.js as source text: it may use its argument and the page's
 * globals, nothing else of the module (`offtag build` refuses one it cannot write). It costs the
 * main thread its own run time on every event.
 */
export const pageCode = (code: (event: PageEvent, element?: globalThis.Element) => unknown, f?: Finish): Element =>
  finish({ type: 'page', page: { from: 'code', code } }, f);

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/**
 * A lookup table (GTM's Lookup Table, Launch's Mapping Table): the value of the data element
 * `input`, as text, looked up in `table`; the row's value when one matches exactly (ignoring case
 * with `caseInsensitive`), else the finishing's `default`.
 */
export const lookupTable = <N extends string = string>(input: N, table: Record<string, unknown>, f?: Finish & { caseInsensitive?: boolean }): Element<N> => {
  const rows = new Map(Object.entries(table).map(([k, v]) => [f?.caseInsensitive ? k.toLowerCase() : k, v]));
  return finish<N>(
    {
      type: 'custom',
      reads: [],
      fn: (ctx) => {
        const key = text(ctx.get(input));
        return rows.get(f?.caseInsensitive ? key.toLowerCase() : key);
      },
    },
    f,
  );
};

export interface RegexTableOptions extends Finish {
  /** Match case (GTM's "Ignore case" off); default: ignore case. */
  matchCase?: boolean;
  /** A pattern may match part of the value (GTM's "Full matches only" off); default: the whole value. */
  partialMatches?: boolean;
}

/**
 * A regular-expression table (GTM's RegEx Table): the value of the data element `input`, as text,
 * tried against each row's pattern in order; the first that matches gives the row's output, in
 * which `$1`… are the pattern's capture groups; none: the finishing's `default`. A pattern that is
 * not a regular expression is refused by the build, at the element, naming the pattern.
 */
export const regexTable = <N extends string = string>(input: N, rows: ReadonlyArray<readonly [pattern: string, output: unknown]>, f?: RegexTableOptions): Element<N> => {
  const problems: string[] = [];
  const compiled = rows.flatMap(([pattern, output]) => {
    try {
      const source = f?.partialMatches ? pattern : `^(?:${pattern})$`;
      return [[new RegExp(source, f?.matchCase ? '' : 'i'), output] as const];
    } catch (err) {
      problems.push(`regexTable(${JSON.stringify(input)}): ${JSON.stringify(pattern)} is not a regular expression (${(err as Error).message})`);
      return [];
    }
  });
  return Object.assign(
    finish<N>(
      {
        type: 'custom',
        reads: [],
        fn: (ctx) => {
          const value = text(ctx.get(input));
          for (const [re, output] of compiled) {
            const m = re.exec(value);
            if (m) return typeof output === 'string' ? output.replace(/\$(\d)/g, (_, i: string) => m[Number(i)] ?? '') : output;
          }
          return undefined;
        },
      },
      f,
    ),
    problems.length ? { problem: problems.join('; ') } : {},
  );
};

/**
 * The helpers bound to a container's data element names `N` and settings `X`, for tables whose
 * function elements read other elements (`ctx.get('page type')` is then checked) or settings.
 * `defineContainer`'s `derived` gets them bound to the names of its `dataElements`.
 */
export function elements<N extends string, X = object>() {
  return {
    dataLayer,
    cookie: cookie<X>,
    sessionStorage,
    queryString,
    constant,
    fn: fn<N, X>,
    lookupTable: lookupTable<N>,
    regexTable: regexTable<N>,
    localStorage,
    domAttribute,
    pageTitle,
    pageVariable,
    pageCode,
    fromEvent,
  };
}

/** The element helpers typed with a container's names `N` and settings `X` (what `derived` gets). */
export type Elements<N extends string, X = object> = ReturnType<typeof elements<N, X>>;
