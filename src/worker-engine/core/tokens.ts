/**
 * `%name%` tokens (Adobe's Launch runtime, github.com/adobe/reactor-turbine, Adobe's replaceTokens): a string that is exactly one token
 * keeps the value's type; otherwise values are written into the string. Unknown names are left
 * as they are, so a typo shows in the output instead of vanishing.
 */
import { safeJson } from './safe-json.ts';

const TOKEN = /%([^%\n]+)%/g;

export function replaceTokens(
  text: string,
  lookup: { has(name: string): boolean; get(name: string): unknown },
): unknown {
  const whole = /^%([^%\n]+)%$/.exec(text);
  if (whole && lookup.has(whole[1])) return lookup.get(whole[1]);
  return text.replace(TOKEN, (token, name: string) => {
    if (!lookup.has(name)) return token;
    const v = lookup.get(name);
    return v === undefined || v === null ? '' : typeof v === 'object' ? safeJson(v) : String(v);
  });
}
