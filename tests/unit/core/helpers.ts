import type { EngineEvent, PageInfo, Snapshot } from '../../../src/protocol.ts';
import { createEngine } from '../../../src/worker-engine/core/engine.ts';
import { emptySnapshot } from '../../../src/worker-engine/core/page-state.ts';
import type { Container, EngineEnv } from '../../../src/worker-engine/core/types.ts';
import { seededRandom } from '../../../tools/replay/replay.ts';
import { sha256Hex } from '../../../src/worker-engine/core/sha256.ts';

export const PAGE: PageInfo = {
  userAgent: 'test',
  language: 'en-US',
  screen: { width: 1920, height: 1080, colorDepth: 24 },
  cookieDomain: '',
  origin: 'https://shop.example.com',
  secure: true,
  cookiesEnabled: true,
};

export const T0 = Date.UTC(2026, 0, 15, 10, 0, 0);

export function testEnv(): EngineEnv & { clock: number } {
  const env = {
    clock: T0,
    now: () => env.clock,
    random: seededRandom(7),
    sha256: sha256Hex,
  };
  return env;
}

export function snap(over: Partial<Snapshot> = {}): Snapshot {
  return { ...emptySnapshot(), seq: 1, time: T0, url: 'https://shop.example.com/p', ...over };
}

/** `page` replaces facts of PAGE, e.g. `{ cookieDomain: '.example.com' }` for a real cookie domain. */
export function makeEngine<N extends string, X>(container: Container<N, object, X>, config: unknown = {}, page: Partial<PageInfo> = {}) {
  const env = testEnv();
  const engine = createEngine({ container, services: () => ({}), env, config, page: { ...PAGE, ...page } });
  let seq = 0;
  return {
    engine,
    env,
    /** Dispatch an event and return its effects. */
    async fire(event: EngineEvent, over: Partial<Snapshot> = {}) {
      const batch = await engine.dispatch({ type: 'event', event, snapshot: snap({ seq: ++seq, ...over }) });
      return batch;
    },
  };
}

export const logs = (effects: { type: string }[]) =>
  effects.filter((e): e is { type: 'log'; level: string; message: string } => e.type === 'log').map((e) => e.message);
