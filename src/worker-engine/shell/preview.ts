/**
 * Preview's hand-over (core/preview.ts decides; docs/publishing.md, "Preview"). When the page's
 * browser asked for another environment, this worker runs nothing: it holds the page's inputs and
 * asks offtag-effects.js (a `preview` effect) to load that environment's offtag.js. Loaded: the
 * page now has the other environment's bridge, worker and `_satellite`; this worker acknowledges
 * what it held and everything that still comes (so nothing is kept for the pagehide copy), answers
 * the page's questions with nothing, and hands back the `_satellite.track` and `setVar` calls made
 * meanwhile (and the earlier pages' orphans it was given) for the new `_satellite`. Not loaded (no
 * such environment, a network error): this worker serves the page as usual, the held inputs first.
 */
import type { Effect, EngineInput, InitMessage } from '../../protocol.ts';
import { previewOf } from '../core/preview.ts';

/** `_satellite` calls the new bridge makes again, in order: `[method, ...args]`. */
export type PreviewCall = ['track', string, unknown?] | ['setVar', Record<string, unknown>];

export function servePreview(init: InitMessage, events: MessagePort, own: string, serve: () => void): void {
  const d = previewOf(init.now?.url, init.now?.cookie, own);
  const effects: Effect[] = [];
  if (d.cookie) effects.push({ type: 'cookie-string', cookie: d.cookie });
  if (d.warning) effects.push({ type: 'log', level: 'warn', message: d.warning });
  if (!d.env) {
    if (effects.length) events.postMessage({ n: 0, effects });
    return serve();
  }
  const held: EngineInput[] = [];
  let handedOver = false;
  /** Acknowledges an event (cumulative) and answers a question (`ask`: `getVarAsync`, service calls) with nothing. */
  const drop = (inputs: EngineInput[], extra: Effect[] = []) => {
    let a = 0;
    const out: Effect[] = [...extra];
    for (const i of inputs) {
      if (i.type !== 'event') continue;
      a = Math.max(a, i.snapshot.seq);
      if (i.event.type === 'get-var' || i.event.type === 'service-call') out.push({ type: 'reply', seq: i.snapshot.seq });
    }
    if (a || out.length) events.postMessage({ n: 0, effects: out, ...(a ? { a } : {}) });
  };
  events.onmessage = ({ data }: MessageEvent<EngineInput>) => {
    if (data.type !== 'preview') return handedOver ? drop([data]) : void held.push(data);
    if (handedOver) return;
    if (!data.loaded) {
      // Served as usual: the engine gets the held inputs first, in order, then the port.
      events.onmessage = null;
      serve();
      const handler = events.onmessage as ((ev: MessageEvent<EngineInput>) => void) | null;
      for (const input of held) handler?.(new MessageEvent('message', { data: input }));
      return;
    }
    handedOver = true;
    const calls: PreviewCall[] = [];
    for (const i of held)
      if (i.type === 'event' && i.event.type === 'direct-call') calls.push(['track', i.event.id, i.event.detail]);
      else if (i.type === 'event' && i.event.type === 'set-var') calls.push(['setVar', i.event.values]);
    drop(held.splice(0), [{ type: 'preview-done', calls, orphans: init.orphans ?? [] }]);
  };
  effects.push({ type: 'preview', env: d.env, own });
  events.postMessage({ n: 0, effects });
}
