/** Core's custom code action (in the worker or on the page), script loading, and the rule itself. */
import type { Settings } from '../worker-engine/core/settings.ts';
import type { RuleEventSpec } from '../worker-engine/core/types.ts';
import { launchEvent, run, type Factory } from './custom-code.ts';
import { action, resolve, type ActionOptions, type LaunchAction, type LaunchCondition, type LaunchRule } from './types.ts';



export function customAction(factory: Factory, o?: ActionOptions) {
  return action('Custom Code', (ctx) => {
    const result = run(factory, ctx, ctx.rule.name);
    // A promise returned by the code holds the next action back, as turbine waits for it.
    return result && typeof (result as Promise<void>).then === 'function' ? (result as Promise<void>) : undefined;
  }, o);
}

const pageRuns = new WeakMap<object, number>();

/**
 * A custom code action that needs the page: a `script` effect that loads the container's
 * page-code.js (the setting `launchPageCode`, else `pageCodeUrl`) and calls `__offtagLaunch.run(block, event, values)`
 * with the values of the data elements the block names. The worker does not wait for it: it runs
 * on the page after the batch, off the rule's path.
 */
export function pageAction(block: string, names: string[], o?: ActionOptions, pageCodeUrl = '') {
  return action('Custom Code (page)', (ctx) => {
    const n = (pageRuns.get(ctx.services) ?? 0) + 1;
    pageRuns.set(ctx.services, n);
    const values = Object.fromEntries(names.map((name) => [name, ctx.get(name)]));
    const src = String((ctx.settings as Settings & { launchPageCode?: string }).launchPageCode || pageCodeUrl);
    if (!src) return ctx.log('error', `Custom code ${block} of rule "${ctx.rule.name}" needs the page, and no launchPageCode setting says where page-code.js is.`);
    const seq = ctx.snapshot.seq;
    ctx.emit({ type: 'script', id: `offtag-launch-${block}-${n}`, src, init: { fn: '__offtagLaunch.run', args: [block, launchEvent(ctx.event, ctx.rule.name), values, seq] } });
    // The devtools overlay shows the rule as run partly on the page, with page-code.js's timing.
    ctx.emit({ type: 'monitor', name: 'rule-page-part', data: { rule: ctx.rule.name, block, seq } });
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
  company: { orgId?: string };
}

/**
 * The container of an imported Launch library: its `_satellite` is turbine's (offtag build writes
 * these facts into offtag.js) and gets every data element's latest value with each event, and the
 * rules' and data elements' messages print only in debug mode, as turbine's logger prints them.
 */
export function imported<C extends object>(container: C, launch: ImportedFacts): C & { launch: ImportedFacts; logs: 'debug'; getVarValues: 'every-event' } {
  return { ...container, launch, logs: 'debug', getVarValues: 'every-event' };
}
