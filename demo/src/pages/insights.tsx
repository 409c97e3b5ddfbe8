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

function RumStatus() {
  const [loaded, setLoaded] = useState(false);
  const [events, setEvents] = useState<Record<string, number> | undefined>();
  useEffect(() => {
    const rum = servers()?.rumUrl;
    const poll = async () => {
      setLoaded(!!document.getElementById('offtag-rum') && 'DD_RUM' in window);
      if (!rum) return;
      try {
        const list: Array<{ type?: string; application?: { id?: string } }> = await (await fetch(`${rum}/__events`)).json();
        const counts: Record<string, number> = {};
        for (const e of list) if (e.type) counts[e.type] = (counts[e.type] ?? 0) + 1;
        setEvents(counts);
      } catch {
        setEvents(undefined);
      }
    };
    void poll();
    const t = setInterval(poll, 3000);
    return () => clearInterval(t);
  }, []);
  const total = events ? Object.values(events).reduce((a, b) => a + b, 0) : 0;
  return (
    <section className="card rum" id="rum-status">
      <h2>Real user monitoring</h2>
      <p>
        {loaded
          ? 'Datadog RUM is running: the container loaded the real SDK on this page at Window Loaded.'
          : 'Datadog RUM is not running (yet): the container loads it at Window Loaded, in production, when Datadog is enabled (targeting cookies not opted out, no Global Privacy Control).'}
      </p>
      <p className="hint">
        The SDK sends in batches (about every 30 s, and when you leave the area).{' '}
        {events ? `At the local RUM intake: ${total} events${total ? ` (${Object.entries(events).map(([k, v]) => `${k} ${v}`).join(', ')})` : ''}.` : 'The local RUM intake is not reachable.'}
      </p>
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
