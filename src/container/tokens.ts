/**
 * `%token%` checks at the type level: a text or a variable map that names a data element the
 * container does not have does not compile. TypeScript sees the names only when the text is a
 * literal; a computed string is checked by the build (validate.ts) instead.
 */
import { isEventToken } from '../worker-engine/core/event-tokens.ts';

/** `%this.…%`, `%target.…%`, `%event.…%`: the event's own tokens (docs/triggers.md), no data element needed. */
export type EventToken = `this.${string}` | `target.${string}` | `event.${string}`;

/** The first `%name%` of `T` that is not one of `N` (nor an event token), else `never`. */
export type UnknownToken<T extends string, N extends string> = T extends `${string}%${infer Name}%${infer Rest}`
  ? Name extends N | EventToken
    ? UnknownToken<Rest, N>
    : Name
  : never;

/** `T` itself when every token names a data element; otherwise the message the editor shows. */
export type CheckedText<T, N extends string> = T extends string
  ? [UnknownToken<T, N>] extends [never]
    ? T
    : `%${UnknownToken<T, N>}% names no data element`
  : T;

/** A map whose every string value passes `CheckedText`. */
export type CheckedMap<V, N extends string> = { [K in keyof V]: CheckedText<V[K], N> };

const TOKEN = /%([^%\n]+)%/g;

/** The names of the `%tokens%` in a text (what the build checks against the data elements); event tokens are left out. */
export function tokensIn(text: string): string[] {
  return [...text.matchAll(TOKEN)].map((m) => m[1]).filter((name) => !isEventToken(name));
}
