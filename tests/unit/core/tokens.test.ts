/** `%name%` tokens: one whole token keeps the value's type; inside text, values are written in. */
import { describe, expect, it } from 'vitest';
import { replaceTokens } from '../../../src/worker-engine/core/tokens.ts';

const values: Record<string, unknown> = { n: 7, s: 'text', o: { a: 1 }, u: undefined, z: null, f: false, e: '' };
const lookup = { has: (name: string) => name in values, get: (name: string) => values[name] };

describe('replaceTokens', () => {
  it('a text that is one known token gives the value itself, of its type', () => {
    expect(replaceTokens('%n%', lookup)).toBe(7);
    expect(replaceTokens('%o%', lookup)).toBe(values.o);
    expect(replaceTokens('%u%', lookup)).toBeUndefined();
    expect(replaceTokens('%f%', lookup)).toBe(false);
  });

  it('inside text: numbers and booleans as text, objects as JSON, undefined and null as nothing', () => {
    expect(replaceTokens('a %n% b %s%', lookup)).toBe('a 7 b text');
    expect(replaceTokens('[%o%]', lookup)).toBe('[{"a":1}]');
    expect(replaceTokens('<%u%|%z%|%f%|%e%>', lookup)).toBe('<||false|>');
  });

  it('unknown names stay as written, whole or inside text', () => {
    expect(replaceTokens('%nope%', lookup)).toBe('%nope%');
    expect(replaceTokens('x %nope% %n%', lookup)).toBe('x %nope% 7');
  });

  it('a token does not span lines, and text without tokens is returned as it is', () => {
    expect(replaceTokens('%n\n%', lookup)).toBe('%n\n%');
    expect(replaceTokens('100% sure', lookup)).toBe('100% sure');
    expect(replaceTokens('%n%%s%', lookup)).toBe('7text');
  });
});
