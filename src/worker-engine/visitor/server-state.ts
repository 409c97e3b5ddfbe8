/**
 * `serverState` (VisitorAPI.js 5.5.0: serverState, URL hand-off, SDID): customer ids and SDID state a server rendered for the page,
 * keyed by org. Anything malformed throws the library's message.
 */
import { MESSAGES } from './constants.ts';
import type { CustomerIds } from './customer-ids.ts';
import type { SdidState } from './sdid.ts';

export interface ServerState {
  customerIDs?: CustomerIds;
  sdid?: Partial<SdidState>;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function invalid(): never {
  throw new Error(MESSAGES.serverStateInvalid);
}

function consumed(v: unknown): Record<string, boolean> {
  if (v === undefined) return {};
  if (!isObject(v)) invalid();
  const out: Record<string, boolean> = {};
  for (const [k, x] of Object.entries(v)) out[k] = !!x;
  return out;
}

function optionalString(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') invalid();
  return v;
}

/** This org's part of a server state (object or JSON string); `{}` when it has none. */
export function parseServerState(input: unknown, orgId: string): ServerState {
  let v = input;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      // Left a string, which the check below refuses with the library's message.
    }
  }
  if (!isObject(v)) invalid();
  const mine = v[orgId];
  if (mine === undefined) return {};
  if (!isObject(mine)) invalid();
  const out: ServerState = {};
  if (mine.customerIDs !== undefined) {
    if (!isObject(mine.customerIDs)) invalid();
    const ids: CustomerIds = {};
    for (const [ds, c] of Object.entries(mine.customerIDs)) {
      if (!isObject(c) || typeof c.id !== 'string') invalid();
      ids[ds] = { id: c.id, authState: typeof c.authState === 'number' ? c.authState : 0 };
    }
    out.customerIDs = ids;
  }
  if (mine.sdid !== undefined) {
    if (!isObject(mine.sdid)) invalid();
    const s = mine.sdid;
    out.sdid = {
      current: optionalString(s.supplementalDataIDCurrent),
      currentConsumed: consumed(s.supplementalDataIDCurrentConsumed),
      last: optionalString(s.supplementalDataIDLast),
      lastConsumed: consumed(s.supplementalDataIDLastConsumed),
    };
  }
  return out;
}
