/**
 * offtag-visitor.js: the optional page-side `Visitor` / `adobe.optIn` facade, for sites whose own
 * code calls VisitorAPI.js directly. Kept out of offtag.js so that sites that do not pay nothing.
 * It may load before or after offtag.js; calls wait for it (it looks for `window.offtag` every 20 ms until then).
 */
import type { EngineEvent } from '../protocol.ts';
import { installVisitorFacade } from './visitor-facade.ts';

type Offtag = { ask(event: EngineEvent): Promise<{ value?: unknown; callbacks?: unknown[][] }> };
const w = window as unknown as { offtag?: Offtag };
// offtag.js sets `window.offtag` when it runs (no event: that would cost every page bytes); until then, look again shortly.
const ready = new Promise<Offtag>((resolve) => {
  const look = () => (w.offtag ? resolve(w.offtag) : setTimeout(look, 20));
  look();
});
// A worker service call is an event like any other (offtag.js's `ask`: posted, answered by a `reply` effect).
installVisitorFacade((method, args) => ready.then((o) => o.ask({ type: 'service-call', service: 'visitor', method, args })));
