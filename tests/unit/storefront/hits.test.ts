/**
 * evaluateVariables, the storefront's variable mapping applied as the Launch analytics extension
 * does: a whole-token object value goes out as JSON, a mapping entry left undefined sends nothing,
 * and missing values are left out.
 */
import { describe, expect, it } from 'vitest';
import { evaluateVariables } from '../../../containers/storefront/hits.ts';
import { replaceTokens } from '../../../src/worker-engine/core/tokens.ts';

function ctxWith(values: Record<string, unknown>) {
  const lookup = { has: (n: string) => n in values, get: (n: string) => values[n] };
  return { replaceTokens: (text: string) => replaceTokens(text, lookup) } as unknown as Parameters<typeof evaluateVariables>[1];
}

describe('evaluateVariables', () => {
  it('sends an object a whole token gives as JSON, not "[object Object]"', () => {
    expect(evaluateVariables({ eVar9: '%cart%' } as never, ctxWith({ cart: { skus: ['a', 'b'] } }))).toEqual({ eVar9: '{"skus":["a","b"]}' });
  });
  it('sends numbers as text and leaves out undefined sources and missing values', () => {
    const mapping = { eVar1: '%n%', eVar2: undefined, eVar3: '%gone%', eVar4: '%empty%' } as never;
    expect(evaluateVariables(mapping, ctxWith({ n: 7, gone: null, empty: '' }))).toEqual({ eVar1: '7' });
  });
});
