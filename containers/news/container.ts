/**
 * A news site's container, the second one in the house (docs/containers.md): its own data layer
 * (`window.newsData`), report suites, currency and list delimiter, a consent rule that turns the
 * site's consent banner answer into the tracking-consent cookie, and a rule for each event type
 * the engine knows. Built with `offtag build --container containers/news/container.ts`;
 * tested end to end by tests/e2e/news.spec.ts. Nothing in src/ names it.
 */
import { adobeServices, constant, dataLayer, defineContainer, elements, queryString } from '../../src/container/index.ts';

type Name =
  | 'section'
  | 'headline'
  | 'article id'
  | 'page type'
  | 'page name'
  | 'reader'
  | 'tier'
  | 'tags'
  | 'campaign'
  | 'consent'
  | 'edition'
  | 'share network'
  | 'clicked text';

/** The news site's own settings. */
interface NewsSettings {
  /** The consent banner's cookie: `all` lets analytics run. */
  consentCookie: string;
}

const e = elements<Name, NewsSettings>();

export const news = defineContainer({
  name: 'news',
  version: '0.3.0',
  settings: {
    brand: 'news',
    dataLayer: 'newsData',
    reportSuites: { production: 'newsprod', staging: 'newsstage', development: 'newsdev' },
    currency: 'EUR',
    listDelimiter: ';',
    trackingConsentCookie: 'news_track',
    orgId: 'FEDCBA9876543210FEDCBA98@AdobeOrg',
    consentCookie: 'news_consent',
  },
  dataElements: {
    section: dataLayer('page.section', { default: 'home', lowerCase: true }),
    headline: dataLayer('page.headline', { cleanText: true }),
    'article id': dataLayer('page.id'),
    'page type': dataLayer('page.type', { default: 'front' }),
    // <section>:<article id, else the page type>
    'page name': e.fn((ctx) => `news:${String(ctx.get('section'))}:${String(ctx.get('article id') || ctx.get('page type'))}`, { reads: [] }),
    reader: e.fn((ctx) => (ctx.dataLayer('reader.subscriber') === true ? 'subscriber' : 'anonymous'), { reads: ['reader.subscriber'] }),
    tier: dataLayer('reader.tier', { default: 'free', lowerCase: true }),
    // The article's tags, joined with the report suite's list delimiter (the listDelimiter setting).
    tags: e.fn(
      (ctx) => {
        const tags = ctx.dataLayer('page.tags');
        return Array.isArray(tags) ? tags.map(String).join(ctx.settings.listDelimiter) : undefined;
      },
      { reads: ['page.tags'], default: '' },
    ),
    // The campaign of the landing page, kept for the session.
    campaign: queryString('cid', { storage: 'session' }),
    consent: e.cookie((s) => s.consentCookie, { default: 'unset' }),
    edition: constant('international'),
    // The network of an `article share` direct call (`_satellite.track('article share', { network })`).
    'share network': e.fn((ctx) => (ctx.event.type === 'direct-call' ? (ctx.event.detail as { network?: string } | undefined)?.network : undefined), {
      reads: [],
      default: 'unknown',
    }),
    // The text of the clicked link.
    'clicked text': e.fn((ctx) => (ctx.event.type === 'click' ? ctx.event.link.text : undefined), { reads: [], cleanText: true }),
  },
  services: adobeServices(),
  rules: (k) => [
    { name: 'Visitor service', events: [{ type: 'library-loaded' }], order: 1, actions: [k.startVisitor()] },
    {
      // The banner's answer (a cookie, read on every page, or the `consent` direct call when the
      // reader answers) becomes the tracking-consent cookie the analytics tracker requires.
      name: 'Consent',
      events: [{ type: 'library-loaded' }, { type: 'direct-call', id: 'consent' }],
      order: 5,
      conditions: [k.valueIs('consent', 'all')],
      actions: [k.run('Allow analytics', (ctx) => ctx.cookies.set(ctx.settings.trackingConsentCookie, 'true', { path: '/' }))],
    },
    {
      name: 'Page View',
      events: [{ type: 'dom-ready' }],
      actions: [
        k.pageView(
          k.variables({
            pageName: '%page name%',
            channel: '%section%',
            eVar1: '%reader%',
            eVar2: '%tier%',
            eVar3: '%campaign%',
            eVar4: '%edition%',
            prop1: '%headline%',
            prop2: 'D=pageName',
            list1: '%tags%',
            events: 'event1',
          }),
        ),
      ],
    },
    {
      name: 'Article read',
      events: [{ type: 'window-loaded' }],
      conditions: [k.valueIs('page type', 'article')],
      actions: [k.link(k.text('read:%article id%'), k.variables({ eVar5: '%headline%', events: 'event2' }), { trackEvents: ['event2'] })],
    },
    {
      name: 'Article share',
      events: [{ type: 'direct-call', id: 'article share' }],
      actions: [k.link(k.text('share:%share network%'), k.variables({ eVar6: '%share network%', events: 'event3' }), { trackEvents: ['event3'] })],
    },
    {
      name: 'Link click',
      events: [{ type: 'click' }],
      actions: [k.link(k.text('click:%clicked text%'), k.variables({ eVar7: '%clicked text%' }))],
    },
    // The page triggers (docs/triggers.md): observed by offtag-triggers.js, loaded because these rules exist.
    {
      name: 'Subscribe button',
      events: [{ type: 'click', selector: 'button.subscribe' }],
      actions: [k.link(k.text('subscribe:%this.@cleanText%'), {})],
    },
    {
      name: 'Video play',
      events: [{ type: 'custom-event', name: 'video:play' }],
      actions: [k.link(k.text('video:%event.detail.title%'), {})],
    },
    {
      name: 'Newsletter signup',
      events: [{ type: 'form-submit', selector: 'form#newsletter' }],
      actions: [k.link('newsletter signup', k.variables({ events: 'event4' }), { trackEvents: ['event4'] })],
    },
    {
      name: 'Ad seen',
      events: [{ type: 'element-visible', selector: '.ad-slot' }],
      actions: [k.link(k.text('ad seen:%this.id%'), {})],
    },
    {
      name: 'Half read',
      events: [{ type: 'scroll-depth', percent: 50 }],
      actions: [k.link(k.text('scrolled:%event.percent%'), {})],
    },
    {
      name: 'Engaged',
      events: [{ type: 'timer', ms: 1000 }],
      actions: [k.link('engaged 1s', {})],
    },
    {
      name: 'Section change',
      events: [{ type: 'data-element-change', name: 'section' }],
      actions: [k.link(k.text('section:%event.previous%>%section%'), {})],
    },
  ],
});

export default news;
