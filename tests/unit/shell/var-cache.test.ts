import { describe, expect, it } from 'vitest';
import { createVarCache } from '../../../src/worker-engine/shell/var-cache.ts';

describe('getVar cache: only changed values travel again', () => {
  it('returns the values the bridge does not hold yet, and keeps every latest value', () => {
    const c = createVarCache();
    expect(c.update({ a: 1, b: { x: [1] } })).toEqual({ a: 1, b: { x: [1] } });
    expect(c.update({ a: 1, b: { x: [1] } })).toBeUndefined();
    expect(c.update({ a: 2, b: { x: [1] } })).toEqual({ a: 2 });
    expect(c.values()).toEqual({ a: 2, b: { x: [1] } });
  });
});
