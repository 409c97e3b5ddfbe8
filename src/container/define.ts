/**
 * `defineContainer`: a container as one typed object. Data element names are the keys of
 * `dataElements`; the rules get a kit whose helpers know those names, so `%token%`s, `get` and
 * variable maps that name no data element do not compile. The result is the engine's `Container`
 * (core/types.ts) plus what the build reads (name, version, settings, session keys).
 */
import type { ContainerHooks, DataElement, EngineContext, Action, Condition, Rule, RuleContext, RuleEventSpec, Container } from '../worker-engine/core/types.ts';
import { storedKey } from '../worker-engine/core/types.ts';
import type { PageSide } from '../worker-engine/core/page-reads.ts';
import type { Settings } from '../worker-engine/core/settings.ts';
import type { EngineEvent } from '../protocol.ts';
import type { Services } from '../worker-engine/services.ts';
import type { CheckedMap, CheckedText } from './tokens.ts';
import { linkHit, pageViewHit, send, type LinkOptions, type VariableMap } from './analytics.ts';
import { compare, OPERATORS, type Operator } from '../launch/conditions.ts';
import { elements, type Elements } from './data-elements.ts';

/**
 * A container's `settings`: an engine setting's key takes the engine's type (so a number for
 * `trackingConsentCookie` is an error at that key, saying `string`), any other key is a setting of
 * the container's own, its type inferred from its default.
 */
export type SettingsDef<X> = { [K in keyof X]: K extends keyof Settings ? Settings[K] : X[K] };
/** The container's own settings, without the engine's. */
export type OwnSettings<X> = Omit<X, keyof Settings>;

/** The settings a container's code sees: the engine's and the container's own. */
export type ContainerSettings<X> = Settings & X;

/** What a rule's conditions and actions get: the engine's context, typed for this container. */
export type Ctx<N extends string, S, X> = RuleContext<N, S, X>;

export interface ConditionDef<N extends string, S, X> extends Condition<N, S, X> {
  /** Data element names the condition reads (the build checks them). */
  uses?: string[];
  /** What is wrong with how it was written (an operator Launch does not have, a pattern that is not a regular expression): the build refuses it. */
  problem?: string;
  /** What a kit helper made it from (`offtag diff` compares it; its `fn` is the helper's closure). The engine never reads it. */
  def?: Record<string, unknown>;
}
export interface ActionDef<N extends string, S, X> extends Action<N, S, X> {
  /** Data element names the action reads through tokens (the build checks them). */
  uses?: string[];
  /** The service the action needs, as the build names it when the container has no services. */
  needs?: string;
  /** What a kit helper made it from (`offtag diff` compares it; its `fn` is the helper's closure). The engine never reads it. */
  def?: Record<string, unknown>;
}
export interface RuleDef<N extends string, S, X> extends Omit<Rule<N, S, X>, 'actions' | 'conditions'> {
  /** The engine's triggers (`RuleEventSpec`): every type the engine knows is accepted here; the rule runs on any of them. */
  events: RuleEventSpec[];
  /** All must be met (an OR group is one condition: `k.anyOf(…)`). */
  conditions?: ConditionDef<N, S, X>[];
  /** Launch's exceptions: the rule does not run when any of these is met. */
  exceptions?: ConditionDef<N, S, X>[];
  actions: ActionDef<N, S, X>[];
}

/** The services a container uses: how to build them once per engine, and how the engine reaches them outside rules. */
export interface ServicesDef<S> {
  create(ctx: EngineContext): S;
  hooks?(services: S): ContainerHooks;
}

