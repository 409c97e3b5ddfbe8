/**
 * The storefront's rules (docs/spec-coverage.md D4): what fires on which event, under which conditions,
 * doing what. Beacons are built from the mapping in variables.ts.
 */
import type { Effect } from '../../src/protocol.ts';
import { trackingConsented } from '../../src/worker-engine/analytics/consent.ts';
import type { Rule, RuleContext } from '../../src/worker-engine/core/types.ts';
import type { Services } from '../../src/worker-engine/services.ts';
import type { StorefrontElement } from './data-elements.ts';
import { INSIGHTS_PATH } from './derived.ts';
import { linkHit, pageViewHit, send } from './hits.ts';
import type { AmplitudeSettings, RumSettings, StorefrontSettings } from './settings.ts';
import { LINK_VARIABLES, MODAL_VIEW_VARIABLES, PAGE_VIEW_VARIABLES } from './variables.ts';

type Ctx = RuleContext<StorefrontElement, Services, StorefrontSettings>;

/** docs/spec-coverage.md §4: the named direct-call events. */
export const DIRECT_CALLS = {
  pageView: 'Page View',
  modalView: 'Content: Modal View',
  elementImpressions: 'Element Impressions',
  elementInteractions: 'Element Interactions',
} as const;

/** The visitor library starts before any other Library Loaded rule, as the ECID extension does. */
export const VISITOR_RULE_ORDER = 1;

// docs/spec-coverage.md §7: Datadog RUM with 100% session and replay sampling, user input masked, the
// cookies added as context one second after init.
export const RUM_SCRIPT_ID = 'offtag-rum';
export const RUM_INIT = 'DD_RUM.init';
export const RUM_SET_CONTEXT = 'DD_RUM.setGlobalContextProperty';
export const RUM_COOKIE_CONTEXT_KEY = 'cookies';
export const RUM_SESSION_SAMPLE_RATE = 100;
export const RUM_SESSION_REPLAY_SAMPLE_RATE = 100;
export const RUM_PRIVACY_LEVEL = 'mask-user-input';
export const RUM_CONTEXT_DELAY_MS = 1000;

/** The cookies RUM gets as context: context key → data element. */
export const RUM_CONTEXT_COOKIES: Record<string, StorefrontElement> = {
  community: 'community cookie',
  AB1: 'AB1 cookie',
  AB2: 'AB2 cookie',
  AD1: 'AD1 cookie',
  DS1: 'DS1 cookie',
  DS2: 'DS2 cookie',
  signin: 'signin cookie',
  OHBU: 'OHBU cookie',
  'X-BT': 'X-BT cookie',
  clientIp: 'client IP cookie',
  G_: 'G_ cookie',
  O: 'O cookie',
  insightsEligible: 'insights eligible cookie',
};

export function rumScript(ctx: Ctx, rum: RumSettings = ctx.settings.rum): Extract<Effect, { type: 'script' }> {
  const cookies = Object.fromEntries(
    Object.entries(RUM_CONTEXT_COOKIES).map(([key, element]) => [key, ctx.get(element)]),
  );
  return {
    type: 'script',
    id: RUM_SCRIPT_ID,
    src: rum.scriptUrl,
    // The v7 bundle loads its session-replay recorder with `import()`, which Chromium refuses for
    // a cross-origin classic script loaded without `crossorigin` (docs/third-party.md).
    crossOrigin: 'anonymous',
    ...(rum.partytown ? { partytown: true } : {}),
    init: {
      fn: RUM_INIT,
      args: [
        {
          applicationId: rum.applicationId,
          clientToken: rum.clientToken,
          site: rum.site,
          service: rum.service,
          env: ctx.get('environment stage'),
          sessionSampleRate: RUM_SESSION_SAMPLE_RATE,
          sessionReplaySampleRate: RUM_SESSION_REPLAY_SAMPLE_RATE,
          defaultPrivacyLevel: RUM_PRIVACY_LEVEL,
          allowedTracingUrls: [...rum.allowedTracingUrls],
          // Batches are deflated in the SDK's own worker, off the main thread. Partytown's worker
          // has no `Worker`, and the SDK does not start there when asked to compress.
          compressIntakeRequests: !rum.partytown,
          ...(rum.proxy ? { proxy: rum.proxy } : {}),
        },
      ],
    },
    then: { fn: RUM_SET_CONTEXT, args: [RUM_COOKIE_CONTEXT_KEY, cookies], delay: RUM_CONTEXT_DELAY_MS },
  };
}

