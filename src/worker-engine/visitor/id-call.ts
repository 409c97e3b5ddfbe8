/**
 * The calls to the ID service: which `/id` call the cookie asks for (VisitorAPI.js 5.5.0: the /id call "When calls
 * fire"), one at a time, what a reply (or its absence) leaves in the cookie (§3), and the
 * `/optOutStatus` call made without ECID consent.
 */
import type { EngineContext } from '../core/types.ts';
import { dayNumber } from './amcv-cookie.ts';
import type { AmcvState } from './amcv-state.ts';
import { ID_CALL_INTERVAL_DAYS, LOAD_TIMEOUT_MS } from './constants.ts';
import { customerIdParams, customerIdsHash, type CustomerIds } from './customer-ids.ts';
import { buildIdUrl, buildOptOutStatusUrl, type FieldGroup, type IdRequestParams } from './id-request.ts';
import { idReplyRejected, readIdResponse, type IdReply } from './id-response.ts';
import { localMid } from './local-mid.ts';

export interface IdCallDeps {
  amcv: AmcvState;
  orgId: string;
  containerId: number;
  /** `disableThirdPartyCookies`: `d_coppa=true`. */
  coppa: boolean;
  /** `overwriteCrossDomainMCIDAndAID`: the reply's MID replaces the one held. */
  overwriteMid: boolean;
  customerIds(): CustomerIds;
  /** A usable reply is in the cookie; `regionChanged`: its location hint differs from the one held. */
  onReply(reply: IdReply, regionChanged: boolean): void;
}

export interface IdCalls {
  /** Queues the call the cookie asks for now (or only a write of the cookie when none is due). */
  refresh(): Promise<void>;
  /** Resolves when the calls queued so far are done. */
  idle(): Promise<void>;
  /** Which field groups' calls gave no usable reply (the `is…CallTimedOut` getters). */
  readonly timedOut: Record<FieldGroup, boolean>;
  /** The opt-out status without ECID consent: `/optOutStatus`, kept in memory for its TTL. */
  optOutStatus(): Promise<string>;
}

const hashOf = (ids: CustomerIds) => (Object.keys(ids).length ? customerIdsHash(ids) : '');

