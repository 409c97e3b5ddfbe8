/**
 * One delegated, capturing click listener: link clicks go to the worker for automatic link tracking.
 * What it reads follows AppMeasurement 2.27.0's click handler and ActivityMap module (docs/analytics.md,
 * "Click rules learned from AppMeasurement.js"); the worker picks the link name from the parts.
 */
import type { LinkClick } from '../protocol.ts';

const collapse = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
const w = window as { s_objectID?: unknown };

export function linkClick(target: EventTarget | null): LinkClick | undefined {
  const a = (target as Element | null)?.closest?.('a[href],area[href]') as HTMLAnchorElement | null;
  if (!a) return;
  // The nearest ancestor with a data-id or an id (not empty), else the body.
  const r = a.parentElement?.closest('body,[data-id]:not([data-id=""]),[id]:not([id=""])') as HTMLElement | null;
  return {
    href: a.href,
    text: collapse(a.innerText || a.textContent),
    // The worker reads the link's own attributes (its name, its onclick) and, when there is no text,
    // the first alt or title from it (analytics/link-name.ts).
    html: a.outerHTML,
    region: r ? r.dataset.id || r.id || 'BODY' : '',
    // ClickMap: the tag (`ot`) and `window.s_objectID` as text (`oid`; the worker tells an unset one apart).
    tag: a.tagName,
    objectId: w.s_objectID + '',
  };
}

/**
 * Capturing, never cancels (so no `passive` flag is needed for a click). The element clicked last
 * is not tracked again within 10 s; every other click ends `window.s_objectID`'s lifetime, as
 * AppMeasurement's track call does.
 */
export function listenForClicks(send: (e: { type: 'click'; link: LinkClick }) => void): void {
  let last: EventTarget | null = null;
  let at = 0;
  document.addEventListener(
    'click',
    (ev) => {
      const t = ev.target;
      if (t == last && ev.timeStamp - at < 1e4) return;
      last = t;
      at = ev.timeStamp;
      const link = linkClick(t);
      w.s_objectID = 0;
      if (link) send({ type: 'click', link });
    },
    true,
  );
}