/** Helpers for rules, typed by the container's data element names `N`. */
export interface Kit<N extends string, S, X> {
  /** A text whose `%tokens%` must name data elements (checked by the compiler), returned as is. */
  text<const T extends string>(t: CheckedText<T, N>): T;
  /** An analytics variable map whose `%tokens%` must name data elements. */
  variables<const V extends VariableMap>(map: CheckedMap<V, N>): V;
  /** A condition: the data element's value equals `value` (strict), or is one of `value`s. */
  valueIs(name: N, value: unknown | readonly unknown[]): ConditionDef<N, S, X>;
  /**
   * A condition comparing a data element's value with `value` by one of Launch's Value Comparison
   * operators (`equals`, `contains`, `startsWith`, `endsWith`, `matchesRegex`, `lessThan`,
   * `greaterThanOrEqual`, `isTruthy`…, and their `doesNot…` forms); `value` may hold `%tokens%`.
   * The comparison is the Launch runtime's own (src/launch/conditions.ts `compare`).
   */
  compare(name: N, operator: Operator, value?: unknown, o?: { caseInsensitive?: boolean; negate?: boolean }): ConditionDef<N, S, X>;
  /** An OR group: met when any of `conditions` is (each with its own `negate`). */
  anyOf(...conditions: ConditionDef<N, S, X>[]): ConditionDef<N, S, X>;
  /** A condition that is met when `condition` is not. */
  not(condition: ConditionDef<N, S, X>): ConditionDef<N, S, X>;
  /** A condition from a function. */
  when(name: string, fn: (ctx: Ctx<N, S, X>) => boolean | Promise<boolean>): ConditionDef<N, S, X>;
  /**
   * A page condition: `fn` runs on the page when the bridge takes the snapshot of an event of this
   * rule (written into offtag.js as source text, like `pageCode`), with the event and, for a page
   * trigger's event, the element it matched; the rule runs on when its result is truthy. For a test that needs the page (an element, a page global); `when` runs in the worker.
   */
  pageCondition(name: string, fn: (event: EngineEvent, element?: Element) => unknown): ConditionDef<N, S, X>;
  /** An action from a function. */
  run(name: string, fn: (ctx: Ctx<N, S, X>) => void | Promise<void>): ActionDef<N, S, X>;
  /** Action: an analytics page view (`t`) with these variables (needs `adobeServices`). */
  pageView(map: VariableMap, name?: string): ActionDef<N, S & Services, X>;
  /** Action: an analytics custom link (`tl`, type `o`) named by `linkName` (tokens allowed). */
  link(linkName: string, map: VariableMap, o?: LinkOptions & { name?: string }): ActionDef<N, S & Services, X>;
  /** Action: start the visitor-ID service (give its rule a low `order`, Library Loaded). */
  startVisitor(): ActionDef<N, S & Services, X>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ContainerBase<D extends Record<string, DataElement<any, any>>, V, S, X> {
  /** Names the container in `_satellite.buildInfo` and in the build's messages. */
  name: string;
  version?: string;
  /** `_satellite.buildInfo.buildDate` (ISO 8601); absent: the time of each build. */
  buildDate?: string;
  /**
   * Defaults of the container's own settings and of the engine's (`reportSuites`, `currency`,
   * `brand`…): a page overrides them with `window.offtagConfig`, checked against these types.
   */
  settings?: SettingsDef<X>;
  /** Extra checks of settings by dotted path (see `Container.settingChecks`). */
  settingChecks?: Record<string, (value: unknown) => string | undefined>;
  /** sessionStorage keys read by function data elements (`{brand}` follows the brand setting). */
  sessionKeys?: string[];
  dataElements: D;
  /**
   * Data elements computed from those of `dataElements`: a function of the element helpers typed
   * with their names and the container's settings, so `ctx.get('sektion')` is an error and no
   * name is written twice.
   */
  derived?: (e: Elements<Extract<keyof D, string>, OwnSettings<X>>) => V;
  services?: ServicesDef<S>;
  /** An imported Launch container's module host (src/launch `pageSide`): what offtag build writes into offtag.js besides the page reads. */
  page?: PageSide;
}

/** A container, its rules an array or a function of the kit (`rules: (k) => [...]`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ContainerDef<D extends Record<string, DataElement<any, any>>, S, X, V = object> extends ContainerBase<D, V, S, X> {
  /** The rules, or a function of the kit that returns them. */
  rules: RuleDef<Extract<keyof D | keyof V, string>, S, OwnSettings<X>>[] | ((kit: Kit<Extract<keyof D | keyof V, string>, S, OwnSettings<X>>) => RuleDef<Extract<keyof D | keyof V, string>, S, OwnSettings<X>>[]);
}