export function createIdCalls(ctx: EngineContext, deps: IdCallDeps): IdCalls {
  const { amcv } = deps;
  const now = () => ctx.env.now();
  /** Serialises ID calls so that a field group is never asked for twice at once. */
  let chain: Promise<void> = Promise.resolve();
  const timedOut = { MC: false, AAM: false, A: false };
  let optOut: { value: string; until: number } | undefined;

  function requestParams(fieldGroup: FieldGroup): IdRequestParams {
    const p: IdRequestParams = {
      idServiceHost: ctx.settings.idServiceHost,
      fieldGroup,
      orgId: deps.orgId,
      containerId: deps.containerId,
      now: now(),
      customerIdParams: customerIdParams(deps.customerIds()),
    };
    const mid = amcv.value('MCMID');
    if (mid && mid !== 'NONE') p.mid = mid;
    const blob = amcv.stored('MCAAMB');
    if (blob) p.blob = blob;
    const aid = amcv.value('MCAID');
    if (aid && aid !== 'NONE') p.aid = aid;
    if (deps.coppa) p.coppa = true;
    return p;
  }

  /** Which call the cookie asks for now, if any. */
  function dueFieldGroup(): FieldGroup | undefined {
    const today = dayNumber(now());
    const idts = Number(amcv.stored('MCIDTS'));
    // The daily call and a change of customer ids expire the blob, which makes the AAM call due below.
    if (!idts || today - idts > ID_CALL_INTERVAL_DAYS) {
      amcv.expire('MCAAMB');
      amcv.set('MCIDTS', String(today));
    }
    if ((amcv.stored('MCCIDH') ?? '') !== hashOf(deps.customerIds())) amcv.expire('MCAAMB');
    // Without a MID the MC call fills everything. With one, the expired AAM fields ask for AAM (a
    // return visit more than a day later: VisitorAPI expires MCAAMB at start and asks d_fieldgroup=AAM);
    // its reply refreshes MCOPTOUT as well. Only the session-bound MCOPTOUT missing asks for MC again.
    if (!amcv.value('MCMID')) return 'MC';
    if (!amcv.live('MCAAMLH') || !amcv.live('MCAAMB')) return 'AAM';
    if (!amcv.live('MCOPTOUT')) return 'MC';
    return undefined;
  }

  async function call(group: FieldGroup): Promise<void> {
    const cidhSent = hashOf(deps.customerIds());
    const url = buildIdUrl(requestParams(group));
    ctx.monitor('visitor-id-call', { url, fieldGroup: group });
    const res = await ctx.fetch({
      kind: 'id-service',
      method: 'GET',
      url,
      credentials: 'include',
      timeout: LOAD_TIMEOUT_MS,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    const outcome = readIdResponse(res);
    if (outcome.kind === 'reply') {
      applyReply(outcome.reply, cidhSent);
      return;
    }
    // On an unusable reply the library leaves its callbacks waiting until its load timeout (30 s).
    // Offtag falls back at once: the first analytics hit waits for these values, and a page that
    // died in those 30 s would have lost it. One message, with the real cause.
    if (outcome.kind !== 'network') timedOut[group] = true;
    const fallback = !amcv.value('MCMID');
    if (fallback) amcv.set('MCMID', localMid(now(), () => ctx.env.random()));
    if (outcome.kind === 'unusable') {
      ctx.log('warn', `Visitor ID call: ${outcome.reason}${fallback ? '; using a local Marketing Cloud ID' : ''}.`);
    } else if (fallback) {
      ctx.log('warn', `Visitor ID call ${outcome.kind === 'network' ? 'failed' : 'timed out'}; using a local Marketing Cloud ID.`);
    }
    amcv.persist();
  }

  function applyReply(reply: IdReply, cidhSent: string): void {
    if (reply.rejected.length) ctx.log('warn', idReplyRejected(reply.rejected));
    if (reply.mid && (!amcv.value('MCMID') || deps.overwriteMid)) amcv.set('MCMID', reply.mid);
    if (!amcv.value('MCMID')) {
      amcv.set('MCMID', localMid(now(), () => ctx.env.random()));
      ctx.log('warn', 'Visitor ID call: the reply had no valid MID; using a local Marketing Cloud ID.');
    }
    let regionChanged = false;
    if (reply.region !== undefined) {
      const previous = amcv.stored('MCAAMLH');
      if (previous !== undefined && previous !== reply.region) {
        amcv.delete('MCSYNCS');
        amcv.delete('MCSYNCSOP');
        regionChanged = true;
      }
      amcv.set('MCAAMLH', reply.region, reply.ttl);
    }
    if (reply.blob !== undefined) amcv.set('MCAAMB', reply.blob, reply.ttl);
    if (reply.errorMsg === undefined) {
      if (cidhSent) amcv.set('MCCIDH', cidhSent);
      else amcv.delete('MCCIDH');
    }
    if (!amcv.live('MCOPTOUT')) amcv.set('MCOPTOUT', reply.optOut, reply.optOutTtl, true);
    amcv.persist();
    deps.onReply(reply, regionChanged);
  }

  return {
    refresh() {
      // A call that throws is said once and does not stop the calls after it.
      chain = chain
        .then(async () => {
          const group = dueFieldGroup();
          if (group) await call(group);
          else amcv.persist();
        })
        .catch((err: unknown) => ctx.log('error', `Visitor ID call failed: ${err instanceof Error ? err.message : String(err)}`));
      return chain;
    },
    idle: () => chain,
    timedOut,
    async optOutStatus() {
      if (optOut && optOut.until > now()) return optOut.value;
      const res = await ctx.fetch({
        kind: 'opt-out-status',
        method: 'GET',
        url: buildOptOutStatusUrl(requestParams('MC')),
        credentials: 'include',
        timeout: LOAD_TIMEOUT_MS,
      });
      const outcome = readIdResponse(res);
      if (outcome.kind !== 'reply') return 'NONE';
      optOut = { value: outcome.reply.optOut, until: now() + outcome.reply.optOutTtl * 1000 };
      return optOut.value;
    },
  };
}
