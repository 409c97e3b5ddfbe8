/**
 * The insights area (`/insights`): articles, page type Educational Content. The container loads
 * Datadog RUM here (rule "Real user monitoring": Window Loaded, production, Datadog enabled, URL
 * with /insights); this page says whether it did and what reached the local RUM intake.
 */
import { useEffect, useState } from 'react';
import { ARTICLES } from '../catalog.ts';
import { servers } from '../offtag.ts';
import { Link } from '../router.tsx';
import { NotFound } from './NotFound.tsx';

/** The RUM session id the SDK stamps on each event (`session.id`), once the SDK runs. */
function rumSessionId(): string | undefined {
  const rum = (window as { DD_RUM?: { getInternalContext?: () => { session_id?: string } | undefined } }).DD_RUM;
  try {
    return rum?.getInternalContext?.()?.session_id;
  } catch {
    return undefined;
  }
}

type RumEvent = { type?: string; session?: { id?: string } };

/** This session's events at the intake, by type; the intake keeps every session's. */
function countsOf(list: RumEvent[], session: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of list) if (e.type && e.session?.id === session) counts[e.type] = (counts[e.type] ?? 0) + 1;
  return counts;
}

/** What the status line says about the intake: this session's events, or why there are none yet. */
function intakeLine(session: string | undefined, events: Record<string, number> | undefined): string {
  if (!events) return 'The local RUM intake is not reachable.';
  if (!session) return 'The SDK has no session yet, so there is nothing of this session to count.';
  const total = Object.values(events).reduce((a, b) => a + b, 0);
  const byType = Object.entries(events).map(([k, v]) => `${k} ${v}`).join(', ');
  const short = session.slice(0, 8);
  return total
    ? `At the local RUM intake, this session's (${short}…) events: ${total} (${byType}).`
    : `At the local RUM intake, this session's (${short}…) events: 0 so far; the SDK has not sent its first batch yet.`;
}

function RumStatus() {
  const [loaded, setLoaded] = useState(false);
  const [session, setSession] = useState<string | undefined>();
  const [events, setEvents] = useState<Record<string, number> | undefined>({});
  useEffect(() => {
    const rum = servers()?.rumUrl;
    const poll = async () => {
      setLoaded(!!document.getElementById('offtag-rum') && 'DD_RUM' in window);
      const id = rumSessionId();
      setSession(id);
      if (!rum || !id) return;
      try {
        setEvents(countsOf(await (await fetch(`${rum}/__events`)).json(), id));
      } catch {
        setEvents(undefined);
      }
    };
    void poll();
    const t = setInterval(poll, 3000);
    // Hiding the tab makes the SDK send what it holds: look again when it is back.
    const onVisible = () => document.visibilityState === 'visible' && void poll();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(t);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);
  return (
    <section className="card rum" id="rum-status">
      <h2>Real user monitoring</h2>
      <p>
        {loaded
          ? 'Datadog RUM is running: the container loaded the real SDK on this page at Window Loaded.'
          : 'Datadog RUM is not running (yet): the container loads it at Window Loaded, in production, when Datadog is enabled (targeting cookies not opted out, no Global Privacy Control).'}
      </p>
      <p className="hint" id="rum-flush">
        The SDK holds its events and sends them in one batch 30 s after the first one it holds, sooner
        when it holds 50 events or 16 KiB, and at once when this tab is hidden or the page is left
        (switch to another tab and back to see this session's events arrive).
      </p>
      {loaded && <p className="hint" id="rum-count">{intakeLine(session, events)}</p>}
    </section>
  );
}

export function Insights() {
  return (
    <>
      <h1>Safety insights</h1>
      <p>Guides for safety managers and buyers.</p>
      <RumStatus />
      <ul className="articles">
        {ARTICLES.map((a) => (
          <li key={a.slug}>
            <Link to={`/insights/${a.slug}`}>{a.title}</Link>
            <p>{a.summary}</p>
          </li>
        ))}
      </ul>
    </>
  );
}

export function Article({ slug }: { slug: string }) {
  const a = ARTICLES.find((x) => x.slug === slug);
  if (!a) return <NotFound />;
  return (
    <>
      <p className="crumbs"><Link to="/insights">Insights</Link></p>
      <h1>{a.title}</h1>
      <p><strong>{a.summary}</strong></p>
      {a.body.map((text, i) => <p key={i}>{text}</p>)}
      <RumStatus />
    </>
  );
}
