/** What the service answers from the AMCV cookie: the values AppMeasurement asks for, and each getter's. */
import type { VisitorValues } from '../services.ts';
import type { AmcvState } from './amcv-state.ts';
import { OptOut } from './constants.ts';
import type { VisitorCallResult } from './opt-in-calls.ts';

export function noneToEmpty(v: string | undefined): string {
  return v === undefined || v === 'NONE' ? '' : v;
}

/** Whether an opt-out value (`NONE`, `global`, or a list of types) opts out of `type`. */
export const isOptedOutValue = (v: string | undefined, type: string): boolean =>
  !!v && v !== 'NONE' && (v === OptOut.GLOBAL || v.split(',').includes(type));

/**
 * `getVisitorValues()`: MCOPTOUT, and the ids the cookie holds. MCAID only with a tracking server
 * (VisitorAPI answers '' for it without one; docs/visitor.md, "adobe_mc hand-off and the analytics id").
 */
export function readVisitorValues(amcv: AmcvState, hasTrackingServer: boolean): VisitorValues {
  const out: VisitorValues = { MCOPTOUT: isOptedOutValue(amcv.value('MCOPTOUT'), OptOut.GLOBAL) };
  const mid = noneToEmpty(amcv.value('MCMID'));
  const aid = noneToEmpty(amcv.value('MCAID'));
  const hint = amcv.stored('MCAAMLH');
  const blob = amcv.stored('MCAAMB');
  if (mid) out.MCMID = mid;
  if (aid && hasTrackingServer) out.MCAID = aid;
  if (hint) out.MCAAMLH = hint;
  if (blob) out.MCAAMB = blob;
  return out;
}

/**
 * A 5.5.0 getter's answer: the callback fires when the value arrived now, or for a cached value only
 * when forced (`force`). `ok`: the service has values (started, not excluded, ECID approved).
 */
export function getterAnswer(amcv: AmcvState, field: string, opts: { cached: boolean; force: unknown; ok: boolean; hasTrackingServer: boolean }): VisitorCallResult {
  // Without a tracking server the library answers '' for the analytics id, and always calls back.
  if (field === 'MCAID' && !opts.hasTrackingServer) return { value: '', callbacks: [['']] };
  const v = opts.ok ? noneToEmpty(field === 'MCAAMLH' || field === 'MCAAMB' ? amcv.stored(field) : amcv.value(field)) : '';
  return { value: v, callbacks: opts.cached && !opts.force ? [] : [[v]] };
}
