/** Applies effect batches from the worker: the only page writes Offtag makes. */
import type { Effect, EngineEvent, EngineInput, ReadSet } from '../protocol.ts';
import type { PageSideRuntime } from '../page-side/types.ts';
import type { applyRareEffect, RareEffect } from './rare-effects.ts';

export interface ApplyHooks {
  /** A message from a frame the engine created, as the worker's input (it checks the origin). */
  frameMessage(input: Extract<EngineInput, { type: 'frame-message' }>): void;
  reply(seq: number, effect: Extract<Effect, { type: 'reply' }>): void;
  vars: Record<string, unknown>;
  /** The data layer read set, once the worker has sent it (read-set.ts). */
  tree?: ReadSet | null;
  /** Where offtag-effects.js is (beside offtag.js). */
  base: string;
  /** The events port (to the worker) and the worker file: offtag-effects.js starts the sender beside it and hands its port over (rare-effects.ts `sender`). */
  port?: MessagePort;
  workerUrl?: string;
  /** offtag.js's `send` (a snapshot and one event): offtag-triggers.js sends the page triggers with it. */
  send?(event: EngineEvent, element?: Element): number;
  /** The page side, in an offtag.js built with page code: it runs the `launch` effects. */
  page?: PageSideRuntime;
}

/** Non-zero only in an offtag.js built with page code (src/main-bridge/index.ts): `launch` effects go to the page side. */
declare const __OFFTAG_PAGE__: unknown;

let rare: typeof applyRareEffect | undefined;
let waiting: RareEffect[] | undefined;

/** Iframes, pixels and scripts: loads offtag-effects.js once, then applies them in order. */
export function applyRare(e: RareEffect, hooks: ApplyHooks): void {
  if (rare) return rare(e, hooks);
  if (!waiting) {
    waiting = [];
    const s = document.createElement('script');
    s.src = hooks.base + 'offtag-effects.js';
    s.onload = () => {
      rare = (window as unknown as { offtagRareEffects: typeof applyRareEffect }).offtagRareEffects;
      for (const x of waiting!) rare(x, hooks);
    };
    s.onerror = () => {
      console.error(`Failed to load script ${s.src}`);
      // The worker still starts: cookies host-only for this page (the probe's answer for an IP or localhost).
      // (Only the probe has `done`; a held `clone` waits, and its events go out with pagehide's copy.)
      for (const x of waiting! as Array<{ done?(d: string): void }>) x.done?.('');
    };
    document.head.append(s);
  }
  waiting.push(e);
}

export function applyEffects(effects: Effect[], hooks: ApplyHooks): void {
  for (const e of effects) {
    switch (e.type) {
      case 'cookie-string':
        document.cookie = e.cookie;
        break;
      case 'read-set':
        hooks.tree = e.tree;
        break;
      case 'storage':
        try {
          if (e.value === null) sessionStorage.removeItem(e.key);
          else sessionStorage.setItem(e.key, e.value);
        } catch (err) {
          applyRare({ type: 'unwritten', key: e.key, name: (err as Error).name }, hooks);
        }
        break;
      case 'log':
        // The worker sends debug-level messages only in debug mode.
        console[e.level](e.message);
        break;
      case 'vars':
        Object.assign(hooks.vars, e.values);
        break;
      case 'reply':
        hooks.reply(e.seq, e);
        break;
      case 'hit':
        // The tracker made a hit: `window.s_objectID` has lived its life (AppMeasurement resets it).
        (window as { s_objectID?: unknown }).s_objectID = 0;
        break;
      default:
        // Iframes, pixels and scripts: requests, timers and the devtools feed never leave the worker (isBridgeEffect).
        if (__OFFTAG_PAGE__ && e.type == 'launch') hooks.page!.run(e);
        else applyRare(e as RareEffect, hooks);
    }
  }
}
