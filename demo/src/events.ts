/** Firing the container's direct calls with the data layer of the current route and state. */
import { useEffect, useRef } from 'react';
import { dataLayer, pageInfo, type Extra } from './datalayer.ts';
import { track, type DirectCall } from './offtag.ts';
import { currentPath, match } from './router.tsx';
import { getState } from './store.ts';

/** Fires `event` with the data layer of `path` (default: the current route) and the shopper's state now. */
export function fire(event: DirectCall, extra?: Extra, path = currentPath()): void {
  const state = getState();
  track(event, dataLayer(pageInfo(match(path), state), state, extra));
}

/** How long newly visible items are gathered into one `Element Impressions` event. */
const IMPRESSION_BATCH_MS = 250;

/**
 * Element impressions: every `[data-impression-id]` inside the returned ref's element that comes
 * at least half into view is reported once per page view; items that appear together go out as
 * one `Element Impressions` event whose `page.element` lists them (the beacon is named after them).
 */
export function useImpressions<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const path = currentPath();
    const seen = new Set<string>();
    let batch: string[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const send = () => {
      timer = undefined;
      const ids = batch.splice(0);
      if (ids.length) fire('Element Impressions', { element: ids.map((id) => ({ impression: { id } })) }, path);
    };
    const io = new IntersectionObserver(
      (entries) => {
        for (const e of entries) {
          const id = (e.target as HTMLElement).dataset.impressionId;
          if (!e.isIntersecting || !id || seen.has(id)) continue;
          seen.add(id);
          batch.push(id);
          io.unobserve(e.target);
        }
        if (batch.length && !timer) timer = setTimeout(send, IMPRESSION_BATCH_MS);
      },
      { threshold: 0.5 },
    );
    root.querySelectorAll<HTMLElement>('[data-impression-id]').forEach((el) => io.observe(el));
    return () => {
      io.disconnect();
      // Leaving the page: what was seen is still reported, with this page's data layer.
      if (timer) clearTimeout(timer), send();
    };
  }, []);
  return ref;
}