/** A defined container: the engine's `Container`, its settings typed. */
export type DefinedContainer<N extends string, S, X> = Container<N, S, X>;

/** `rules: (k) => [...]`. */
type KitRules<N extends string, S, X> = (kit: Kit<N, S, X>) => RuleDef<N, S, X>[];

/** Only texts with a `%token%` go into `uses` (a plain text is a constant, not a name). */
const hasToken = (text: string) => text.includes('%');

const ANALYTICS = 'the analytics service of adobeServices()';

/** An operator Launch does not have, or a regular expression that does not compile (a value without `%tokens%`). */
function comparisonProblem(operator: string, value: unknown): { problem?: string } {
  if (!(OPERATORS as readonly string[]).includes(operator)) return { problem: `"${operator}" is no comparison operator (the operators: ${OPERATORS.join(', ')})` };
  if (/Regex$/.test(operator) && typeof value === 'string' && !value.includes('%'))
    try {
      new RegExp(value);
    } catch (err) {
      return { problem: `${JSON.stringify(value)} is not a regular expression (${(err as Error).message})` };
    }
  return {};
}

function kit<N extends string, S, X>(): Kit<N, S, X> {
  type A = ActionDef<N, S & Services, X>;
  return {
    text: (t) => t as never,
    variables: (map) => map as never,
    valueIs: (name, value) => ({
      name: `${name} is ${JSON.stringify(value)}`,
      uses: [name],
      def: { valueIs: name, value },
      fn: (ctx) => (Array.isArray(value) ? value.includes(ctx.get(name)) : ctx.get(name) === value),
    }),
    compare: (name, operator, value, o = {}) => ({
      name: `${name} ${operator}${value === undefined ? '' : ` ${JSON.stringify(value)}`}`,
      ...comparisonProblem(operator, value),
      uses: [name, ...(typeof value === 'string' && value.includes('%') ? [value] : [])],
      ...(o.negate ? { negate: true } : {}),
      def: { compare: name, operator, value, options: o },
      fn: (ctx) => compare(operator, ctx.get(name), typeof value === 'string' ? ctx.replaceTokens(value) : value, o.caseInsensitive === true),
    }),
    anyOf: (...conditions) => {
      const page = conditions.find((c) => !c.fn);
      return {
        name: `any of (${conditions.map((c) => c.name).join(', ')})`,
        // The build refuses it at the group's line (the page answers a page condition before the worker runs a group).
        ...(page ? { problem: `"${page.name}" is a page condition, which cannot be in a group (give it its own place in the rule's conditions)` } : {}),
        uses: conditions.flatMap((c) => c.uses ?? []),
        def: { anyOf: conditions.map((c) => ({ ...(c.def ?? { name: c.name }), ...(c.negate ? { negate: true } : {}) })) },
        fn: async (ctx) => {
          for (const c of conditions) if (c.fn && (await c.fn(ctx)) !== (c.negate === true)) return true;
          return false;
        },
      };
    },
    not: (c) => ({ ...c, name: `not ${c.name}`, negate: !c.negate }),
    when: (name, fn) => ({ name, fn }),
    pageCondition: (name, code) => ({ name, page: { from: 'code', code } }),
    run: (name, fn) => ({ name, fn }),
    pageView: (map, name = 'Send page view beacon'): A => ({
      name,
      needs: ANALYTICS,
      uses: Object.values(map).map(String).filter(hasToken),
      def: { pageView: map },
      fn: (ctx) => send(ctx, pageViewHit(map, ctx)),
    }),
    link: (linkName, map, o = {}): A => ({
      name: o.name ?? 'Send link beacon',
      needs: ANALYTICS,
      uses: [linkName, ...Object.values(map)].map(String).filter(hasToken),
      def: { link: linkName, variables: map, options: o },
      fn: (ctx) => send(ctx, linkHit(linkName, map, ctx, o)),
    }),
    startVisitor: (): A => ({
      name: 'Start the visitor service',
      needs: 'the visitor-ID service of adobeServices()',
      def: { startVisitor: true },
      // Not awaited: the ID call may take up to 30 s, past the action timeout.
      fn: (ctx) => {
        void ctx.services.visitor.start().catch((err: unknown) => {
          ctx.log('error', `The visitor service did not start: ${err instanceof Error ? err.message : String(err)}`);
        });
      },
    }),
  };
}

