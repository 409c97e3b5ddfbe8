/**
 * `%this.…%`, `%target.…%` and `%event.…%` tokens (Adobe's getVar, docs/triggers.md): a name that
 * is no data element and begins with `this.`, `target.` or `event.` reads the element a trigger
 * matched, the DOM event's target, or the event itself. The elements are the bridge's copies
 * (`ElementInfo`): `tagName`, `id`, `className`, `href`, `@text`, `@cleanText` and
 * `getAttribute(name)`; any other property is an attribute of that name or undefined.
 */
import type { ElementInfo, EngineEvent } from '../../protocol.ts';

const HOSTS = ['this', 'target', 'event'] as const;
const GET_ATTRIBUTE = /^getAttribute\((.+)\)$/;

const isElementInfo = (v: unknown): v is ElementInfo =>
  typeof v === 'object' && v !== null && typeof (v as ElementInfo).tagName === 'string' && typeof (v as ElementInfo).attributes === 'object';

/** One step of a property chain; `special`: `@text` and `@cleanText` (only `this.` has them, as in Adobe's). */
function step(value: unknown, prop: string, special: boolean): unknown {
  if (isElementInfo(value)) {
    if (special && prop === '@text') return value.text;
    if (special && prop === '@cleanText') return value.text.replace(/\s+/g, ' ').trim();
    const attr = GET_ATTRIBUTE.exec(prop);
    if (attr) return value.attributes[attr[1]] ?? null;
    if (prop in value && prop !== 'attributes' && prop !== 'text') return value[prop as keyof ElementInfo];
    return undefined;
  }
  return Object.prototype.hasOwnProperty.call(value, prop) ? (value as Record<string, unknown>)[prop] : undefined;
}

/** The value of `this.x.y`, `target.x` or `event.x` for `event`; `undefined` when the chain breaks. */
export function eventToken(name: string, event: EngineEvent): unknown {
  const chain = name.split('.');
  const host = chain.shift() as (typeof HOSTS)[number];
  let value: unknown = host === 'this' ? (event as { element?: unknown }).element : host === 'target' ? (event as { target?: unknown }).target : event;
  for (const prop of chain) {
    if (value === null || value === undefined || (typeof value !== 'object' && typeof value !== 'string')) return undefined;
    value = typeof value === 'string' ? (value as unknown as Record<string, unknown>)[prop] : step(value, prop, host === 'this');
  }
  return value;
}

/** Whether `name` is one of these tokens (a data element of the same name wins, as in Adobe's). */
export const isEventToken = (name: string): boolean => HOSTS.some((h) => name.startsWith(h + '.') && name.length > h.length + 1);

/** A token lookup that knows the event's tokens besides the data elements. */
export function withEventTokens(lookup: { has(name: string): boolean; get(name: string): unknown }, event: EngineEvent) {
  return {
    has: (name: string) => lookup.has(name) || isEventToken(name),
    get: (name: string) => (lookup.has(name) ? lookup.get(name) : eventToken(name, event)),
  };
}
