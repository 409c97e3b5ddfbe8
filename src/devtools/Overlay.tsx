import { useEffect, useState } from 'react';
import { Publishing } from './Publishing.tsx';
import { beaconRows, beaconVariables, ruleFirings, thirdPartyScripts, type MonitorEntry, type PageRun } from './model.ts';

export interface OverlaySource {
  metrics(): { events: number; postMs: number; applyMs: number };
  monitor(): Promise<MonitorEntry[]>;
  values(): Promise<Record<string, unknown>>;
  pendingBeacons(): Promise<number>;
  /** The session so far as a replay fixture (docs/replay.md). */
  session(): Promise<unknown>;
  /** offtag.js's folder and environment: the publishing line (docs/publishing.md, "Preview"). */
  base?: string;
  stage?: string;
}

/** Downloads the session as `offtag-session-<time>.json`: `npx offtag replay` runs it. */
export async function exportSession(source: Pick<OverlaySource, 'session'>, doc: Document = document): Promise<void> {
  const fixture = await source.session();
  const blob = new Blob([JSON.stringify(fixture, null, 2) + '\n'], { type: 'application/json' });
  const a = doc.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `offtag-session-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  doc.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

export type Dock = 'left' | 'right';

type Tab = 'cost' | 'data' | 'rules' | 'beacons' | 'third parties';
const ms = (n: number) => `${n.toFixed(3)} ms`;

export function Overlay({ source, onClose, dock: initial = 'right', onDock }: { source: OverlaySource; onClose(): void; dock?: Dock; onDock?(dock: Dock): void }) {
  const [tab, setTab] = useState<Tab>('cost');
  const [dock, setDock] = useState<Dock>(initial);
  const [, tick] = useState(0);
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [monitor, setMonitor] = useState<MonitorEntry[]>([]);
  const [pending, setPending] = useState(0);
  const [open, setOpen] = useState<number | null>(null);
  useEffect(() => {
    const refresh = () => {
      tick((n) => n + 1);
      source.values().then(setValues, () => {});
      source.monitor().then(setMonitor, () => {});
      source.pendingBeacons().then(setPending, () => {});
    };
    refresh();
    const t = setInterval(refresh, 1000);
    return () => clearInterval(t);
  }, [source]);

  const m = source.metrics();
  const rules = ruleFirings(monitor, (window as { __offtagLaunch?: { runs?: PageRun[] } }).__offtagLaunch?.runs);
  const beacons = beaconRows(monitor);
  return (
    <div className={`panel ${dock}`} role="dialog" aria-label="Offtag devtools">
      <header>
        <strong>Offtag</strong>
        {(['cost', 'data', 'rules', 'beacons', 'third parties'] as Tab[]).map((t) => (
          <button key={t} className={t === tab ? 'on' : ''} onClick={() => setTab(t)}>
            {t === 'cost' ? 'main thread' : t === 'data' ? 'data elements' : t}
          </button>
        ))}
        <button
          className="export"
          title="Download the session so far as a replay fixture: npx offtag replay <file> reproduces its beacons"
          onClick={() => void exportSession(source).catch((err: unknown) => console.error(`Offtag devtools: the export failed (${String(err)}).`))}
        >
          export session
        </button>
        <button
          className="dock"
          title={`Dock the overlay on the ${dock === 'right' ? 'left' : 'right'}`}
          onClick={() => {
            const next = dock === 'right' ? 'left' : 'right';
            setDock(next);
            onDock?.(next);
          }}
        >
          {dock === 'right' ? '⇤' : '⇥'}
        </button>
        <button className="close" aria-label="close" onClick={onClose}>
          ×
        </button>
      </header>
      {source.base && <Publishing base={source.base} stage={source.stage ?? ''} />}
      <section>
        {tab === 'cost' && (
          <table>
            <tbody>
              <tr><th>events</th><td>{m.events}</td></tr>
              <tr><th>main thread, all events</th><td>{ms(m.postMs + m.applyMs)}</td></tr>
              <tr><th>per event (snapshot + post)</th><td>{ms(m.events ? m.postMs / m.events : 0)}</td></tr>
              <tr><th>per event (apply effects)</th><td>{ms(m.events ? m.applyMs / m.events : 0)}</td></tr>
              <tr><th>beacons waiting in the queue</th><td>{pending}</td></tr>
            </tbody>
          </table>
        )}
        {tab === 'data' && (
          <table>
            <tbody>
              {Object.entries(values)
                .sort(([a], [b]) => a.localeCompare(b))
                .map(([k, v]) => (
                  <tr key={k}><th>{k}</th><td>{typeof v === 'string' ? v : JSON.stringify(v)}</td></tr>
                ))}
            </tbody>
          </table>
        )}
        {tab === 'rules' && (
          <table>
            <thead><tr><th>#</th><th>rule</th><th>event</th><th>outcome</th><th>ran in</th><th>main thread</th></tr></thead>
            <tbody>
              {rules.map((r, i) => (
                <tr key={i}><td>{r.seq}</td><td>{r.rule}</td><td>{r.event}</td><td>{r.outcome}{r.stoppedAt ? ` (${r.stoppedAt})` : ''}</td><td>{r.where ?? 'worker'}</td><td>{r.where ? (r.pageMs === undefined ? 'not run yet' : `${r.pageMs.toFixed(1)} ms`) : 'no page code'}</td></tr>
              ))}
            </tbody>
          </table>
        )}
        {tab === 'third parties' && (
          <table className="third-parties">
            <thead><tr><th>script</th><th>mode</th><th>status</th></tr></thead>
            <tbody>
              {thirdPartyScripts(document).map((r) => (
                <tr key={r.id}><td title={r.src}>{r.id}</td><td>{r.mode}</td><td>{r.status}</td></tr>
              ))}
            </tbody>
          </table>
        )}
        {tab === 'beacons' && (
          <ol>
            {beacons.map((b, i) => (
              <li key={i}>
                <button className="row" onClick={() => setOpen(open === i ? null : i)}>
                  {b.kind} {b.pageName} {b.linkName && `“${b.linkName}”`} {b.events} {b.dropped && `— ${b.dropped}`}
                </button>
                {open === i && (
                  <table>
                    <tbody>
                      {beaconVariables(b.fields).map(([k, v]) => (
                        <tr key={k}><th>{k}</th><td>{v}</td></tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
