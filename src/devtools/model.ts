/**
 * What the overlay shows, computed from what the page already keeps: the bridge's metrics, its
 * monitor feed (rule firings, beacons) and the worker's data element values. Pure functions, so
 * the overlay's React code only renders.
 */

export interface MonitorEntry {
  name: string;
  data: any;
}

export interface RuleFiring {
  seq: number;
  rule: string;
  event: string;
  outcome: 'fired' | 'condition not met' | 'action failed' | 'pending';
  stoppedAt?: string;
  /** Set when part of the rule ran on the page (an imported Launch rule's custom code, docs/import.md). */
  where?: 'worker and page';
  /** What its page part cost the main thread, in ms (absent: not run yet). */
  pageMs?: number;
}

/** One run of a page step of an imported rule, as offtag.js's page side records it (`window.__offtagLaunch.runs`, src/page-side/steps.ts). */
export interface PageRun {
  rule: string;
  seq: number;
  ms: number;
}

export interface BeaconRow {
  kind: string;
  pageName: string;
  events: string;
  linkName: string;
  fields: Record<string, unknown>;
  dropped?: string;
}

/**
 * Rule firings, newest first: triggered entries joined with their outcome, and for rules with a
 * part on the page, that part's main-thread time from `pageRuns`.
 */
export function ruleFirings(monitor: MonitorEntry[], pageRuns: PageRun[] = []): RuleFiring[] {
  const rows: RuleFiring[] = [];
  for (const m of monitor) {
    if (m.name === 'rule-page-part') {
      const row = [...rows].reverse().find((r) => r.rule === m.data.rule && r.seq === m.data.seq);
      if (row) {
        row.where = 'worker and page';
        const runs = pageRuns.filter((p) => p.rule === m.data.rule && p.seq === m.data.seq);
        if (runs.length) row.pageMs = runs.reduce((n, p) => n + p.ms, 0);
      }
    }
    if (m.name === 'rule-triggered') rows.push({ seq: m.data.seq, rule: m.data.rule, event: m.data.event, outcome: 'pending' });
    if (m.name === 'rule-completed' || m.name === 'rule-condition-failed' || m.name === 'rule-action-failed') {
      const row = [...rows].reverse().find((r) => r.rule === m.data.rule && r.seq === m.data.seq && r.outcome === 'pending');
      if (row) {
        row.outcome = m.name === 'rule-completed' ? 'fired' : m.name === 'rule-action-failed' ? 'action failed' : 'condition not met';
        row.stoppedAt = m.data.stoppedAt;
      }
    }
  }
  return rows.reverse();
}

/** Beacons sent and dropped, newest first, decoded. */
export function beaconRows(monitor: MonitorEntry[]): BeaconRow[] {
  const rows: BeaconRow[] = [];
  for (const m of monitor) {
    if (m.name === 'beacon') {
      const f = m.data.fields ?? {};
      rows.push({
        kind: f.hitType === 'tl' ? `link (${f.linkType ?? 'o'})` : 'page view',
        pageName: f.pageName ?? '',
        events: f.events ?? '',
        linkName: f.linkName ?? '',
        fields: f,
      });
    } else if (m.name === 'beacon-dropped') {
      rows.push({ kind: 'dropped', pageName: '', events: '', linkName: '', fields: m.data.hit ?? {}, dropped: m.data.message ?? m.data.reason });
    } else if (m.name === 'beacon-set-aside' || m.name === 'beacon-given-up') {
      // The transport: a beacon the server keeps refusing (docs/delivery.md, the retry policy).
      const what = m.name === 'beacon-given-up' ? 'given up' : 'set aside';
      rows.push({
        kind: what,
        pageName: '',
        events: '',
        linkName: '',
        fields: { url: m.data.url },
        dropped: `${what} after ${m.data.answered} refusals (${m.data.last})`,
      });
    }
  }
  return rows.reverse();
}

/** The variables of a decoded beacon worth a glance, in a stable order. */
export function beaconVariables(fields: Record<string, unknown>): Array<[string, string]> {
  const order = (k: string) => {
    const m = /^(eVar|prop|list|hier)(\d+)$/.exec(k);
    return m ? `1${m[1]}${m[2].padStart(3, '0')}` : `0${k}`;
  };
  return Object.entries(fields)
    .filter(([k, v]) => typeof v === 'string' && v !== '' && !['params', 'raw', 'sid', 'version', 'method', 'time'].includes(k))
    .sort(([a], [b]) => order(a).localeCompare(order(b)))
    .map(([k, v]) => [k, String(v)]);
}

export interface ThirdPartyRow {
  id: string;
  src: string;
  /** `main` (a script tag on the page) or `partytown` (run in Partytown's worker). */
  mode: string;
  status: string;
}

/**
 * The third-party scripts the container asked the page to load (src/third-party/load-script.ts
 * marks each tag with its mode and status; for a Partytown tag the worker writes how far its calls
 * got: `initialised`, `first call forwarded`, `event delivered (HTTP 200)`, …). A Partytown tag
 * still `queued for Partytown` whose type became `text/partytown-x` has loaded in the worker, its
 * calls not yet run; one Partytown marked `data-pterror` failed to load there. When Partytown's
 * worker does not start in time (`fallbackTimeout`, 10 s), Partytown runs a plain copy of each tag
 * on the page and drops the calls queued for its forwarded functions: the row says so.
 */
export function thirdPartyScripts(root: ParentNode): ThirdPartyRow[] {
  return [...root.querySelectorAll<HTMLScriptElement>('script[data-offtag-mode]')].map((s) => {
    const mode = s.getAttribute('data-offtag-mode') ?? '';
    let status = s.getAttribute('data-offtag-status') ?? '';
    const error = s.getAttribute('data-pterror');
    // Partytown's fallback (its worker did not start within `fallbackTimeout`) runs a plain copy of the tag on the page.
    const src = s.getAttribute('src');
    const copy = src && [...root.querySelectorAll<HTMLScriptElement>('script[src]')].some((c) => c !== s && !c.type && c.getAttribute('src') === src);
    if (mode === 'partytown' && error) status = `failed to load in Partytown: ${error}`;
    else if (mode === 'partytown' && copy && !/^(initialised|first call|event)/.test(status)) status = 'ran on the main thread: Partytown fell back, its calls were not made';
    else if (mode === 'partytown' && status === 'queued for Partytown' && s.type === 'text/partytown-x') status = 'loaded in Partytown';
    return { id: s.id, src: s.getAttribute('src') ?? '', mode, status };
  });
}
