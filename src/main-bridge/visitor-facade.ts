/**
 * The page-side `Visitor` global for site code written for VisitorAPI.js 5.5.0. Every method
 * is answered by the worker's visitor service: it returns a Promise of the value (a real getter
 * returns it synchronously) and calls the site's callback with the argument lists the worker
 * sends back. `adobe.optIn` forwards the same way.
 */
import { AuthState, FACADE_MESSAGES as MESSAGES, normalizeOrgId, OptInCategories, OptOut, VISITOR_VERSION } from '../visitor-api.ts';

type Answer = { value?: unknown; callbacks?: unknown[][]; error?: string };
type Call = (method: string, args: unknown[]) => Promise<Answer>;


export function installVisitorFacade(call: Call): void {
  const w = window as unknown as Record<string, any>;
  const instances: Record<string, object> = {};
  const fail = (m: string): never => {
    throw new Error(m);
  };
  // Functions cannot cross to the worker: callbacks stay here, option functions are called now (as the library does).
  const forward = (prefix: string, own: Record<string, unknown>) =>
    new Proxy(own, {
      get: (t, m) =>
        typeof m !== 'string' || m in t || m === 'then'
          ? t[m as string]
          : (...a: unknown[]) =>
              call(prefix + m, a.map((x) => (typeof x === 'function' ? null : x))).then((r) => {
                if (r.error) throw new Error(r.error);
                const cb = a.find((x) => typeof x === 'function') as ((...v: unknown[]) => void) | undefined;
                for (const args of r.callbacks ?? []) {
                  // The site's own callback throwing is said; the answer still resolves.
                  try {
                    cb?.(...args);
                  } catch (e) {
                    console.error(`Offtag: the callback given to ${prefix || 'Visitor.'}${m}() threw: ${e}`);
                  }
                }
                return r.value;
              }),
    });
  function Visitor(): never {
    return fail(MESSAGES.useGetInstance);
  }
  Object.assign(Visitor, {
    version: VISITOR_VERSION,
    AuthState: { ...AuthState },
    OptOut: { ...OptOut },
    getInstance(org: unknown, config?: Record<string, unknown>) {
      const id = normalizeOrgId(org);
      if (!instances[id]) {
        const cfg: Record<string, unknown> = {};
        for (const k in config) {
          try {
            cfg[k] = typeof config[k] === 'function' ? (config[k] as () => unknown)() : config[k];
          } catch (e) {
            console.error(`Offtag: Visitor.getInstance option "${k}" threw; it was left out: ${e}`);
          }
        }
        call('getInstance', [id, cfg]).catch(() => {});
        instances[id] = forward('', { marketingCloudOrgID: id });
      }
      return instances[id];
    },
  });
  w.Visitor = Visitor;
  w.adobe = w.adobe || {};
  w.adobe.optIn = forward('optIn.', {});
  w.adobe.OptInCategories = { ...OptInCategories };
}
