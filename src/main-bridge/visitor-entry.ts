/**
 * offtag-visitor.js: the optional page-side `Visitor` / `adobe.optIn` facade, for sites whose own
 * code calls VisitorAPI.js directly. Kept out of offtag.js so that sites that do not pay nothing.
 * It may load before or after offtag.js; calls wait for it (it looks for `window.offtag` every 20 ms until then).
 */
import { installVisitorFacade } from './visitor-facade.ts';

type Offtag = { call(service: string, method: string, args: unknown[]): Promise<{ value?: unknown; callbacks?: unknown[][] }> };
const w = window as unknown as { offtag?: Offtag };
// offtag.js sets `window.offtag` when it runs (no event: that would cost every page bytes); until then, look again shortly.
const ready = new Promise<Offtag>((resolve) => {
  const look = () => (w.offtag ? resolve(w.offtag) : setTimeout(look, 20));
  look();
});
installVisitorFacade((method, args) => ready.then((o) => o.call('visitor', method, args)));
