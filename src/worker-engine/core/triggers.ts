/**
 * Page triggers (docs/triggers.md): which listeners the bridge must install for a container's
 * rules, and which rule events a `trigger` or `data-element-change` event matches.
 *
 * Each rule event of a page trigger becomes one listener, checked here (one function per type),
 * with its fields in a fixed order; its key is that listener as JSON, so two rule events that
 * say the same thing share one listener and both run when it fires. The bridge sends the key
 * back with each `trigger` event.
 */
import type { ElementProperty, EngineEvent, TriggerListener } from '../../protocol.ts';
import type { BubbleOptions, PageTriggerSpec, Rule, RuleEventSpec } from './types.ts';

type Spec<T extends PageTriggerSpec['type']> = Extract<PageTriggerSpec, { type: T }>;
type Unkeyed = TriggerListener extends infer L ? (L extends TriggerListener ? Omit<L, 'key' | 'rules'> : never) : never;
/** A listener without its key, or what is wrong with the rule event. */
type Checked = Unkeyed | string;

const text = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const positive = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;
const flag = (v: unknown, name: string): string | undefined =>
  v === undefined || typeof v === 'boolean' ? undefined : `${name} must be true or false`;

/**
 * The element property filter, each entry's fields in a fixed order (so equal filters give equal
 * keys), or what is wrong with it: a name, a text value, a regular expression that compiles.
 */
function properties(list: unknown): { properties?: ElementProperty[] } | string {
  if (list === undefined) return {};
  if (!Array.isArray(list)) return 'properties must be a list of {name, value, valueIsRegex}';
  const out: ElementProperty[] = [];
  for (const p of list as Array<Partial<ElementProperty>>) {
    if (!p || !text(p.name)) return 'each element property needs a name';
    if (typeof p.value !== 'string') return `element property "${p.name}" needs a text value`;
    const wrong = flag(p.valueIsRegex, 'valueIsRegex');
    if (wrong) return wrong;
    if (p.valueIsRegex) {
      try {
        new RegExp(p.value, 'i');
      } catch {
        return `element property "${p.name}": ${JSON.stringify(p.value)} is not a regular expression`;
      }
    }
    out.push({ name: p.name, value: p.value, ...(p.valueIsRegex ? { valueIsRegex: true } : {}) });
  }
  return out.length ? { properties: out } : {};
}

/** The bubbling options that differ from Adobe's defaults, and the property filter, in a fixed order (so equal options give equal keys). */
function bubbling(spec: BubbleOptions): BubbleOptions | string {
  const props = properties(spec.properties);
  if (typeof props === 'string') return props;
  const out: BubbleOptions = { ...props };
  for (const name of ['bubbleFireIfParent', 'bubbleFireIfChildFired', 'bubbleStop'] as const) {
    const wrong = flag(spec[name], name);
    if (wrong) return wrong;
  }
  if (spec.bubbleFireIfParent === false) out.bubbleFireIfParent = false;
  if (spec.bubbleFireIfChildFired === false) out.bubbleFireIfChildFired = false;
  if (spec.bubbleStop === true) out.bubbleStop = true;
  return out;
}

function click(spec: Spec<'click'>): Checked {
  if (!text(spec.selector)) return 'selector must be a CSS selector';
  const b = bubbling(spec);
  return typeof b === 'string' ? b : { type: 'click', selector: spec.selector, ...b };
}

function customEvent(spec: Spec<'custom-event'>): Checked {
  if (!text(spec.name)) return 'name must be the event name';
  const target = spec.target ?? 'window';
  if (target !== 'window' && target !== 'document') return 'target must be "document" or "window"';
  if (spec.selector !== undefined && !text(spec.selector)) return 'selector must be a CSS selector';
  const b = bubbling(spec);
  if (typeof b === 'string') return b;
  return { type: 'custom-event', name: spec.name, target, ...(spec.selector ? { selector: spec.selector } : {}), ...b };
}

function formSubmit(spec: Spec<'form-submit'>): Checked {
  if (spec.selector !== undefined && !text(spec.selector)) return 'selector must be a CSS selector';
  const b = bubbling(spec);
  if (typeof b === 'string') return b;
  return { type: 'form-submit', ...(spec.selector ? { selector: spec.selector } : {}), ...b };
}

function elementVisible(spec: Spec<'element-visible'>): Checked {
  if (!text(spec.selector)) return 'selector must be a CSS selector';
  const wrong = flag(spec.everyEntry, 'everyEntry');
  if (wrong) return wrong;
  const props = properties(spec.properties);
  if (typeof props === 'string') return props;
  if (spec.delay !== undefined && !positive(spec.delay)) return 'delay must be a number of milliseconds above 0';
  return { type: 'element-visible', selector: spec.selector, ...(spec.everyEntry ? { everyEntry: true } : {}), ...props, ...(spec.delay ? { delay: spec.delay } : {}) };
}

function scrollDepth(spec: Spec<'scroll-depth'>): Checked {
  if (!positive(spec.percent) || spec.percent > 100) return 'percent must be a number above 0, at most 100';
  return { type: 'scroll-depth', percent: spec.percent };
}

function timer(spec: Spec<'timer'>): Checked {
  if (!positive(spec.ms)) return 'ms must be a number of milliseconds above 0';
  const limit = spec.limit ?? 1;
  if (!Number.isInteger(limit) || limit < 0) return 'limit must be a whole number (0: no limit)';
  return { type: 'timer', ms: spec.ms, limit };
}

function elementExists(spec: Spec<'element-exists'>): Checked {
  if (!text(spec.selector)) return 'selector must be a CSS selector';
  const props = properties(spec.properties);
  return typeof props === 'string' ? props : { type: 'element-exists', selector: spec.selector, ...props };
}

