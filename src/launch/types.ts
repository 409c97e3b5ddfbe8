/**
 * What every piece of the Launch runtime shares: the engine's types as an imported container uses
 * them (data element names are plain strings), turbine's token replacement in settings, and the
 * wrappers that turn a module's behaviour into an engine condition or action.
 */
import { safeJson } from '../worker-engine/core/safe-json.ts';
import type { Action, Condition, DataElement, DataElementContext, Rule, RuleContext } from '../worker-engine/core/types.ts';
import type { Services } from '../worker-engine/services.ts';

export type Name = string;
export type DCtx = DataElementContext<Name>;
export type Ctx = RuleContext<Name, Services>;
export type LaunchDataElement = DataElement<Name>;
export type LaunchRule = Rule<Name, Services>;
export type LaunchCondition = Condition<Name, Services>;
export type LaunchAction = Action<Name, Services>;

export const DAY_MS = 86_400_000;

/** A Launch setting value with its `%tokens%` replaced, as turbine hands settings to modules. */
export const resolve = (ctx: Ctx, v: unknown): unknown => (typeof v === 'string' ? ctx.replaceTokens(v) : v);

/** A module's settings with their `%tokens%` replaced everywhere, in objects and arrays too, as turbine hands them to the module. */
export const resolveDeep = (ctx: Ctx, v: unknown): unknown =>
  typeof v === 'string'
    ? ctx.replaceTokens(v)
    : Array.isArray(v)
      ? v.map((x) => resolveDeep(ctx, x))
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolveDeep(ctx, x)]))
        : v;

/** A value as text, as AppMeasurement and turbine's token replacement write it (objects as JSON). */
export const asString = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'object' ? safeJson(v) : String(v));

export interface ConditionOptions {
  negate?: boolean;
  timeout?: number;
}

export const condition = (name: string, fn: (ctx: Ctx) => boolean, o: ConditionOptions = {}): LaunchCondition => ({
  name,
  fn,
  ...(o.negate ? { negate: true } : {}),
  ...(o.timeout !== undefined ? { timeout: o.timeout } : {}),
});

export interface ActionOptions {
  timeout?: number;
  /** false: the next action does not wait for this one (turbine's `delayNext`). */
  delayNext?: boolean;
}

export function action(name: string, fn: (ctx: Ctx) => void | Promise<void>, o: ActionOptions = {}): LaunchAction {
  return {
    name,
    fn: o.delayNext === false ? (ctx) => void fn(ctx) : fn,
    ...(o.timeout !== undefined ? { timeout: o.timeout } : {}),
  };
}
