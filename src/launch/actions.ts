/** Core's custom code action in the worker (on the page: page-steps.ts), script loading, and the rule itself. */
import type { RuleEventSpec } from '../worker-engine/core/types.ts';
import { run, type Factory } from './custom-code.ts';
import { action, resolve, type ActionOptions, type LaunchAction, type LaunchCondition, type LaunchRule } from './types.ts';


export function customAction(factory: Factory, o?: ActionOptions) {
  return action('Custom Code', (ctx) => {
    const result = run(factory, ctx, ctx.rule.name);
    // A promise returned by the code holds the next action back, as turbine waits for it.
    return result && typeof (result as Promise<void>).then === 'function' ? (result as Promise<void>) : undefined;
  }, o);
}

/** A script an extension or an HTML custom code block loads: a third-party script effect. */
export function loadScript(id: string, src: string, o?: ActionOptions) {
  return action(`Load ${src}`, (ctx) => ctx.emit({ type: 'script', id, src: String(resolve(ctx, src)) }), o);
}

export interface LaunchRuleDef {
  name: string;
  events: RuleEventSpec[];
  order?: number;
  conditions?: LaunchCondition[];
  actions: LaunchAction[];
}

export function rule(def: LaunchRuleDef): LaunchRule {
  return { name: def.name, events: def.events, ...(def.order !== undefined && def.order !== 50 ? { order: def.order } : {}), conditions: def.conditions ?? [], actions: def.actions };
}

/** What an imported container's `_satellite` tells of its Launch library (`buildInfo`, `property`, `company`). */
export interface ImportedFacts {
  buildInfo: Record<string, unknown>;
  property: { name?: string; id?: string };
  /** The library's company (its `orgId`, `dynamicCdnEnabled`…), as turbine's `_satellite.company`. */
  company: { orgId?: string; [k: string]: unknown };
  /** The Experience Cloud ID Service extension's org, when the library has the extension (`_satellite.getVisitorId()`). */
  visitor?: string;
}

/**
 * The container of an imported Launch library: its `_satellite` is turbine's (offtag build writes
 * these facts into offtag.js) and gets every data element's latest value with each event. (Its
 * rules' and data elements' messages print only in debug mode, as every container's unless it
 * says `alwaysLog`, as turbine's logger prints them.)
 */
export function imported<C extends object>(container: C, launch: ImportedFacts): C & { launch: ImportedFacts; getVarValues: 'every-event' } {
  return { ...container, launch, getVarValues: 'every-event' };
}
