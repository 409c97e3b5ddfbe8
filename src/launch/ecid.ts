/** The Experience Cloud ID Service extension: its start with the library, its variables, Set Customer IDs. */
import { amcvCookieName, decodeAmcv } from '../worker-engine/visitor/amcv-cookie.ts';
import { parseCookieString } from '../worker-engine/core/cookies.ts';
import { finished, type Finish } from './data-elements.ts';
import type { LaunchDataElement } from './types.ts';
import type { VisitorOptions } from '../worker-engine/visitor/service.ts';
import type { OptInConfig } from '../worker-engine/visitor/opt-in.ts';
import { libraryLoaded } from './events.ts';
import { action, resolve, resolveDeep, asString, type ActionOptions, type Ctx, type LaunchRule } from './types.ts';

const AUTH_STATES: Record<string, number> = { UNKNOWN: 0, AUTHENTICATED: 1, LOGGED_OUT: 2 };

/** An id's auth state as the extension's settings give it: VisitorAPI's number (what the Launch UI stores), or its name. */
const authState = (v: string | number | undefined): number => (typeof v === 'number' ? (AUTH_STATE_NUMBERS.has(v) ? v : 0) : (AUTH_STATES[v ?? 'UNKNOWN'] ?? 0));
const AUTH_STATE_NUMBERS = new Set(Object.values(AUTH_STATES));

export function setCustomerIds(ids: Array<{ integrationCode: string; value: string; authState?: string | number }>, o?: ActionOptions) {
  return action('Experience Cloud ID Service: Set Customer IDs', async (ctx) => {
    const map: Record<string, { id: string; authState: number }> = {};
    for (const id of ids) {
      const value = asString(resolve(ctx, id.value));
      if (value) map[asString(resolve(ctx, id.integrationCode))] = { id: value, authState: authState(id.authState) };
    }
    await ctx.services.visitor.call('setCustomerIDs', [map]);
  }, o);
}

/** The rule the ECID extension stands for: it starts with the library, before every rule. */
export const ECID_RULE = 'Experience Cloud ID Service';

/**
 * The ECID extension's variables the engine's visitor service takes, by VisitorAPI 5.5.0 name, with
 * what each becomes (src/worker-engine/visitor/service.ts `VisitorOptions`). The import reports
 * every other variable with its reason.
 */
export const ECID_VARIABLES: Record<string, (v: unknown) => VisitorOptions | string> = {
  trackingServer: (v) => ({ trackingServer: String(v) }),
  trackingServerSecure: (v) => ({ trackingServer: String(v) }),
  overwriteCrossDomainMCIDAndAID: (v) => ({ overwriteCrossDomainMCIDAndAID: visitorBoolean(v) }),
  idSyncContainerID: (v) => {
    const n = Number(v);
    return Number.isInteger(n) && n >= 0 ? { idSyncContainerId: n } : `idSyncContainerID ${JSON.stringify(v)} is not a whole number; the default 0 is used`;
  },
  disableIdSyncs: (v) => ({ disableIdSyncs: visitorBoolean(v) }),
  idSyncDisableSyncs: (v) => ({ disableIdSyncs: visitorBoolean(v) }),
  disableThirdPartyCookies: (v) => ({ disableThirdPartyCookies: visitorBoolean(v) }),
  idSyncDisable3rdPartySyncing: (v) => ({ disableThirdPartyCookies: visitorBoolean(v) }),
  cookieDomain: (v) => ({ cookieDomain: String(v) }),
  cookieLifetime: (v) => {
    const text = String(v);
    if (text === 'SESSION' || text === 'NONE') return { cookieLifetime: text };
    const n = Number(v);
    return Number.isFinite(n) && n > 0 ? { cookieLifetime: n } : `cookieLifetime ${JSON.stringify(v)} is neither seconds, SESSION nor NONE; the AMCV cookie lives two years`;
  },
};

/** VisitorAPI's reading of a boolean option: the strings "true" and "false" are booleans, anything else by its truth. */
const visitorBoolean = (v: unknown) => (v === 'false' ? false : v === 'true' ? true : Boolean(v));

/**
 * The variables as the `Visitor` instance receives them: each value's `%data element%` tokens
 * replaced on the event's data elements, an empty or missing value dropped (VisitorAPI drops empty
 * settings), later variables winning.
 */
export function visitorOptions(ctx: Ctx, variables: Array<{ name: string; value: unknown }>): VisitorOptions {
  const out: VisitorOptions = {};
  for (const v of variables) {
    const to = ECID_VARIABLES[v.name];
    if (!to) continue;
    const value = resolve(ctx, v.value);
    if (value === undefined || value === null || value === '') continue;
    const o = to(value);
    if (typeof o === 'string') ctx.log('warn', `Experience Cloud ID Service: ${o}`);
    else Object.assign(out, o);
  }
  return out;
}

