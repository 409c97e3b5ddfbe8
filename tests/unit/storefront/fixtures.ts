/** A storefront page as the data layer, cookies and sessionStorage describe it. */

export const DATA_LAYER = {
  page: {
    pageInfo: {
      pageType: 'Educational Content',
      pageUID: 'Order Management',
      contentTitle: 'How to reorder',
      language: 'en-us',
      template: 'article',
    },
    category: { lineOfBusiness: 'Safety', level: '2', leafCategoryId: 'C-17', leafCategoryName: 'Gloves' },
    element: [
      { click: { id: 'btn-reorder' }, impression: { id: 'imp-hero' } },
      { click: { id: '' }, impression: { id: 'imp-carousel' } },
      { impression: { id: 'imp-footer' } },
      { click: { id: 'btn-share' } },
    ],
  },
  modal: {
    page: {
      pageInfo: { pageType: 'Email Sign Up Success', pageUID: 'newsletter-confirmation-dialog', contentTitle: 'Thanks' },
      element: [],
    },
  },
  internalCampaign: [{ impression: { id: 'spring-sale' } }, { impression: {} }, { impression: { id: 'free-shipping' } }],
  user: {
    profile: {
      attributes: { loginState: 'Full Logged In', accountNumber: '0812345', communityType: 'b2b', RMLState: 'active' },
      profileInfo: {
        profileID: 'SAP-99',
        csgID: 'CSG-4',
        cimProfileID: 'CIM-7',
        userIdentifier: 'u-123',
        organizationId: 'org-5',
      },
    },
    niteFlag: 'N',
  },
  product: [{ productInfo: { sku: '1ABC2' } }, { productInfo: { sku: 'OTHER' } }],
  cart: { freightForwarder: 'FF-9' },
};

/** The profile as the storefront caches it in sessionStorage `acmeUserData`. */
export const CACHED_PROFILE = {
  profile: {
    attributes: { loginState: 'Soft Logged In', accountNumber: '0999', communityType: 'cached-community', RMLState: 'cached-rml' },
    profileInfo: {
      profileID: 'SAP-cached',
      csgID: 'CSG-cached',
      cimProfileID: 'CIM-cached',
      userIdentifier: 'u-cached',
      organizationId: 'org-cached',
    },
  },
};

export const COOKIES = {
  community: 'pros',
  AB1: 'a',
  AB2: 'b',
  AD1: 'c',
  DS1: 'd',
  DS2: 'e',
  signin: 'yes',
  OHBU: 'ohbu%20value',
  'X-BT': 'xbt',
  client_ip: '203.0.113.9',
  G_: 'g',
  O: 'o',
  insights_eligible: 'true',
};