// A product-analytics tag (Amplitude's browser SDK, a queue-style tag), loaded through Partytown
// unless `amplitude.partytown` is false; its calls go through Partytown's `forward`.
export const AMPLITUDE_SCRIPT_ID = 'offtag-amplitude';
export const AMPLITUDE_INIT = 'amplitude.init';
export const AMPLITUDE_TRACK = 'amplitude.track';
export const AMPLITUDE_PAGE_VIEW = 'Page View';

export function amplitudeScript(ctx: Ctx, a: AmplitudeSettings = ctx.settings.amplitude): Extract<Effect, { type: 'script' }> {
  return {
    type: 'script',
    id: AMPLITUDE_SCRIPT_ID,
    src: a.scriptUrl,
    ...(a.partytown ? { partytown: true } : {}),
    init: {
      fn: AMPLITUDE_INIT,
      args: [
        a.apiKey,
        {
          ...(a.serverUrl ? { serverUrl: a.serverUrl } : {}),
          // Only the container's own events: no DOM autocapture, no remote configuration.
          autocapture: false,
          fetchRemoteConfig: false,
          // `null` is the SDK's OfflineDisabled: no network-connectivity checker, events go out at once.
          ...(a.holdWhileOffline ? {} : { offline: null }),
        },
      ],
    },
    then: {
      fn: AMPLITUDE_TRACK,
      args: [AMPLITUDE_PAGE_VIEW, { page_name: ctx.get('page name'), page_type: ctx.get('page type'), login_state: ctx.get('login state') }],
      delay: 0,
    },
  };
}

const isTrue = (element: StorefrontElement) => (ctx: Ctx) => ctx.get(element) === 'true';

export const rules: Rule<StorefrontElement, Services, StorefrontSettings>[] = [
  {
    name: 'Visitor service',
    events: [{ type: 'library-loaded' }],
    order: VISITOR_RULE_ORDER,
    actions: [
      {
        name: 'Start the visitor service',
        // Not awaited: the ID call may take up to 30 s, past the action timeout.
        fn: (ctx) => {
          void ctx.services.visitor.start().catch((err: unknown) => {
            ctx.log('error', `The visitor service did not start: ${err instanceof Error ? err.message : String(err)}`);
          });
        },
      },
    ],
  },
  {
    name: 'Page View',
    events: [{ type: 'direct-call', id: DIRECT_CALLS.pageView }],
    actions: [{ name: 'Send page view beacon', uses: Object.values(PAGE_VIEW_VARIABLES), fn: (ctx) => send(ctx, pageViewHit(PAGE_VIEW_VARIABLES, ctx)) }],
  },
  {
    name: 'Content: Modal View',
    events: [{ type: 'direct-call', id: DIRECT_CALLS.modalView }],
    actions: [{ name: 'Send modal page view beacon', uses: Object.values(MODAL_VIEW_VARIABLES), fn: (ctx) => send(ctx, pageViewHit(MODAL_VIEW_VARIABLES, ctx)) }],
  },
  {
    name: 'Element Impressions',
    events: [{ type: 'direct-call', id: DIRECT_CALLS.elementImpressions }],
    actions: [{ name: 'Send impressions link beacon', uses: ['element impression ids', ...Object.values(LINK_VARIABLES)], fn: (ctx) => send(ctx, linkHit('element impression ids', ctx)) }],
  },
  {
    name: 'Element Interactions',
    events: [{ type: 'direct-call', id: DIRECT_CALLS.elementInteractions }],
    actions: [{ name: 'Send interactions link beacon', uses: ['element click ids', ...Object.values(LINK_VARIABLES)], fn: (ctx) => send(ctx, linkHit('element click ids', ctx)) }],
  },
  {
    name: 'Real user monitoring',
    events: [{ type: 'window-loaded' }],
    conditions: [
      { name: 'Production', fn: isTrue('production flag') },
      { name: 'Datadog enabled', fn: isTrue('Datadog enabled') },
      { name: 'Insights page', fn: (ctx) => ctx.snapshot.url.includes(INSIGHTS_PATH) },
    ],
    actions: [{ name: 'Load Datadog RUM', fn: (ctx) => ctx.emit(rumScript(ctx)) }],
  },
  {
    name: 'Product analytics',
    events: [{ type: 'window-loaded' }],
    conditions: [
      { name: 'Amplitude configured', fn: (ctx) => ctx.settings.amplitude.apiKey !== '' },
      { name: 'Tracking consent', fn: (ctx) => trackingConsented(ctx) },
      { name: 'No GPC', fn: (ctx) => ctx.get('GPC') !== 'true' },
    ],
    actions: [{ name: 'Load Amplitude', fn: (ctx) => ctx.emit(amplitudeScript(ctx)) }],
  },
];