/** The extension's opt-in settings the import hands over (its `settings`, as the library has them). */
export interface EcidOptInSettings {
  doesOptInApply?: unknown;
  isOptInStorageEnabled?: unknown;
  optInCookieDomain?: unknown;
  optInStorageExpiry?: unknown;
  timeUnit?: unknown;
  previousPermissions?: unknown;
  preOptInApprovals?: unknown;
  preOptInApprovalInput?: unknown;
}

/** The extension's units for the opt-in storage expiry, in seconds. */
const TIME_UNITS: Record<string, number> = { Hours: 3600, Days: 86400, Weeks: 604800, Months: 2592000, Years: 31536000 };

/**
 * The opt-in configuration the extension gives its `Visitor` instance, its `%data element%` tokens
 * replaced at library load as Launch replaces an extension's settings: opt-in applies only when
 * `doesOptInApply` is (or its data element gives) `true`; `previousPermissions` and the
 * pre-approvals as given; the storage expiry in its unit (the service's own default without one).
 */
export function optInOptions(ctx: Ctx, s: EcidOptInSettings): OptInConfig | undefined {
  if (resolve(ctx, s.doesOptInApply) !== true) return undefined;
  const o: OptInConfig = { doesOptInApply: true };
  if (resolve(ctx, s.isOptInStorageEnabled)) o.isOptInStorageEnabled = true;
  const domain = resolve(ctx, s.optInCookieDomain);
  if (domain) o.optInCookieDomain = String(domain);
  const expiry = Number(resolve(ctx, s.optInStorageExpiry));
  const unit = TIME_UNITS[String(s.timeUnit)];
  if (expiry && unit) o.optInStorageExpiry = expiry * unit;
  const previous = resolveDeep(ctx, s.previousPermissions);
  if (previous) o.previousPermissions = previous;
  const pre = resolveDeep(ctx, s.preOptInApprovals || s.preOptInApprovalInput);
  if (pre) o.preOptInApprovals = pre;
  return o;
}

/**
 * The Experience Cloud ID Service extension's start: the visitor service, on Library Loaded, before
 * every rule. Its variables and opt-in settings are expanded here, on the first event, as Launch
 * expands them when it creates the `Visitor` instance at library load, and configure the service
 * before its first use.
 */
export function ecidRule(variables: Array<{ name: string; value: unknown }> = [], optIn?: EcidOptInSettings): LaunchRule {
  return {
    name: ECID_RULE,
    events: [libraryLoaded()],
    order: Number.MIN_SAFE_INTEGER,
    actions: [
      {
        name: 'Start the visitor service',
        // Not awaited: the ID call may take up to 30 s, past the action timeout.
        fn: (ctx) => {
          const visitor = ctx.services.visitor;
          const opt = optIn ? optInOptions(ctx, optIn) : undefined;
          if ((variables.length || opt) && visitor.configure && !visitor.configure({ ...visitorOptions(ctx, variables), ...(opt ? { optIn: opt } : {}) }))
            ctx.log('warn', 'Experience Cloud ID Service: the visitor service was in use before Library Loaded; its variables are not applied');
          void visitor.start().catch((err: unknown) => {
            ctx.log('error', `The visitor service did not start: ${err instanceof Error ? err.message : String(err)}`);
          });
        },
      },
    ],
  };
}

/**
 * The ECID extension's ECID data element: the Experience Cloud ID as VisitorAPI's instance answers
 * `getMarketingCloudVisitorID` at once, at the moment of the event — from the AMCV cookie the page
 * had then (the event's snapshot). On a visitor's first page that is undefined until the ID call
 * has answered and the worker's visitor service has written the cookie to the page, as VisitorAPI
 * answers "" until its ID call answers: turbine runs the rules of the page's first events (Library
 * Loaded, Page Bottom, DOM Ready) before that answer, however soon the worker's came. Without a
 * snapshot cookie, the worker's own.
 */
export function ecidValue(finish: Finish = {}): LaunchDataElement {
  return finished((ctx) => {
    const name = amcvCookieName(ctx.settings.orgId);
    const page = ctx.snapshot?.cookie;
    const raw = typeof page === 'string' ? parseCookieString(page)[name] : ctx.cookies.get(name);
    return raw ? decodeAmcv(raw).fields.get('MCMID')?.value : undefined;
  }, finish, []);
}
