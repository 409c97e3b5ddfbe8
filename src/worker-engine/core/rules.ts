/**
 * Rules: which rules an event triggers, in which order, and running their conditions and
 * actions (Adobe's Launch runtime, github.com/adobe/reactor-turbine). Rules run one after another in `order` (ties keep the container's
 * order); a failing or timed-out component is logged and stops only its own rule.
 */
import type { EngineEvent } from '../../protocol.ts';
import { conditionKey, pageValue } from './page-reads.ts';
import { triggerMatches } from './triggers.ts';
import type { Action, Condition, Rule, RuleContext, RuleEventSpec } from './types.ts';

/** Published Launch builds give every component this timeout (Adobe's Launch runtime, github.com/adobe/reactor-turbine). */
export const COMPONENT_TIMEOUT_MS = 2000;
/** Adobe's default rule order. */
export const DEFAULT_RULE_ORDER = 50;

export function eventMatches(spec: RuleEventSpec, event: EngineEvent): boolean {
  // Page triggers and data element changes (triggers.ts); a click with a selector is a page trigger, not a link click.
  if (event.type === 'trigger') return triggerMatches(spec, event);
  if (spec.type !== event.type) return false;
  if (spec.type === 'data-element-change') return spec.name === (event as Extract<EngineEvent, { type: 'data-element-change' }>).name;
  if (spec.type === 'click') return !('selector' in spec);
  return spec.type !== 'direct-call' || spec.id === (event as Extract<EngineEvent, { type: 'direct-call' }>).id;
}

/** The rules `event` triggers, in execution order (`sort` is stable: ties keep the container's order). */
export function rulesFor<N extends string, S>(rules: Rule<N, S>[], event: EngineEvent): Rule<N, S>[] {
  return rules
    .filter((rule) => rule.events.some((e) => eventMatches(e, event)))
    .sort((a, b) => (a.order ?? DEFAULT_RULE_ORDER) - (b.order ?? DEFAULT_RULE_ORDER));
}

class ComponentTimeout extends Error {}

/** Why a condition or an action failed, in Adobe's words for a timeout. */
function failure(err: unknown, kind: 'condition' | 'action', timeoutMs: number): string {
  if (err instanceof ComponentTimeout) {
    return `A timeout occurred because the ${kind} took longer than ${timeoutMs / 1000} seconds to complete.`;
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * Runs a component. A synchronous result needs no timer; a promise races a timer of the
 * engine's clock, so replays stay deterministic.
 */
async function runComponent<T>(
  fn: unknown,
  ctx: unknown,
  timeoutMs: number,
  sleep: (ms: number) => Promise<void>,
): Promise<T> {
  if (typeof fn !== 'function') throw new Error('Module did not export a function.');
  const result = fn(ctx);
  if (!result || typeof (result as Promise<T>).then !== 'function') return result as T;
  return Promise.race([
    result as Promise<T>,
    sleep(timeoutMs).then(() => {
      throw new ComponentTimeout();
    }),
  ]);
}

export interface RunOutcome {
  rule: string;
  fired: boolean;
  /** Why it stopped, when it did: a condition name, or an error text. */
  stoppedAt?: string;
}

export async function runRule<N extends string, S>(
  rule: Rule<N, S>,
  ctx: RuleContext<N, S>,
  sleep: (ms: number) => Promise<void>,
): Promise<RunOutcome> {
  const conditions = rule.conditions ?? ([] as Condition<N, S>[]);
  for (let i = 0; i < conditions.length; i++) {
    const cond = conditions[i];
    const timeoutMs = cond.timeout ?? COMPONENT_TIMEOUT_MS;
    let passed: boolean;
    try {
      // A page condition was evaluated on the page with the event's snapshot (page-reads.ts).
      passed = Boolean(cond.page ? pageValue(ctx.snapshot, 'c', conditionKey(rule.name, i)) : await runComponent<boolean>(cond.fn, ctx, timeoutMs, sleep));
    } catch (err) {
      ctx.log('error', `Failed to execute "${cond.name}" for "${rule.name}" rule. ${failure(err, 'condition', timeoutMs)}`);
      return { rule: rule.name, fired: false, stoppedAt: cond.name };
    }
    if (cond.negate) passed = !passed;
    if (!passed) {
      ctx.log('debug', `Condition "${cond.name}" for rule "${rule.name}" not met.`);
      return { rule: rule.name, fired: false, stoppedAt: cond.name };
    }
  }
  for (const action of rule.actions as Action<N, S>[]) {
    const timeoutMs = action.timeout ?? COMPONENT_TIMEOUT_MS;
    try {
      await runComponent<void>(action.fn, ctx, timeoutMs, sleep);
    } catch (err) {
      ctx.log('error', `Failed to execute "${action.name}" for "${rule.name}" rule. ${failure(err, 'action', timeoutMs)}`);
      return { rule: rule.name, fired: true, stoppedAt: action.name };
    }
  }
  ctx.log('debug', `Rule "${rule.name}" fired.`);
  return { rule: rule.name, fired: true };
}
