/**
 * The beacon queue's rules (docs/delivery.md): which answers end a beacon's life, how long it
 * waits before the next try, and the limits and timings the queue runs with.
 */
import type { BeaconQueueOptions } from './queue-types.ts';

export const BASE_RETRY_DELAY_MS = 1_000;
export const MAX_RETRY_DELAY_MS = 30_000;
export const REQUEST_TIMEOUT_MS = 5_000;
export const LEASE_MS = 5_000;
export const STORE_TIMEOUT_MS = 3_000;
/** Server refusals (5xx, 408, 429) after which a beacon lets the next one try (it steps aside if that one goes through). */
export const STEP_ASIDE_AFTER = 3;
/** Server refusals after which a beacon that stepped aside is given up. Network failures never count. */
export const GIVE_UP_AFTER = 10;
/** A renewal also renews the claims in line that would run out within this much more (one transaction for a long line). */
export const RENEW_AHEAD_MS = 10_000;
/** At most this many claims in one renewal. */
export const RENEW_BATCH = 200;
/** At most this many beacons handed to the sender (`ChainFetch`) and not yet answered. */
export const RUN_MAX = 64;
/** Store transactions start at most this often (ms): a burst's writes and deletes share them. */
export const STORE_GROUP_MS = 8;
/**
 * Deletes of delivered beacons wait while the line has more to send, at most this many
 * (`StoreWriter.removeLater`): a page that dies meanwhile has them sent again by the next one.
 */
export const DELETES_WAIT_MAX = 256;
/** Ack markers older than this are pruned at start. */
export const ACK_MAX_AGE_MS = 7 * 864e5;
/** A claim must cover a whole request and this much more for the request to start (`claimRunsOut`). */
export const CLAIM_MARGIN_MS = 1_000;

/** Whether an answer ends the beacon's life: any answer but 408, 429 and 5xx (network errors never do). */
export function settles(status: number): boolean {
  if (status === 408 || status === 429) return false;
  return status < 500;
}

export function retryDelay(attempts: number, base = BASE_RETRY_DELAY_MS, max = MAX_RETRY_DELAY_MS): number {
  return Math.min(max, base * 2 ** Math.max(0, attempts - 1));
}

/** What one send came to: an answer (`ms`: its round trip, when the sender timed it) or a network error. */
export type SendResult = { status: number; ms?: number } | { error: string };
/** Whether a send's result ends the beacon's life (`settles`). */
export const isSettled = (r: SendResult): r is { status: number; ms?: number } => 'status' in r && settles(r.status);
/** A send's failure, in words. */
export const failureOf = (r: SendResult): string => ('status' in r ? `HTTP ${r.status}` : r.error);

/** The queue's timings, its options' or the defaults. */
export interface QueueTiming {
  baseDelayMs: number;
  maxDelayMs: number;
  requestTimeoutMs: number;
  leaseMs: number;
  storeTimeoutMs: number;
}

export function timingOf(opts: BeaconQueueOptions): QueueTiming {
  return {
    baseDelayMs: opts.baseDelayMs ?? BASE_RETRY_DELAY_MS,
    maxDelayMs: opts.maxDelayMs ?? MAX_RETRY_DELAY_MS,
    requestTimeoutMs: opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    leaseMs: opts.leaseMs ?? LEASE_MS,
    storeTimeoutMs: opts.storeTimeoutMs ?? STORE_TIMEOUT_MS,
  };
}

/** The wait before a beacon's next try, after `attempts` failures. */
export const backOff = (t: QueueTiming, attempts: number): number => retryDelay(attempts, t.baseDelayMs, t.maxDelayMs);