/** A rule's exceptions become conditions that must not be met (Launch's exception conditions), after its own. */
function withExceptions<N extends string, S, X>(rule: RuleDef<N, S, X>): Rule<N, S, X> {
  if (!rule.exceptions?.length) return rule as Rule<N, S, X>;
  const { exceptions, ...rest } = rule;
  return { ...rest, conditions: [...(rule.conditions ?? []), ...exceptions.map((c) => ({ ...c, name: `exception: ${c.name}`, negate: !c.negate }))] };
}

/** The session keys the bridge reads for a container: its own, and one per `session`-stored data element. */
export function sessionKeysOf(keys: readonly string[], elements: Record<string, DataElement<string, never>>): string[] {
  const out = [...keys];
  for (const [name, de] of Object.entries(elements)) {
    if (de.type === 'session' && typeof de.key === 'string') out.push(de.key);
    if (de.storage === 'session') out.push(storedKey(name));
  }
  return [...new Set(out)];
}

/**
 * A container as one typed object (docs/containers.md). Two signatures, so that the editor points
 * at a mistake inside `rules` (an event type, a field) in either form, the array of rules or
 * `rules: (k) => [...]`, the kit's form. TypeScript explains a call no signature matches by its
 * last signature, so the last takes both forms; its array is also a kit function only so that
 * every member of that union has a call signature, which TypeScript needs to follow a kit
 * function's mistake into its body (a bare array in the union would leave the error at `rules`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an element's own N is checked by its helper
export function defineContainer<const D extends Record<string, DataElement<any, any>>, S extends object = object, X extends object = object, V extends Record<string, DataElement<any, any>> = {}>(
  def: ContainerBase<D, V, S, X> & { rules: RuleDef<Extract<keyof D | keyof V, string>, S, OwnSettings<X>>[] },
): DefinedContainer<Extract<keyof D | keyof V, string>, S, OwnSettings<X>>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an element's own N is checked by its helper
export function defineContainer<const D extends Record<string, DataElement<any, any>>, S extends object = object, X extends object = object, V extends Record<string, DataElement<any, any>> = {}>(
  def: ContainerBase<D, V, S, X> & { rules: KitRules<Extract<keyof D | keyof V, string>, S, OwnSettings<X>> | (RuleDef<Extract<keyof D | keyof V, string>, S, OwnSettings<X>>[] & KitRules<Extract<keyof D | keyof V, string>, S, OwnSettings<X>>) },
): DefinedContainer<Extract<keyof D | keyof V, string>, S, OwnSettings<X>>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function defineContainer(def: ContainerDef<Record<string, DataElement<any, any>>, object, object, Record<string, DataElement<any, any>>>): DefinedContainer<string, object, object> {
  type N = string;
  type S = object;
  type X = object;
  const dataElements = {
    ...(def.dataElements as unknown as Record<N, DataElement<N, X>>),
    ...((def.derived?.(elements()) ?? {}) as Record<N, DataElement<N, X>>),
  };
  const services = def.services;
  return {
    name: def.name,
    ...(def.version !== undefined ? { version: def.version } : {}),
    ...(def.buildDate !== undefined ? { buildDate: def.buildDate } : {}),
    sessionKeys: sessionKeysOf(def.sessionKeys ?? [], dataElements),
    ...(def.settings ? { settings: def.settings as Record<string, unknown> } : {}),
    ...(def.settingChecks ? { settingChecks: def.settingChecks } : {}),
    dataElements,
    rules: (typeof def.rules === 'function' ? def.rules(kit<N, S, X>()) : def.rules).map(withExceptions),
    ...(services ? { services: (ctx: EngineContext) => services.create(ctx) } : {}),
    ...(services?.hooks ? { hooks: (s: S) => services.hooks!(s) } : {}),
    ...(def.page ? { page: def.page } : {}),
  };
}
