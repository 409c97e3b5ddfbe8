/**
 * What the storefront puts in `window.digitalData` for each event: exactly the paths the container
 * reads (docs/spec-coverage.md §3, docs/spec-coverage.md D2; containers/storefront/data-elements.ts). Built from the route and
 * the shopper's state each time an event fires, so every beacon describes the page it came from.
 *
 * `page.element` lists the elements of the event at hand: the page's own modules for a page
 * view, the items that just came into view for `Element Impressions`, the control that was used
 * for `Element Interactions`. The container names link beacons after these ids.
 */
import { ARTICLES, CATEGORY, productBySku } from './catalog.ts';
import type { Route } from './router.tsx';
import type { State } from './store.ts';

export interface PageInfo {
  pageType: string;
  pageUID: string;
  contentTitle: string;
  template: string;
  category?: { level: string; leafCategoryId: string; leafCategoryName: string };
  sku?: string;
  /** The page's modules with impression ids, reported with its page view. */
  modules?: string[];
  campaigns?: string[];
}

export type Element = { impression?: { id: string }; click?: { id: string } };

export function pageInfo(route: Route, state: State): PageInfo {
  switch (route.name) {
    case 'home':
      return { pageType: 'Home', pageUID: 'home', contentTitle: 'Acme Industrial Supply', template: 'home', modules: ['home-hero', 'home-categories'], campaigns: ['spring-safety-sale'] };
    case 'products':
      return { pageType: 'Product List', pageUID: CATEGORY.name, contentTitle: CATEGORY.name, template: 'plp', category: { level: CATEGORY.level, leafCategoryId: CATEGORY.id, leafCategoryName: CATEGORY.name } };
    case 'product': {
      const p = productBySku(route.sku);
      if (!p) return notFound();
      return { pageType: 'Product Detail', pageUID: `product ${p.sku}`, contentTitle: p.name, template: 'pdp', sku: p.sku, category: { level: '3', leafCategoryId: p.leafCategoryId, leafCategoryName: p.leafCategoryName } };
    }
    case 'cart':
      return { pageType: 'Cart', pageUID: 'cart', contentTitle: 'Your cart', template: 'cart' };
    case 'account':
      return { pageType: 'Account', pageUID: state.profile.attributes.loginState === 'Full Logged In' ? 'account overview' : 'sign in', contentTitle: 'Your account', template: 'account' };
    case 'orders':
      // docs/spec-coverage.md §2's page id 'order management'; signed out, the same URL shows the sign-in form.
      return state.profile.attributes.loginState === 'Full Logged In'
        ? { pageType: 'Account', pageUID: 'order management', contentTitle: 'Orders', template: 'account' }
        : { pageType: 'Account', pageUID: 'sign in', contentTitle: 'Your account', template: 'account' };
    case 'insights':
      return { pageType: 'Educational Content', pageUID: 'insights home', contentTitle: 'Insights', template: 'insights' };
    case 'article': {
      const a = ARTICLES.find((x) => x.slug === route.slug);
      return a ? { pageType: 'Educational Content', pageUID: a.title, contentTitle: a.title, template: 'article' } : notFound();
    }
    case 'not-found':
      return notFound();
  }
}

const notFound = (): PageInfo => ({ pageType: 'Error', pageUID: 'page not found', contentTitle: 'Page not found', template: 'error' });

export interface Extra {
  /** `page.element` for this event (default: the page's modules). */
  element?: Element[];
  /** The open modal's `modal.page.pageInfo` (Content: Modal View). */
  modal?: { pageType?: string; pageUID: string; contentTitle?: string };
}

export function dataLayer(page: PageInfo, state: State, extra: Extra = {}) {
  const { attributes, profileInfo } = state.profile;
  return {
    page: {
      pageInfo: { pageType: page.pageType, pageUID: page.pageUID, contentTitle: page.contentTitle, language: 'en', template: page.template },
      category: { lineOfBusiness: 'industrial', ...page.category },
      element: extra.element ?? (page.modules ?? []).map((id) => ({ impression: { id } })),
    },
    internalCampaign: (page.campaigns ?? []).map((id) => ({ impression: { id } })),
    product: page.sku ? [{ productInfo: { sku: page.sku } }] : [],
    cart: { freightForwarder: 'none', items: state.cart.length },
    user: { profile: { attributes: { ...attributes }, profileInfo: { ...profileInfo } } },
    ...(extra.modal ? { modal: { page: { pageInfo: { ...extra.modal } } } } : {}),
  };
}
