/** One delegated, capturing click listener: link clicks go to the worker for automatic link tracking. */
import type { LinkClick } from '../protocol.ts';

const collapse = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

export function linkClick(target: EventTarget | null): LinkClick | undefined {
  const a = (target as Element | null)?.closest?.('a[href],area[href]') as HTMLAnchorElement | null;
  if (!a) return;
  const img = a.querySelector('img');
  const attr = (n: string) => a.getAttribute(n);
  return {
    href: a.href,
    text:
      collapse(attr('s_objectID') ?? attr('s-object-id')) ||
      collapse(a.innerText ?? a.textContent) ||
      collapse(img?.alt || img?.title || img?.getAttribute('src') || a.title),
    region: (a.parentElement?.closest('[id]') as HTMLElement | null)?.id || 'BODY',
    hasTlCall: (attr('onclick') ?? '').includes('.tl('),
    // ClickMap: the tag (`ot`) and `window.s_objectID` as text (`oid`; the worker tells an unset one apart).
    tag: a.tagName,
    objectId: (window as { s_objectID?: unknown }).s_objectID + '',
  };
}

/** Capturing, never cancels (so no `passive` flag is needed for a click). */
export function listenForClicks(send: (link: LinkClick) => void): void {
  document.addEventListener(
    'click',
    (ev) => {
      const link = linkClick(ev.target);
      if (link) send(link);
    },
    true,
  );
}
