// The demo page's controls: they edit the data layer and cookies, fire the events and show
// what reached the local collector. None of this is part of Offtag.
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

  const collector = window.offtagServers.collectorUrl;
  const render = async () => {
    try {
      const beacons = await (await fetch(`${collector}/__beacons`)).json();
      $('beacons').innerHTML = '';
      for (const b of beacons.slice(-12).reverse()) {
        const li = document.createElement('li');
        const f = b.fields || b;
        li.textContent = `${f.linkType ? 'link ' + f.linkType + ' "' + (f.linkName || '') + '"' : 'page view'} · pageName=${f.pageName || ''} · events=${f.events || ''} · mid=${f.mid || ''}`;
        $('beacons').appendChild(li);
      }
    } catch {
      /* the collector is not up yet */
    }
    if (window.offtag) $('metrics').textContent = JSON.stringify(window.offtag.metrics(), null, 1);
    $('cookies').textContent = document.cookie.split('; ').join('\n');
  };
  setInterval(render, 1000);
  render();
})();
