/** s_fid: its shape at the edges of the random range, and which cookie values are taken as one. */
import { describe, expect, it } from 'vitest';
import { isFallbackId, newFallbackId } from '../../../src/worker-engine/analytics/fallback-id.ts';

describe('fallback visitor id (s_fid)', () => {
  it('first digit 0-7, 17th 0-3, uppercase hex, at both ends of the random range', () => {
    expect(newFallbackId(() => 0.9999)).toBe('7FFFFFFFFFFFFFFF-3FFFFFFFFFFFFFFF');
    expect(newFallbackId(() => 0)).toBe('0000000000000000-0000000000000000');
    expect(newFallbackId(() => 0.5)).toBe('4888888888888888-2888888888888888');
  });
  it('draws the digits of the two halves in turn, as the library does', () => {
    const draws = [0.99, 0.99, 0, 0.5];
    let i = 0;
    expect(newFallbackId(() => draws[i++] ?? 0)).toBe('7000000000000000-3800000000000000');
  });
  it('takes any cookie value with a "-" in it, as AppMeasurement does', () => {
    expect(isFallbackId('7FFFFFFFFFFFFFFF-3FFFFFFFFFFFFFFF')).toBe(true);
    expect(isFallbackId('8FFF-x')).toBe(true);
    expect(isFallbackId(undefined)).toBe(false);
    expect(isFallbackId('junk')).toBe(false);
  });
});
