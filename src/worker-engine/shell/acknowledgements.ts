/**
 * Acknowledgements (docs/delivery.md): the bridge keeps each event until the worker says its
 * beacons are safe, and writes the ones it still keeps to localStorage on pagehide. The worker
 * commits the page's beacons with its marker (`BeaconSink.commit`), then says how far it got.
 */
import type { EngineInput } from '../../protocol.ts';
import type { BeaconSink } from './types.ts';

/** While a hit waits (for the visitor ids), acknowledgements look again this often. */
export const ACK_RECHECK_MS = 250;

export interface Acknowledger {
  /** An input was handled: the events up to its seq are done. */
  handled(input: EngineInput): void;
  /** A beacon of this page was made (whichever path made it): the next task commits it. */
  beaconMade(): void;
  /** Commits and acknowledges the events handled so far, once no hit of theirs is pending. */
  acknowledge(rechecking?: boolean): void;
  /** An acknowledgement is about to be posted: its commit is being written, or starts in the next task (a beacon just made). */
  busy(): boolean;
}

export interface AcknowledgerOptions {
  beacons: BeaconSink;
  /** Names this page in the store's markers. */
  pid: string;
  /** Hits that left the engine's events and have no beacon yet (the container's hook). */
  pendingHits(): number;
  /** Settles once the orphans handed over at init are finished (every acknowledgement covers them). */
  orphansDone(): Promise<void>;
  /** Tells the page: every event up to `seq` is safe. */
  post(seq: number): void;
  /** A commit ended without telling the page anything new, or a look started none: what waited for an acknowledgement (`busy`) may go. */
  settled?(): void;
  /** False while the events the page posted before the worker started are being handled: their acknowledgement is one, after the last (page-link.ts `starting`). */
  ready?(): boolean;
}

export function createAcknowledger(o: AcknowledgerOptions): Acknowledger {
  const { beacons } = o;
  /** The highest seq handled, and the highest acknowledged (or being committed). */
  let done = 0;
  let asked = 0;
  /** The highest seq the page was told. */
  let said = 0;
  /** A beacon of this page waits for the next commit (one that came after the last event's acknowledgement: a late batch). */
  let fresh = false;
  let recheck: ReturnType<typeof setTimeout> | undefined;
  let recheckMs = 0;
  /** Commits written and not yet answered. */
  let committing = 0;
  function acknowledgeSoon(ms = 0): void {
    if (recheck !== undefined) {
      if (recheckMs <= ms) return;
      clearTimeout(recheck);
    }
    recheckMs = ms;
    recheck = setTimeout(() => {
      recheck = undefined;
      acknowledge(true);
      // No commit started (a hit still waits): what waited for this one goes now.
      if (!ms && !committing) o.settled?.();
    }, ms);
  }
  function acknowledge(rechecking = false): void {
    if ((done <= asked && !fresh) || !beacons.commit || o.ready?.() === false) return;
    // A hit that just left counts as pending until its chain settles (a few microtasks): look
    // again after them, then every ACK_RECHECK_MS while a hit waits for the visitor ids (its
    // beacon, when it leaves, asks again at once).
    if (o.pendingHits() > 0) return acknowledgeSoon(rechecking ? ACK_RECHECK_MS : 0);
    fresh = false;
    const seq = (asked = done);
    // Acknowledgements are cumulative: one that a newer one follows is not posted (in a burst, one
    // message to the page instead of one per event; docs/runtime.md, "Messages per event"), nor one
    // the page already has (a late batch's commit: at load, the Page View's beacon waits for the
    // visitor ids and is committed after its event was acknowledged).
    committing++;
    void Promise.all([o.orphansDone(), beacons.commit(o.pid, seq)])
      .then(() => {
        committing--;
        if (asked > seq || seq <= said) return o.settled?.();
        said = seq;
        o.post(seq);
      })
      // A failed commit tells the page nothing (its events stay kept for the pagehide copy); what waited goes.
      .catch(() => {
        committing--;
        o.settled?.();
      });
  }
  return {
    handled(input) {
      if (input?.type === 'event' && input.snapshot?.seq > done) done = input.snapshot.seq;
    },
    beaconMade() {
      fresh = true;
      acknowledgeSoon();
    },
    acknowledge,
    busy: () => committing > 0 || (recheck !== undefined && recheckMs === 0),
  };
}
