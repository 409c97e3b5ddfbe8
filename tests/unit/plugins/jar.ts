/** A cookie jar over a plain record that remembers every write, for the plugins' tests. */
import type { CookieJar } from '../../../src/worker-engine/core/types.ts';

export interface Write {
  name: string;
  value: string;
  expires?: number;
  path?: string;
  domain?: string;
}

export function memoryJar(initial: Record<string, string> = {}): CookieJar & { writes: Write[]; store: Record<string, string> } {
  const store = { ...initial };
  const writes: Write[] = [];
  return {
    store,
    writes,
    get: (name) => store[name],
    all: () => ({ ...store }),
    set(name, value, options = {}) {
      writes.push({ name, value, ...options });
      store[name] = value;
    },
    remove(name) {
      delete store[name];
    },
  };
}

export const T0 = Date.UTC(2026, 0, 15, 10, 30, 0);
export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;
