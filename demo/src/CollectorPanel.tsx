/**
 * What reached the local collector (`GET <collector>/__beacons`, decoded there), newest first:
 * each beacon with its page name or link name and link URL, its fields on click; a button that
 * empties the collector (`POST /__reset`); and `offtag.metrics()`, rounded.
 */
import { useEffect, useState } from 'react';
import { offtag, openDevtools, servers } from './offtag.ts';
import { useStore } from './store.ts';

interface Beacon {
  hitType: 't' | 'tl';
  rsid: string;
  sid: string;
  method: 'GET' | 'POST';
  path: string;
  query: string;
  duplicate?: boolean;
  pageName?: string;
  pageURL?: string;
  linkType?: 'o' | 'd' | 'e';
  linkName?: string;
  linkUrl?: string;
  events?: string;
  [field: string]: unknown;
}

const LINK_KIND = { o: 'custom link', d: 'download link', e: 'exit link' } as const;
/** The fields shown first, in this order; then every eVar, prop, list and hier. */
const FIELDS = ['pageName', 'pageURL', 'referrer', 'linkType', 'linkName', 'linkUrl', 'events', 'channel', 'server', 'currencyCode', 'mid', 'rsid'];

/** Where a beacon was sent from: the path on this demo's origin, else the host too (another page that sends to the same collector). */
export const pageOf = (url: unknown, here = location.origin) => {
  try {
    const u = new URL(String(url));
    return (u.origin === here ? '' : u.host) + u.pathname + u.search;
  } catch {
    return String(url ?? '');
  }
};

function rows(b: Beacon): [string, string][] {
  const numbered = Object.keys(b)
    .map((k) => /^(eVar|prop|list|hier)(\d+)$/.exec(k))
    .filter((m): m is RegExpExecArray => !!m)
    .sort((x, y) => ['eVar', 'prop', 'list', 'hier'].indexOf(x[1]!) - ['eVar', 'prop', 'list', 'hier'].indexOf(y[1]!) || Number(x[2]) - Number(y[2]))
    .map((m) => m[0]);
  return [...FIELDS, ...numbered].filter((k) => typeof b[k] === 'string' && b[k] !== '').map((k) => [k, String(b[k])]);
}

function BeaconItem({ b, n, collector }: { b: Beacon; n: number; collector: string }) {
  const [open, setOpen] = useState(false);
  const link = b.hitType === 'tl';
  const kind = link ? LINK_KIND[b.linkType ?? 'o'] : 'page view';
  const beaconUrl = `${collector}${b.path}?${b.query}`;
  return (
    <li className={`beacon ${link ? 'is-link' : 'is-view'}`}>
      <button type="button" className="summary" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="n">{n}</span> <span className="kind">{kind}</span> <span className="name">{link ? b.linkName : b.pageName}</span>
        {b.events && <span className="events"> · {b.events}</span>}
        {b.duplicate && <span className="events"> · re-sent</span>}
      </button>
      {link && (
        <p className="linkurl">
          link URL: {b.linkUrl ? <code>{b.linkUrl}</code> : <em>none (a custom link is named by its element ids)</em>}
        </p>
      )}
      <p className="on">on {pageOf(b.pageURL)}</p>
      {open && (
        <div className="decoded">
          <table>
            <tbody>
              {rows(b).map(([k, v]) => (
                <tr key={k}><th>{k}</th><td>{v}</td></tr>
              ))}
            </tbody>
          </table>
          <p className="hint">
            The beacon as sent ({b.method}); <code>npx offtag decode '&lt;url&gt;'</code> reads it too:
          </p>
          <code className="raw">{beaconUrl}</code>
        </div>
      )}
    </li>
  );
}

const round = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(2));

function Metrics() {
  const [m, setM] = useState<Record<string, number> | undefined>();
  useEffect(() => {
    const read = () => setM(offtag()?.metrics());
    read();
    const t = setInterval(read, 1000);
    return () => clearInterval(t);
  }, []);
  if (!m) return <p className="hint" id="metrics">offtag.js has not run yet.</p>;
  const perEvent = m.events ? (m.postMs ?? 0) / m.events : 0;
  return (
    <dl className="facts" id="metrics">
      {Object.entries(m).map(([k, v]) => (
        <div key={k}><dt>{k}</dt><dd>{k === 'events' ? v : `${round(v)} ms`}</dd></div>
      ))}
      <div><dt>post per event</dt><dd>{round(perEvent)} ms</dd></div>
    </dl>
  );
}

export function CollectorPanel() {
  const collector = servers()?.collectorUrl;
  const { tracking } = useStore();
  const [beacons, setBeacons] = useState<Beacon[] | undefined>();
  const [down, setDown] = useState(false);
  useEffect(() => {
    if (!collector) return;
    let last = '';
    const poll = async () => {
      try {
        const list: Beacon[] = await (await fetch(`${collector}/__beacons`)).json();
        setDown(false);
        const key = `${list.length}:${list.at(-1)?.sid ?? ''}`;
        if (key !== last) (last = key), setBeacons(list);
      } catch {
        setDown(true);
      }
    };
    void poll();
    const t = setInterval(poll, 1000);
    // Sooner after the page fires an event or a link is clicked: a beacon is usually there within 300 ms.
    let soon: ReturnType<typeof setTimeout> | undefined;
    const nudge = () => {
      clearTimeout(soon);
      soon = setTimeout(poll, 300);
    };
    addEventListener('demo:tracked', nudge);
    addEventListener('click', nudge, { capture: true, passive: true });
    return () => {
      clearInterval(t);
      clearTimeout(soon);
      removeEventListener('demo:tracked', nudge);
      removeEventListener('click', nudge, { capture: true });
    };
  }, [collector]);
  const clear = async () => {
    if (!collector) return;
    try {
      await fetch(`${collector}/__reset`, { method: 'POST' });
      setBeacons([]);
    } catch {
      setDown(true);
    }
  };
  return (
    <aside className="panel" id="collector">
      <div className="inner">
        <h2>Main-thread cost: <code>offtag.metrics()</code></h2>
        <Metrics />
        <p><button type="button" className="button small" id="devtools" onClick={openDevtools}>Open the Offtag devtools</button></p>
        <h2>
          At the local collector <span className="count">{beacons?.length ?? 0}</span>
          <button type="button" className="button small" id="clear-beacons" onClick={clear}>clear</button>
        </h2>
        <p className="hint">
          Every beacon that reached <code>{collector ?? 'the collector'}/__beacons</code>, newest first. Click one to decode it.
        </p>
        {!tracking && <p className="error" id="tracking-off">Analytics tracking is off (<code>sat_track=false</code>): the container sends nothing until it is on again.</p>}
        {!collector && <p className="error">No collector configured: open the demo through <code>npm start</code>.</p>}
        {down && <p className="error">The collector does not answer (is <code>npm start</code> still running?).</p>}
        <ol className="beacons" id="beacons">
          {(beacons ?? []).map((b, i) => ({ b, i })).reverse().map(({ b, i }) => (
            <BeaconItem key={`${i}:${b.sid}`} b={b} n={i + 1} collector={collector ?? ''} />
          ))}
        </ol>
      </div>
    </aside>
  );
}
