/**
 * What the Adobe services offer a container's rules (types only): the visitor-ID service and the
 * analytics tracker implement these, adobe-services.ts builds them, and a container reaches them
 * through its hooks. Types only, so the tracker and the visitor service import them without a loop.
 */
import type { LinkClick } from '../protocol.ts';
import type { VisitorOptions } from './visitor/service.ts';

/** The services a container built with `adobeServices()` (src/container) gets: built once per engine from the context. */
export interface Services {
  visitor: VisitorService;
  analytics: AnalyticsService;
}

export interface VisitorValues {
  MCMID?: string;
  MCAID?: string;
  MCAAMLH?: string;
  MCAAMB?: string;
  MCOPTOUT?: boolean;
}

export interface VisitorService {
  /** The 'Visitor service' rule (Library Loaded): read the AMCV cookie, make the ID call if due. */
  start(): Promise<void>;
  /**
   * Configuration computed on the first event (an imported ECID extension's variables, tokens
   * expanded), added to the container's fixed options; false once the service is built (its
   * first use), when it no longer changes.
   */
  configure?(options: VisitorOptions): boolean;
  /** Resolves once the ID call answered or timed out (AppMeasurement waits for this). */
  getVisitorValues(): Promise<VisitorValues>;
  /** The org id as sent (`…@AdobeOrg`). */
  readonly orgId: string;
  /** Opt-in: whether a category is approved (true when opt-in does not apply). */
  isApproved(category: string): boolean;
  /** Customer ids for the analytics `cid.` block: data source → {id, authState}. */
  getCustomerIDs(): Record<string, { id: string; authState: number }>;
  /**
   * `getSupplementalDataID(consumer, noGenerate)` (VisitorAPI.js 5.5.0: serverState, URL hand-off, SDID): with `noGenerate` the consumer gets an
   * id only when one exists already (handed over in the URL or `serverState`, or made by another consumer).
   */
  getSupplementalDataID(consumer: string, noGenerate: boolean): string;
  /** A call from the page-side `Visitor` facade. */
  call(method: string, args: unknown[]): Promise<{ value?: unknown; callbacks?: unknown[][] }>;
  /** A postMessage from a frame the service created (the ID-sync iframe); origin unchecked. */
  onFrameMessage(frameId: string, origin: string, data: unknown): void;
}

/** One analytics hit as a rule asks for it. */
export interface AnalyticsHit {
  /** `t`: page view; `tl`: link. */
  type: 't' | 'tl';
  /** AppMeasurement variable names (`pageName`, `channel`, `eVar1`, `prop2`, `list1`, `hier1`, `events`, `products`, …). */
  vars: Record<string, string | undefined>;
  linkType?: 'o' | 'd' | 'e';
  linkName?: string;
  linkUrl?: string;
  /** The analytics extension's filters for link hits (docs/spec-coverage.md D5). */
  linkTrackVars?: string;
  linkTrackEvents?: string;
  /** ActivityMap context data for automatic link hits. */
  contextData?: Record<string, string>;
  /** The tracker's `collectHighEntropyUserAgentHints`: the hit carries the browser's high-entropy client hints (the `h.` block). */
  clientHints?: boolean;
  /**
   * The report suites the hit goes to, when the tracker says (AppMeasurement sends to `s.account`
   * as it is at the call: an imported library's report suite from a data element, or site code
   * that sets `s.account`); without it, the container's report suite for the environment.
   */
  account?: string;
  /**
   * AppMeasurement's postbacks, on when its Audience Manager module is ready (Audience Manager
   * forwarding) or `usePostbacks` is set: the path's `10`, `callback=s_c_il[<index>].doPostbacks&et=1`
   * (`index`: the tracker's place in the page's `s_c_il`) and, from the module, the `d.` block.
   */
  postbacks?: { index: number; d?: Record<string, string> };
}

export interface AnalyticsService {
  /** Build and send one beacon, subject to consent, opt-in and opt-out; never throws. */
  track(hit: AnalyticsHit): Promise<void>;
  /** Automatic link tracking (download and exit links). */
  onClick(link: LinkClick): Promise<void>;
  /** A beacon of this page was delivered (2xx) after `rttMs`: the next beacon reports it as `lrt`. */
  onBeaconDelivered(rttMs: number): void;
  /** Hits handed to `track`/`onClick` whose beacon is not emitted (or dropped) yet: the worker acknowledges events only at 0. */
  pendingHits?(): number;
}