function hover(spec: Spec<'hover'>): Checked {
  if (!text(spec.selector)) return 'selector must be a CSS selector';
  if (spec.delay !== undefined && !(typeof spec.delay === 'number' && Number.isFinite(spec.delay) && spec.delay >= 0)) return 'delay must be a number of milliseconds (0: at once)';
  const b = bubbling(spec);
  return typeof b === 'string' ? b : { type: 'hover', selector: spec.selector, ...(spec.delay ? { delay: spec.delay } : {}), ...b };
}

function mediaTimePlayed(spec: Spec<'media-time-played'>): Checked {
  const unit = spec.unit ?? 'second';
  if (unit !== 'second' && unit !== 'percent') return 'unit must be "second" or "percent"';
  if (!positive(spec.amount) || (unit === 'percent' && spec.amount > 100)) return `amount must be a number above 0${unit === 'percent' ? ', at most 100' : ''}`;
  if (spec.selector !== undefined && !text(spec.selector)) return 'selector must be a CSS selector';
  const b = bubbling(spec);
  if (typeof b === 'string') return b;
  return { type: 'media-time-played', amount: spec.amount, unit, ...(spec.selector ? { selector: spec.selector } : {}), ...b };
}

const FLAVORS = ['acdl', 'gtm', 'dlm'];
function dataLayerPush(spec: Spec<'data-layer-push'>): Checked {
  if (!text(spec.global) || !/^[A-Za-z_$][\w$]*$/.test(spec.global)) return 'global must be the name of a page global (adobeDataLayer, dataLayer)';
  if (spec.event !== undefined && !text(spec.event)) return 'event must be the name of the pushed event (absent: every event)';
  const flavor = spec.flavor ?? (spec.global === 'adobeDataLayer' ? 'acdl' : 'gtm');
  if (!FLAVORS.includes(flavor)) return `flavor must be one of ${FLAVORS.join(', ')}`;
  return { type: 'data-layer-push', global: spec.global, ...(spec.event !== undefined ? { event: spec.event } : {}), flavor };
}

const CHECKS: { [T in Exclude<PageTriggerSpec['type'], 'data-element-change'>]: (spec: Spec<T>) => Checked } = {
  click,
  'custom-event': customEvent,
  'form-submit': formSubmit,
  'element-visible': elementVisible,
  'scroll-depth': scrollDepth,
  timer,
  'history-change': () => ({ type: 'history-change' }),
  'element-exists': elementExists,
  hover,
  'media-time-played': mediaTimePlayed,
  'data-layer-push': dataLayerPush,
};

/** Whether a rule event is one the bridge observes (a link click without a selector is today's automatic one). */
export function isPageTrigger(spec: RuleEventSpec): spec is Exclude<PageTriggerSpec, Spec<'data-element-change'>> {
  if (spec.type === 'click') return 'selector' in spec;
  return Object.hasOwn(CHECKS, spec.type);
}

const checked = new WeakMap<object, Checked>();
/** The listener a rule event asks for, or what is wrong with it (memoised per rule event object). */
export function listenerOf(spec: Exclude<PageTriggerSpec, Spec<'data-element-change'>>): Checked {
  let c = checked.get(spec);
  if (c === undefined) {
    c = (CHECKS[spec.type] as (s: typeof spec) => Checked)(spec);
    checked.set(spec, c);
  }
  return c;
}

/** A listener's key: the listener as JSON (fields in the order `listenerOf` puts them). */
export const listenerKey = (listener: Unkeyed): string => JSON.stringify(listener);

/** What is said, once, for a rule event that cannot be observed; the rest of the rule stands. */
export const badTrigger = (rule: string, type: string, why: string): string =>
  `Rule "${rule}": its "${type}" event is ignored: ${why}.`;

/** The listeners the container's rules need (each once, with the names of the rules it serves), and a message for each rule event that is wrong. */
export function listenersOf(rules: Array<Pick<Rule<string>, 'name' | 'events'>>): { listeners: TriggerListener[]; problems: string[] } {
  const byKey = new Map<string, TriggerListener>();
  const problems: string[] = [];
  for (const rule of rules)
    for (const spec of rule.events ?? []) {
      if (!isPageTrigger(spec)) continue;
      const l = listenerOf(spec);
      if (typeof l === 'string') {
        problems.push(badTrigger(rule.name, spec.type, l));
        continue;
      }
      const key = listenerKey(l);
      const listener = byKey.get(key) ?? byKey.set(key, { key, ...l, rules: [] } as TriggerListener).get(key)!;
      if (!listener.rules!.includes(rule.name)) listener.rules!.push(rule.name);
    }
  return { listeners: [...byKey.values()], problems };
}

const keys = new WeakMap<object, string | undefined>();
/** The key of a rule event's listener (undefined: not a page trigger, or a wrong one); memoised per rule event object. */
export function keyOf(spec: RuleEventSpec): string | undefined {
  if (keys.has(spec)) return keys.get(spec);
  const l = isPageTrigger(spec) ? listenerOf(spec) : undefined;
  const key = l === undefined || typeof l === 'string' ? undefined : listenerKey(l);
  keys.set(spec, key);
  return key;
}

/** Whether a page trigger's rule event is the one a `trigger` event came from. */
export function triggerMatches(spec: RuleEventSpec, event: Extract<EngineEvent, { type: 'trigger' }>): boolean {
  return keyOf(spec) === event.key;
}

/** The data elements whose changes some rule listens to, in the container's order. */
export function watchedElements(rules: Array<Pick<Rule<string>, 'events'>>): string[] {
  const names = new Set<string>();
  for (const rule of rules)
    for (const spec of rule.events ?? []) if (spec.type === 'data-element-change' && text(spec.name)) names.add(spec.name);
  return [...names];
}
