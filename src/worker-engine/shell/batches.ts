/**
 * The page's batches. Batches that end up with nothing for the page are not posted, and while
 * inputs wait the engine's batches are held and go out together, so the bridge numbers the
 * posted ones 1, 2, 3…, and its snapshots say how many of those it applied; the engine counts its
 * own. `createBatchNumbers` translates; `holdEffects` merges what waits; `createOutbox` holds and posts.
 */
import type { Effect } from '../../protocol.ts';

/** Page effects waiting to be posted, from the engine's batch `first` on. */
export interface HeldEffects {
  first: number;
  /** In order; an effect a later one replaced is undefined. */
  effects: Array<Effect | undefined>;
  /** Per key (page-writes.ts), the index of its latest write since the last effect that may look at the page. */
  last: Map<string, number>;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * Adds effects to those held: a write that a later one of the same cookie or sessionStorage key
 * (`keys[i]`) replaces is dropped, so the page writes each key once per batch instead of once per
 * event (docs/runtime.md, "Messages per event"); the tracker's `hit` has a key too (page-effects.ts).
 * Only between effects that cannot look at the page's state: a frame, a pixel, a script or a
 * reply keeps the writes before it.
 */
export function holdEffects(h: HeldEffects, effects: Effect[], keys: Array<string | undefined>): void {
  effects.forEach((e, i) => {
    const key = keys[i];
    if (!key && e.type !== 'vars' && e.type !== 'log') h.last.clear();
    const before = key ? h.last.get(key) : undefined;
    if (before !== undefined) h.effects[before] = undefined;
    const at = h.effects.push(e) - 1;
    if (key) h.last.set(key, at);
  });
}

export interface BatchNumbers {
  /** The engine made its batch `n`. */
  made(n: number): void;
  /** A batch holding the engine's batches from `first` on is posted: its number for the bridge. */
  posted(first: number): number;
  /**
   * The engine's batches the page has applied, when it says it applied the bridge's batches up to
   * `m`: batches with nothing for the page were "applied" at once, so up to the first one the
   * page's next posted batch holds, else the first one held (`heldFirst`), else all.
   */
  applied(m: number, heldFirst?: number): number;
}

export function createBatchNumbers(): BatchNumbers {
  /** `firstIn[m]`: the engine's number of the first batch the bridge's batch m holds. */
  const firstIn: number[] = [0];
  let lastEngineBatch = 0;
  return {
    made(n) {
      lastEngineBatch = n;
    },
    posted(first) {
      firstIn.push(first);
      return firstIn.length - 1;
    },
    applied: (m, heldFirst) => (m + 1 < firstIn.length ? firstIn[m + 1]! - 1 : heldFirst !== undefined ? heldFirst - 1 : lastEngineBatch),
  };
}

export interface Outbox {
  /** The engine's batch `n`, with its page effects (and their keys, `holdEffects`): held while inputs wait, else posted. */
  add(n: number, effects: Effect[], keys: Array<string | undefined>): void;
  /** Effects of the shell's own (the read set, the page triggers, start-up logs): they go with the next batch, or alone (unnumbered) when there is none. */
  extra(effects: Effect[]): void;
  /** Posts what is held, as the bridge's next numbered batch, with the acknowledgement waiting (`ack`), if any. */
  post(): void;
  /**
   * An acknowledgement for the page (every event up to `seq` is safe): it goes with the next
   * batch, now when no input waits (alone if nothing is held), else within `holdMs`.
   */
  ack(seq: number): void;
  /** Start-up is over while inputs still wait: what is held goes after `holdMs` at the latest, as in a burst. */
  arm(): void;
  /** `BatchNumbers.applied`, for the page's `applied` count. */
  applied(m: number): number;
}

/**
 * Holds page effects while inputs wait to be handled (a burst, or the events the page posted
 * before the worker started) and posts them together once none does (`post`), or after `holdMs`.
 */
export function createOutbox(o: {
  holdMs: number;
  /**
   * A backlog that outlasted one `holdMs` (its held effects went out on the timer while inputs
   * still waited): the next holds of the same backlog last this long (default `holdMs`), so a
   * long burst costs the page a few tasks rather than one a frame. Ends with the backlog.
   */
  backlogHoldMs?: number;
  waiting(): boolean;
  /** Start-up (page-link.ts `starting`): held without the `holdMs` limit; the page link posts (or `arm`s) when it ends. */
  starting?(): boolean;
  send(n: number, effects: Effect[], a?: number): void;
}): Outbox {
  const numbers = createBatchNumbers();
  let held: HeldEffects | undefined;
  let extras: Effect[] = [];
  let extrasTimer: ReturnType<typeof setTimeout> | undefined;
  /** The acknowledgement that goes with the next message (0: none). */
  let a = 0;
  /** The current backlog already had a batch go out on the timer (`backlogHoldMs`). */
  let long = false;
  const hold = () => (long ? (o.backlogHoldMs ?? o.holdMs) : o.holdMs);
  /** A hold's timer: what is held goes, and the backlog, if it goes on, holds longer. */
  const timed = () => {
    long = o.waiting();
    flush();
  };
  /** No input waits any more: the backlog, if there was one, is over. */
  const post = () => {
    long = false;
    flush();
  };
  const flush = () => {
    const x = extras;
    const seq = a;
    extras = [];
    a = 0;
    clearTimeout(extrasTimer);
    extrasTimer = undefined;
    if (!held) return void ((x.length || seq) && o.send(0, x, seq));
    const h = held;
    held = undefined;
    clearTimeout(h.timer);
    o.send(numbers.posted(h.first), [...x, ...h.effects.filter((e): e is Effect => e !== undefined)], seq);
  };
  return {
    add(n, effects, keys) {
      numbers.made(n);
      if (!effects.length) return;
      if (!held) {
        held = { first: n, effects: [], last: new Map() };
        if (o.waiting() && !o.starting?.()) held.timer = setTimeout(timed, hold());
      }
      holdEffects(held, effects, keys);
      if (!o.waiting()) post();
    },
    extra(effects) {
      if (!effects.length) return;
      extras.push(...effects);
      if (!o.waiting()) post();
      else if (!o.starting?.()) extrasTimer ??= setTimeout(timed, hold());
    },
    post,
    ack(seq) {
      a = Math.max(a, seq);
      if (!o.waiting()) post();
      else if (!held && !o.starting?.()) extrasTimer ??= setTimeout(timed, hold());
    },
    arm() {
      if (held) held.timer ??= setTimeout(timed, hold());
      else if (extras.length || a) extrasTimer ??= setTimeout(timed, hold());
    },
    applied: (m) => numbers.applied(m, held?.first),
  };
}
