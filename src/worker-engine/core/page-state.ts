/**
 * The page as the engine knows it: the latest snapshot the bridge sent, the engine's own
 * sessionStorage writes the page has not applied yet, and what the bridge could not read.
 */
import type { Effect, Snapshot, SnapshotProblem } from '../../protocol.ts';
import type { OverlayJar } from './cookies.ts';
import type { SessionStore } from './types.ts';
import { dropCycles } from './data-layer.ts';
import { describePageProblem } from './page-reads.ts';

export function emptySnapshot(): Snapshot {
  return {
    seq: 0,
    applied: 0,
    time: 0,
    tz: 0,
    url: '',
    referrer: '',
    cookie: '',
    session: {},
    dataLayer: undefined,
    viewport: { width: 0, height: 0 },
    gpc: false,
  };
}

/** The words for what the bridge could not read (it sends only codes). */
export function describeProblem(p: SnapshotProblem, dataLayerName: string): string {
  switch (p.kind) {
    case 'session':
      return `sessionStorage is not readable (${p.detail}); the event goes on without it.`;
    case 'data-layer':
      return `window.${dataLayerName} is not readable (${p.detail}); the event goes on without it.`;
    case 'uncloneable': {
      const paths = p.paths.map((x) => x.replace(/^snapshot\.dataLayer/, dataLayerName).replace(/^event\./, 'the event\'s '));
      return `The data layer could not be copied as it is (${p.detail}). Left out: ${paths.join(', ') || '(nothing)'}.`;
    }
    case 'page':
      return describePageProblem(p);
  }
}

export interface PageState {
  snapshot(): Snapshot;
  /** sessionStorage: the snapshot's, under the engine's writes the page has not applied yet. */
  readonly session: SessionStore;
  /** A new snapshot: the cookie jar and the session forget the writes it already shows; its problems are logged. */
  take(s: Snapshot): void;
}

export function createPageState(deps: {
  cookies: OverlayJar;
  emit(effect: Effect): void;
  warn(message: string): void;
  nextBatch(): number;
  dataLayerName: string;
}): PageState {
  let snapshot = emptySnapshot();
  const overlay = new Map<string, { value: string | null; batch: number }>();
  return {
    snapshot: () => snapshot,
    session: {
      get(key) {
        const w = overlay.get(key);
        if (w) return w.value;
        return snapshot.session[key] ?? null;
      },
      set(key, value) {
        overlay.set(key, { value, batch: deps.nextBatch() });
        deps.emit({ type: 'storage', key, value });
      },
    },
    take(s) {
      snapshot = s;
      deps.cookies.rebase(s.cookie, s.applied);
      for (const [key, w] of overlay) if (w.batch <= s.applied) overlay.delete(key);
      for (const p of s.problems ?? []) deps.warn(describeProblem(p, deps.dataLayerName));
      const { cycles } = dropCycles(s.dataLayer);
      if (cycles.length) deps.warn(`The data layer refers back to itself at ${cycles.join(', ')}; those references were dropped.`);
    },
  };
}
