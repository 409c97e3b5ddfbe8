import { describe, expect, it } from 'vitest';
import type { EffectBatch, EngineInput, RequestEffect } from '../../../src/protocol.ts';
import { ORPHAN_KEY } from '../../../src/protocol-keys.ts';
import type { Engine } from '../../../src/worker-engine/core/engine.ts';
import { createHost } from '../../../src/worker-engine/host.ts';
import { finishOrphans, ORPHAN_POLL_MS } from '../../../src/worker-engine/shell/orphans.ts';
import type { BeaconSink, FeedEntry } from '../../../src/worker-engine/shell/types.ts';
import { makeSnapshot } from '../harness.ts';

const pageView = (seq: number): EngineInput => ({ type: 'event', event: { type: 'direct-call', id: 'Page View' }, snapshot: makeSnapshot({ seq }) });
const request = (id: string, kind: RequestEffect['kind'], fireAndForget?: boolean): RequestEffect => ({
  type: 'request',
  id,
  kind,
  method: 'GET',
  url: `https://collect.test/${id}`,
  credentials: 'include',
  ...(fireAndForget ? { fireAndForget } : {}),
});

/**
 * An engine shaped like the real one where it matters here: each event's hit waits for the ID
 * call; the hit stops counting as pending inside the dispatch of that call's answer, and the beacon
 * it built leaves with that dispatch's batch, which ends `answerMs` later (the real engine ends a
 * dispatch a macrotask after its work settled, core/waiting.ts; a loaded machine stretches that).
 */
function slowAnswerEngine(answerMs: number): Engine {
  let pending = 0;
  let n = 0;
  return {
    settings: {} as Engine['settings'],
    pendingHits: () => pending,
    async dispatch(input): Promise<EffectBatch> {
      if (input.type === 'event') {
        pending++;
        return { n: 0, effects: [request(`id-${input.snapshot.seq}`, 'id-service')] };
      }
      if (input.type === 'response') {
        pending--;
        await new Promise((r) => setTimeout(r, answerMs));
        return { n: 0, effects: [request(`beacon-${input.id.slice(3)}-${++n}`, 'beacon', true)] };
      }
      return { n: 0, effects: [] };
    },
  };
}

/** A beacon sink that records, in order, the beacons handed to it and the commits asked of it. */
function recordingSink(marker = 0): BeaconSink & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    send: (req, _d, page) => void calls.push(`send ${req.id} for ${page}`),
    commit: async (page, seq) => void calls.push(`commit ${page} up to ${seq}`),
    committed: async () => marker,
    resume: () => {},
    sender: () => {},
    queue: new Promise(() => {}),
  };
}

function run(sink: BeaconSink, engine: Engine, inputs: EngineInput[], feed: FeedEntry[] = []) {
  return finishOrphans({
    orphans: [[`${ORPHAN_KEY}dead`, JSON.stringify(inputs)]],
    beacons: sink,
    feed: (e) => feed.push(e),
    boot: (tag) => {
      // The worker shell's routing of an orphan engine's requests (shell/boot.ts): the ID call
      // answered at once, beacons to the sink for the dead page.
      const host = createHost(engine, {
        toBridge: () => {},
        request: async () => ({ status: 200, body: '{}' }),
        beacon: (req, delivered) => sink.send(req, delivered, tag),
        setTimer: (ms, fire) => setTimeout(fire, ms),
      });
      return { input: host.input, pendingHits: engine.pendingHits, busy: host.busy };
    },
    prepare: (i) => i,
  });
}

describe('finishOrphans: the events a closed page left', () => {
  it('commits the dead page\'s marker only once the beacons of its events reached the sink, even when a beacon leaves well after its hit stopped counting as pending', async () => {
    const sink = recordingSink();
    await run(sink, slowAnswerEngine(3 * ORPHAN_POLL_MS), [pageView(5), pageView(6)]);
    expect(sink.calls).toEqual(['send beacon-5-1 for dead', 'send beacon-6-2 for dead', 'commit dead up to 6']);
  });

  it('runs only the events after the dead page\'s stored marker, and says so in the feed', async () => {
    const sink = recordingSink(5);
    const feed: FeedEntry[] = [];
    await run(sink, slowAnswerEngine(0), [pageView(4), pageView(5), pageView(6)], feed);
    expect(sink.calls).toEqual(['send beacon-6-1 for dead', 'commit dead up to 6']);
    expect(feed).toContainEqual({ name: 'orphans', data: { page: 'dead', events: 3, finishing: 1 } });
  });
});

describe('createHost: busy', () => {
  it('is true from a network answer\'s dispatch start until its batch was routed, and false again after one that throws; an event\'s dispatch does not count', async () => {
    let release!: () => void;
    const routed: string[] = [];
    const engine: Engine = {
      settings: {} as Engine['settings'],
      pendingHits: () => 0,
      dispatch: async (input) => {
        if (input.type === 'timer') throw new Error('broken');
        await new Promise<void>((r) => (release = r));
        return { n: 0, effects: [request(input.type === 'event' ? 'e' : 'b', 'beacon', true)] };
      },
    };
    const host = createHost(engine, { toBridge: () => {}, request: async () => ({ status: 200, body: '' }), beacon: (r) => void routed.push(r.id), setTimer: () => {} });
    expect(host.busy()).toBe(false);
    const event = host.input(pageView(1));
    expect(host.busy()).toBe(false);
    release();
    await event;
    const answer = host.input({ type: 'response', id: 'id-1', response: { status: 200, body: '{}' } });
    expect(host.busy()).toBe(true);
    release();
    await answer;
    expect(routed).toEqual(['e', 'b']);
    expect(host.busy()).toBe(false);
    await expect(host.input({ type: 'timer', id: 't' })).rejects.toThrow('broken');
    expect(host.busy()).toBe(false);
  });
});
