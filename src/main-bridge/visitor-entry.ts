/**
 * offtag-visitor.js: the optional page-side `Visitor` / `adobe.optIn` facade, for sites whose own
 * code calls VisitorAPI.js directly. Kept out of offtag.js so that sites that do not pay nothing.
 * It may load before or after offtag.js; calls wait for it.
 */
import { installVisitorFacade } from './visitor-facade.ts';

type Offtag = { call(service: string, method: string, args: unknown[]): Promise<{ value?: unknown; callbacks?: unknown[][] }> };
const w = window as unknown as { offtag?: Offtag };
const ready = new Promise<Offtag>((resolve) => {
  if (w.offtag) resolve(w.offtag);
  else addEventListener('offtag:ready', () => resolve(w.offtag!), { once: true });
});
installVisitorFacade((method, args) => ready.then((o) => o.call('visitor', method, args)));
