/**
 * The `/id` request of VisitorAPI.js 5.5.0 (VisitorAPI.js 5.5.0: the /id call): its host, its parameters in the
 * library's build order, `d_fieldgroup` moved to second place and `ts` appended last.
 */
import { VISITOR_VERSION } from './constants.ts';
import { originFor } from '../core/settings.ts';
import { encodeText } from '../core/well-formed.ts';

export type FieldGroup = 'MC' | 'AAM' | 'A';

export interface IdRequestParams {
  /** `idServiceHost`: a bare host (https) or a full origin for local servers. */
  idServiceHost: string;
  fieldGroup: FieldGroup;
  orgId: string;
  /** `idSyncContainerID`. */
  containerId: number;
  /** The MID already known (cookie, URL hand-off). */
  mid?: string;
  /** `MCAAMB`, sent even when expired. */
  blob?: string;
  /** The MCAID held (handed over, or from the cookie): sent as the first `d_cid_ic`, data source `AVID`. */
  aid?: string;
  /** The `&d_cid_ic=…` block of customer-ids.ts, ready to append. */
  customerIdParams?: string;
  /** `d_coppa=true`: third-party cookies or their syncs are disabled. */
  coppa?: boolean;
  /** Epoch ms for `ts`. */
  now: number;
}

/** The ID host is a CNAME when it is not on `.demdex.net`: then `d_verify=1` goes along while no MID is known. */
export function isDemdexHost(idServiceHost: string): boolean {
  const host = idServiceHost.replace(/^https?:\/\//i, '').replace(/[:/].*$/, '').toLowerCase();
  return host === 'demdex.net' || host.endsWith('.demdex.net');
}

export function idServiceOrigin(idServiceHost: string): string {
  return originFor(idServiceHost, 'https:');
}

/** The query of the `/id` (or `/optOutStatus`) call, without the leading `?`. */
export function buildIdQuery(p: IdRequestParams): string {
  const params: string[] = [`d_visid_ver=${VISITOR_VERSION}`];
  // gdpr / gdpr_consent and d_cf only exist in IAB mode, which this container does not use.
  params.push('d_rtbd=json', 'd_ver=2');
  if (!p.mid && !isDemdexHost(p.idServiceHost)) params.push('d_verify=1');
  params.push(`d_orgid=${encodeText(p.orgId)}`, `d_nsid=${p.containerId}`);
  if (p.mid) params.push(`d_mid=${encodeText(p.mid)}`);
  if (p.coppa) params.push('d_coppa=true');
  // d_coop_safe / d_coop_unsafe come from `isCoopSafe` / `setAsCoop(Un)Safe()`, which this container does not offer.
  if (p.blob) params.push(`d_blob=${encodeText(p.blob)}`);
  let query = params.join('&') + (p.aid ? `&d_cid_ic=AVID%01${encodeText(p.aid)}` : '') + (p.customerIdParams ?? '');
  // The library builds the query first and then slips the field group in after the version
  // (the query's first parameter, so the first match is at its start).
  query = query.replace(/(d_visid_ver=[^&]*)/, `$1&d_fieldgroup=${p.fieldGroup}`);
  return `${query}&ts=${p.now}`;
}

export function buildIdUrl(p: IdRequestParams): string {
  return `${idServiceOrigin(p.idServiceHost)}/id?${buildIdQuery(p)}`;
}

/** Without ECID consent the same query asks only for the opt-out status (VisitorAPI.js 5.5.0: response fields). */
export function buildOptOutStatusUrl(p: IdRequestParams): string {
  return `${idServiceOrigin(p.idServiceHost)}/optOutStatus?${buildIdQuery(p)}`;
}
