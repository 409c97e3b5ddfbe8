/**
 * The parts of an imported Launch rule that run on the page (docs/import.md, "What stays on the
 * page"): Core's custom code that needs the page (JavaScript, HTML, an external code file loaded
 * from the library's host) and every other extension's action. The rule stays in the worker; when
 * such an action's turn comes, the worker sends the page a `launch` effect with the code as text
 * (its `%tokens%` replaced, as turbine replaces them in a module's settings), this event's values
 * of the data elements it names, and the event; offtag.js's page side runs it (src/page-side/steps.ts).
 * When the property sequences rule components (turbine's default), the rule waits for the page's
 * answer, and a step that fails stops its rule with turbine's words, as an action in the worker
 * does; otherwise the rest of the rule goes on and the page says what failed.
 */
import type { LaunchEffect, LaunchStep } from '../protocol.ts';
import type { ServicesDef } from '../container/define.ts';
import type { EngineContext, RuleEventSpec } from '../worker-engine/core/types.ts';
import { EXTENSION_EVENT } from '../page-side/event.ts';
import { launchEvent } from './custom-code.ts';
import { action, resolveDeep, type ActionOptions, type Ctx } from './types.ts';

/** How the worker reaches the page for a step: the service `withPage` adds. */
export interface PageChannel {
  /** Sends the step; with `wait`, resolves with the page's answer once it came (rejects with what failed there). */
  run(effect: Omit<LaunchEffect, 'type' | 'answer'>, wait: boolean): Promise<string | undefined>;
}

/** The container's services with the page channel its page steps need (the import writes `launch.withPage(adobeServices())`). */
export function withPage<S extends object>(def: ServicesDef<S>): ServicesDef<S & { page: PageChannel }> {
  return {
    create: (ctx) => ({ ...def.create(ctx), page: pageChannel(ctx) }),
    ...(def.hooks ? { hooks: (s: S) => def.hooks!(s) } : {}),
  };
}

export function pageChannel(ctx: Pick<EngineContext, 'emit' | 'nextId' | 'answer'>): PageChannel {
  return {
    run(effect, wait) {
      if (!wait || !ctx.answer) {
        ctx.emit({ type: 'launch', ...effect });
        return Promise.resolve(undefined);
      }
      const answer = ctx.nextId('page-step');
      const answered = ctx.answer(answer);
      ctx.emit({ type: 'launch', ...effect, answer });
      return answered.then((r) => {
        if (!r || r.status !== 200) throw new Error(r?.body || 'the page did not run it');
        return r.body;
      });
    },
  };
}

export interface PageStepOptions extends ActionOptions {
  /** The rule waits for the step (the property sequences rule components). */
  wait?: boolean;
  /** Data elements the code names with a literal `_satellite.getVar('…')`: their values for this event go with it. */
  names?: string[];
  /** The Core extension's CSP nonce (a `%token%` allowed). */
  nonce?: string;
}

/** The code's text with its `%tokens%` replaced (a whole-token text keeps its value, written as text). */
const tokensIn = (ctx: Ctx, text: string) => {
  const v = ctx.replaceTokens(text);
  return typeof v === 'string' ? v : String(v);
};

/**
 * A step on the page. `name`: the action's module's name, as turbine names it in its messages
 * (`Custom Code`, an extension's action's display name).
 */
export function pageStep(name: string, step: LaunchStep, o: PageStepOptions = {}) {
  const a = action(name, async (ctx) => {
    const page = (ctx.services as { page?: PageChannel }).page;
    if (!page) throw new Error('the container has no page channel for its page steps (write its services as launch.withPage(adobeServices()))');
    const resolved: LaunchStep =
      'js' in step && !step.fn
        ? { ...step, js: tokensIn(ctx, step.js) }
        : 'html' in step
          ? { html: tokensIn(ctx, step.html) }
          : 'module' in step
            ? { module: step.module, settings: resolveDeep(ctx, step.settings) }
            : step;
    const seq = ctx.snapshot.seq;
    // The devtools overlay shows the rule as run partly on the page, with the page's timing.
    ctx.emit({ type: 'monitor', name: 'rule-page-part', data: { rule: ctx.rule.name, block: name, seq } });
    void (await page.run(
      {
        step: resolved,
        name,
        rule: ctx.rule.name,
        seq,
        event: launchEvent(ctx.event, ctx.rule.name),
        ...(o.names?.length ? { values: Object.fromEntries(o.names.map((n) => [n, ctx.get(n)])) } : {}),
        ...(o.nonce ? { nonce: tokensIn(ctx, o.nonce) } : {}),
      },
      o.wait === true && o.delayNext !== false,
    ));
  }, o);
  return { ...a, page: true };
}

/** Core custom code that needs the page: JavaScript (`global`: run as written; `fn`: the code is a function's source). */
export const pageCode = (js: string, o: PageStepOptions & { global?: boolean; fn?: boolean } = {}) =>
  pageStep('Custom Code', { js, ...(o.global ? { global: true } : {}), ...(o.fn ? { fn: true } : {}) }, o);

/** Core custom code in HTML: the markup written at the end of the body, its scripts run in order. */
export const pageHtml = (html: string, o: PageStepOptions = {}) => pageStep('Custom Code', { html }, o);

/** Core custom code in a file on the library's host (`RC…-source.min.js`), loaded when the action runs, as turbine loads it. */
export const externalCode = (url: string, language: 'javascript' | 'html', o: PageStepOptions & { global?: boolean } = {}) =>
  pageStep('Custom Code', { url, language, ...(o.global ? { global: true } : {}) }, o);

/** Another extension's action, run by the page's module host with its settings (tokens replaced in the worker). */
export const moduleAction = (displayName: string, module: string, settings: unknown, o: PageStepOptions = {}) => pageStep(displayName, { module, settings }, o);

/** Another extension's event: its module runs on the page (the page's module host), and its trigger sends this direct call. */
export const extensionEvent = (extension: string, event: string, n: number): RuleEventSpec => ({ type: 'direct-call', id: `${EXTENSION_EVENT}${extension}.${event}:${n}` });
