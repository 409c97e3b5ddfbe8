/**
 * What the service holds besides the cookie: the customer ids and the SDID state, and how a
 * `serverState` (at start, from `getInstance`, from `resetState`) changes them.
 */
import type { EngineContext } from '../core/types.ts';
import type { CustomerIds } from './customer-ids.ts';
import { adoptSdid, emptySdidState, takeSdid, type SdidState } from './sdid.ts';
import { parseServerState } from './server-state.ts';

export interface VisitorState {
  customerIds(): CustomerIds;
  addCustomerIds(ids: CustomerIds): void;
  /** Applies a `serverState`; throws "`serverState` has an invalid format." for a broken one. */
  applyServerState(state: unknown): void;
  /** The same, for a state given at start or to `getInstance`: a broken one is said, not thrown. */
  tryServerState(state: unknown): void;
  /** Makes `sdid` the current SDID (handed over in `adobe_mc_sdid`). */
  setCurrentSdid(sdid: string): void;
  resetSdid(): void;
  takeSdid(consumer: string, noGenerate: boolean): string;
  /** `consumer` on the page took `id` already (sdid.ts `adoptSdid`). */
  adoptSdid(consumer: string, id: string): void;
}

export function createVisitorState(ctx: EngineContext, orgId: string): VisitorState {
  let customerIds: CustomerIds = {};
  let sdid: SdidState = emptySdidState();
  const state: VisitorState = {
    customerIds: () => customerIds,
    addCustomerIds(ids) {
      customerIds = { ...customerIds, ...ids };
    },
    applyServerState(s) {
      const parsed = parseServerState(s, orgId);
      customerIds = { ...customerIds, ...parsed.customerIDs };
      if (parsed.sdid) sdid = { ...emptySdidState(), ...parsed.sdid };
    },
    tryServerState(s) {
      if (s === undefined) return;
      try {
        state.applyServerState(s);
      } catch (err) {
        ctx.log('error', (err as Error).message);
      }
    },
    setCurrentSdid(current) {
      sdid = { ...emptySdidState(), current };
    },
    resetSdid() {
      sdid = emptySdidState();
    },
    takeSdid: (consumer, noGenerate) => takeSdid(sdid, consumer, noGenerate, () => ctx.env.random()),
    adoptSdid: (consumer, id) => adoptSdid(sdid, consumer, id),
  };
  return state;
}
