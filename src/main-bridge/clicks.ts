/** One passive, delegated click listener: link clicks go to the worker for automatic link tracking. */
import type { LinkClick } from '../protocol.ts';

const collapse = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

export function linkClick(target: EventTarget | null): LinkClick | undefined {
  const a = (target as Element | null)?.closest?.('a[href],area[href]') as HTMLAnchorElement | null;
  if (!a) return;
  const img = a.querySelector('img');
  const text =
    collapse(a.getAttribute('s_objectID') ?? a.getAttribute('s-object-id')) ||
    collapse(a.innerText ?? a.textContent) ||
    collapse(img?.alt || img?.title || img?.getAttribute('src') || a.title);
  const region = (a.parentElement?.closest('[id]') as HTMLElement | null)?.id || 'BODY';
  // ClickMap: the tag (`ot`) and `window.s_objectID` as text (`oid`; the worker tells an unset one apart).
  return { href: a.href, text, region, hasTlCall: (a.getAttribute('onclick') ?? '').includes('.tl('), tag: a.tagName, objectId: (window as { s_objectID?: unknown }).s_objectID + '' };
}

export function listenForClicks(send: (link: LinkClick) => void): void {
  document.addEventListener(
    'click',
    (ev) => {
      const link = linkClick(ev.target);
      if (link) send(link);
    },
    { capture: true, passive: true },
  );
}
