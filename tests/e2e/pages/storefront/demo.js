// The control page's controls (tests/e2e/storefront.spec.ts): they edit the data layer and cookies
// and fire the events. None of this is part of Offtag.
(() => {
  const $ = (id) => document.getElementById(id);
  const dl = window.digitalData;
  const setCookie = (name, value) => {
    document.cookie = value === null ? `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:01 GMT` : `${name}=${value}; path=/`;
  };
  const syncConsent = () => {
    setCookie('sat_track', $('consent').checked ? 'true' : 'false');
    setCookie('OptanonConsent', $('targeting').checked ? 'groups%3DC0001%3A1%2CC0007%3A0' : 'groups%3DC0001%3A1%2CC0007%3A1');
    setCookie('siteType', $('mobile').checked ? 'mobile' : null);
  };
  syncConsent();
  const syncDataLayer = () => {
    dl.page.pageInfo.pageType = $('pageType').value;
    dl.page.pageInfo.pageUID = $('pageUID').value;
    dl.page.element = [{ impression: { id: 'hero-banner' }, click: { id: $('clickId').value } }, { impression: { id: 'recs-carousel' } }];
    dl.user.profile.attributes = { loginState: $('loginState').value, accountNumber: $('accountNumber').value || undefined };
    dl.user.profile.profileInfo = { profileID: $('profileID').value || undefined };
    dl.modal = { page: { pageInfo: { pageType: $('modalType').value || undefined, pageUID: $('modalUID').value } } };
  };
  for (const id of ['consent', 'targeting', 'mobile']) $(id).addEventListener('change', syncConsent);
  document.querySelectorAll('[data-track]').forEach((b) =>
    b.addEventListener('click', () => {
      syncDataLayer();
      window._satellite.track(b.dataset.track);
    }),
  );
  // The devtools overlay is loaded only on demand: one script tag, beside offtag.js.
  $('devtools').addEventListener('click', () => {
    const s = document.createElement('script');
    s.src = window.offtag.base + 'offtag-devtools.js';
    document.head.appendChild(s);
  });

  // A storefront's page view: fired once at load, as the page's own code would.
  const pageView = () => {
    syncDataLayer();
    window._satellite.track('Page View');
  };
  if (window._satellite) pageView();
  else $('offtag-tag').addEventListener('load', pageView, { once: true });
})();
