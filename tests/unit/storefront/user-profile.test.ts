/** "cached user profile": an empty sessionStorage copy is absent, not a broken one. */
import { describe, expect, it } from 'vitest';
import { getVar, harness, logsOf } from '../harness.ts';

describe('data element "cached user profile", empty copy', () => {
  it('an empty acmeUserData gives the default "" without an error', async () => {
    const { value, batch } = await getVar(harness(), 'cached user profile', { session: { acmeUserData: '' } });
    expect(value).toBe('');
    expect(logsOf(batch, 'error')).toEqual([]);
  });
});
