/** s_fid: its shape at the edges of the random range, and which cookie values are taken as one. */
import { describe, expect, it } from 'vitest';
import { isFallbackId, newFallbackId } from '../../../src/worker-engine/analytics/fallback-id.ts';

describe('fallback visitor id (s_fid)', () => {
  it('first digit 0-7, 17th 0-3, uppercase hex, at both ends of the random range', () => {
    expect(newFallbackId(() => 0.9999)).toBe('7FFFFFFFFFFFFFFF-3FFFFFFFFFFFFFFF');
    expect(newFallbackId(() => 0)).toBe('0000000000000000-0000000000000000');
    expect(newFallbackId(() => 0.5)).toBe('4888888888888888-2888888888888888');
  });
  it('takes only a well-formed id from the cookie', () => {
    expect(isFallbackId('7FFFFFFFFFFFFFFF-3FFFFFFFFFFFFFFF')).toBe(true);
    expect(isFallbackId(undefined)).toBe(false);
    expect(isFallbackId('junk')).toBe(false);
    expect(isFallbackId('8FFFFFFFFFFFFFFF-3FFFFFFFFFFFFFFF')).toBe(false);
    // Nothing before or after the id.
    expect(isFallbackId('X7FFFFFFFFFFFFFFF-3FFFFFFFFFFFFFFF')).toBe(false);
    expect(isFallbackId('7FFFFFFFFFFFFFFF-3FFFFFFFFFFFFFFFX')).toBe(false);
  });
});
