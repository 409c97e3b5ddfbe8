/**
 * The page-side `Visitor` facade's calls (main-bridge/visitor-facade.ts sends them as
 * `service-call` events): each method's answer, from the service's parts.
 */
import type { EngineContext } from '../core/types.ts';
import type { VisitorValues } from '../services.ts';
import type { AmcvState } from './amcv-state.ts';
import { OptOut } from './constants.ts';
import type { IdCalls } from './id-call.ts';
import { idSyncByDataSourceUrl, type IdSyncByUrlConfig } from './id-sync.ts';
import type { IdSyncs } from './id-sync-frame.ts';
import { normalizeOrgId } from './org-id.ts';
import type { OptIn } from './opt-in.ts';
import { optInCall, type VisitorCallResult } from './opt-in-calls.ts';
import { appendVisitorIDsTo } from './url-handoff.ts';
import type { VisitorState } from './visitor-state.ts';
import { isOptedOutValue } from './visitor-values.ts';

export interface FacadeDeps {
  ctx: EngineContext;
  orgId: string;
  optIn: OptIn;
  amcv: AmcvState;
  ids: IdCalls;
  syncs: IdSyncs;
  state: VisitorState;
  /** Resolves when the values are as good as they will get for now; false when there are none. */
  ready(): Promise<boolean>;
  visitorValues(): Promise<VisitorValues>;
  /** A 5.5.0 getter of one AMCV field (`args[1]`: force the callback). */
  getter(field: string, args: unknown[]): Promise<VisitorCallResult>;
  setCustomerIDs(input: unknown, hashType: unknown): Promise<VisitorCallResult>;
  /** The opt-out value (`NONE`, `global`, or a list of types). */
  optOutValue(): Promise<string>;
}

export function createFacadeCalls(d: FacadeDeps): (method: string, args: unknown[]) => Promise<VisitorCallResult> {
  const { ctx, orgId, amcv, ids, syncs, state } = d;

  async function visitorValuesCall(args: unknown[]): Promise<VisitorCallResult> {
    const all = await d.visitorValues();
    const wanted = Array.isArray(args[1]) ? (args[1] as string[]) : undefined;
    const values = wanted ? Object.fromEntries(Object.entries(all).filter(([k]) => wanted.includes(k))) : all;
    return { value: values, callbacks: [[values]] };
  }

  async function optOutCall(method: 'isOptedOut' | 'getOptOut', args: unknown[]): Promise<VisitorCallResult> {
    await d.ready();
    const raw = await d.optOutValue();
    const v = method === 'getOptOut' ? raw : isOptedOutValue(raw, typeof args[1] === 'string' ? args[1] : OptOut.GLOBAL);
    return { value: v, callbacks: [[v]] };
  }

  return async function call(method, args) {
    const optInAnswer = optInCall(d.optIn, method, args);
    if (optInAnswer) return optInAnswer;
    switch (method) {
      case 'getInstance': {
        const org = normalizeOrgId(args[0]);
        if (org !== orgId) ctx.log('warn', `Visitor.getInstance("${org}"): this container serves "${orgId}" only.`);
        state.tryServerState(((args[1] ?? {}) as Record<string, unknown>).serverState);
        return { value: orgId };
      }
      case 'getMarketingCloudVisitorID':
        return d.getter('MCMID', args);
      case 'getAnalyticsVisitorID':
        return d.getter('MCAID', args);
      case 'getAudienceManagerLocationHint':
      case 'getLocationHint':
        return d.getter('MCAAMLH', args);
      case 'getAudienceManagerBlob':
        return d.getter('MCAAMB', args);
      case 'getVisitorValues':
        return visitorValuesCall(args);
      case 'setCustomerIDs':
        return d.setCustomerIDs(args[0], args[1]);
      case 'getCustomerIDs': {
        const dataSources = structuredClone(state.customerIds());
        return { value: args[0] === true ? { dataSources, nameSpaces: {} } : dataSources };
      }
      case 'isOptedOut':
      case 'getOptOut':
        return optOutCall(method, args);
      case 'isAllowed':
        return { value: ctx.page.cookiesEnabled };
      case 'appendVisitorIDsTo': {
        await d.ready();
        const url = typeof args[0] === 'string' ? args[0] : '';
        return { value: appendVisitorIDsTo(url, { MCMID: amcv.value('MCMID'), MCAID: amcv.value('MCAID') }, orgId, ctx.env.now()) };
      }
      case 'getSupplementalDataID':
        // A third argument: the id the page's own `Visitor` already gave this consumer (src/launch/appmeasurement/page-tracker.ts).
        if (typeof args[2] === 'string' && args[2]) return state.adoptSdid(String(args[0] ?? ''), args[2]), { value: args[2] };
        return { value: state.takeSdid(String(args[0] ?? ''), args[1] === true) };
      case 'resetState':
        if (args[0] === undefined || args[0] === null) state.resetSdid();
        else state.applyServerState(args[0]);
        return {};
      case 'idSyncByURL':
        return { value: syncs.byUrl((args[0] ?? {}) as IdSyncByUrlConfig) };
      case 'idSyncByDataSource': {
        const cfg = (args[0] ?? {}) as IdSyncByUrlConfig;
        return { value: syncs.byUrl({ ...cfg, url: idSyncByDataSourceUrl(String(cfg.dpid ?? ''), String(cfg.dpuuid ?? '')) }) };
      }
      case 'isMarketingCloudVisitorIDCallTimedOut':
        return { value: ids.timedOut.MC };
      case 'isAudienceManagerCallTimedOut':
        return { value: ids.timedOut.AAM };
      case 'isAnalyticsVisitorIDCallTimedOut':
        return { value: ids.timedOut.A };
      default:
        throw new Error(`Visitor has no method "${method}".`);
    }
  };
}
