/**
 * CSS selector syntax, checked when a container is built (a rule event's `selector`, a
 * `domAttribute`'s): what the browser would refuse at run time, said at build time instead.
 * css-selector-parser knows the current pseudo-classes and elements; a vendor-prefixed one
 * (`:-webkit-any`) is left to the browser.
 */
import { createParser } from 'css-selector-parser';

let strict: ReturnType<typeof createParser> | undefined;
let loose: ReturnType<typeof createParser> | undefined;

/** Why `selector` is not a CSS selector, or undefined when it is one. */
export function selectorProblem(selector: string): string | undefined {
  strict ??= createParser({ syntax: 'latest', substitutes: false });
  try {
    strict(selector);
    return undefined;
  } catch (err) {
    const message = String((err as Error).message).replace(/^css-selector-parser parse error: /, '');
    if (/Unknown pseudo-(class|element):? "?-/.test(message)) {
      loose ??= createParser({ syntax: 'progressive', substitutes: false });
      try {
        loose(selector);
        return undefined;
      } catch {
        /* the strict parser's message says it best */
      }
    }
    return message.replace(/\. Pos: (\d+)\.?$/, ' (at character $1)');
  }
}
