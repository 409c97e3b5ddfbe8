import { describe, expect, it } from 'vitest';
import * as protocol from '../../../src/protocol.ts';

describe('protocol.ts', () => {
  it('holds types only: it exports no value (shared values live in protocol-keys.ts)', () => {
    expect(Object.keys(protocol)).toEqual([]);
  });
});
