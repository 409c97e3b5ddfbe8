import { describe, expect, it } from 'vitest';
import { safeJson } from '../../../src/worker-engine/core/safe-json.ts';
import { replaceTokens } from '../../../src/worker-engine/core/tokens.ts';
import { resolveSettings } from '../../../src/worker-engine/core/settings.ts';

describe('safeJson: values from the page never throw', () => {
  it('writes a BigInt as its decimal string', () => {
    expect(safeJson({ n: 10n, list: [1n] })).toBe('{"n":"10","list":["1"]}');
  });

  it('cuts references back to an enclosing object, and keeps shared ones that are not cycles', () => {
    const shared = { v: 1 };
    const o: Record<string, unknown> = { a: shared, b: shared };
    o.self = o;
    (shared as Record<string, unknown>).up = o;
    expect(safeJson(o)).toBe('{"a":{"v":1},"b":{"v":1}}');
  });

  it('a throwing toJSON gives "[unserializable]", undefined gives "undefined"', () => {
    expect(safeJson({ toJSON: () => { throw new Error('no'); } })).toBe('"[unserializable]"');
    expect(safeJson(undefined)).toBe('undefined');
  });

  it('a token whose value holds a BigInt or a cycle is written, not thrown', () => {
    const cyclic: Record<string, unknown> = { n: 1n };
    cyclic.self = cyclic;
    expect(replaceTokens('v=%x%', { has: () => true, get: () => cyclic })).toBe('v={"n":"1"}');
  });

  it('an offtagConfig.environment that is a BigInt is reported, not thrown', () => {
    const { settings, problems } = resolveSettings({ environment: 5n });
    expect(settings.environment).toBe('production');
    expect(problems).toEqual(['offtagConfig.environment must be one of development, staging, production; got "5". Using "production".']);
  });
});
