/**
 * Bench variant 4: Adobe's Web SDK (`@adobe/alloy`, main thread), the library Adobe recommends
 * today, sending the storefront's events to a local edge endpoint (the bench answers
 * `https://edge.bench.test/**` with Playwright's `page.route`: the SDK hard-codes https).
 * `_satellite.track(name)` maps each storefront event to one `sendEvent` whose XDM and
 * `data.__adobe.analytics` carry the storefront's main variables read straight from the data
 * layer: the SDK's own cost with a comparable payload, not the storefront's data element logic.
 */
import { createInstance } from '@adobe/alloy';

type Dict = Record<string, any>;
const w = window as unknown as Dict;
const alloy = createInstance({ name: 'alloy' }) as (command: string, options?: Dict) => Promise<unknown>;
const ready = alloy('configure', {
  datastreamId: 'bench-datastream',
  orgId: '0123456789ABCDEF01234567@AdobeOrg',
  edgeDomain: 'edge.bench.test',
  defaultConsent: 'in',
  clickCollectionEnabled: false,
  thirdPartyCookiesEnabled: false,
  idMigrationEnabled: false,
  debugEnabled: false,
});

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));
function payload(id: string): Dict {
  const dl = (w.digitalData ?? {}) as Dict;
  const info = dl.page?.pageInfo ?? {};
  const user = dl.user?.profile ?? {};
  const pageName = `acme:${str(info.pageType)}:${str(info.pageUID)}`.toLowerCase();
  const link = id === 'Element Impressions' || id === 'Element Interactions';
  const ids = (dl.page?.element ?? []).map((e: Dict) => str(link && id === 'Element Interactions' ? e.click?.id : e.impression?.id)).filter(Boolean).join(',');
  const analytics: Dict = {
    pageName: id === 'Content: Modal View' ? `${pageName} - modal` : pageName,
    channel: str(dl.page?.category?.lineOfBusiness) || 'acme',
    server: location.hostname,
    hier1: pageName.replace(/:/g, '|'),
    eVar1: str(user.attributes?.loginState),
    eVar2: str(user.attributes?.accountNumber),
    eVar3: str(user.profileInfo?.profileID),
    eVar12: str(info.language),
    eVar13: str(info.template),
    eVar14: str(info.contentTitle),
    eVar20: str(dl.product?.[0]?.productInfo?.sku),
    prop1: 'D=v1',
    prop2: 'D=pageName',
    list1: ids,
    list2: (dl.internalCampaign ?? []).map((c: Dict) => str(c.impression?.id)).join(','),
  };
  return {
    xdm: {
      eventType: link ? 'web.webInteraction.linkClicks' : 'web.webpagedetails.pageViews',
      web: link
        ? { webInteraction: { name: ids || 'link clicked', type: 'other', linkClicks: { value: 1 } } }
        : { webPageDetails: { name: analytics.pageName, server: analytics.server, pageViews: { value: 1 } } },
    },
    data: { __adobe: { analytics } },
  };
}

w._satellite = {
  track(id: string) {
    const p = payload(String(id).trim());
    void ready.then(() => alloy('sendEvent', p)).catch(() => undefined);
  },
};
