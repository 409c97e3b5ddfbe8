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

  // A storefront's page view: fired once at load, as the page's own code would.
  const pageView = () => {
    syncDataLayer();
    window._satellite.track('Page View');
  };
  if (window._satellite) pageView();
  else $('offtag-tag').addEventListener('load', pageView, { once: true });

  const collector = window.offtagServers.collectorUrl;
  const FIELDS = ['pageName', 'linkName', 'linkUrl', 'events', 'channel', 'mid', 'eVar1', 'eVar2', 'eVar3', 'eVar11', 'list1', 'list2', 'hier1', 'pageURL'];
  const describe = (b) => {
    const kind = b.hitType === 'tl' ? { o: 'link', d: 'download link', e: 'exit link' }[b.linkType || 'o'] : 'page view';
    const name = b.hitType === 'tl' ? [b.linkName && `"${b.linkName}"`, b.linkUrl].filter(Boolean).join(' → ') : b.pageName || '';
    return `${kind} · ${name}${b.events ? ' · ' + b.events : ''}`;
  };
  let shown = -1;
  const open = new Set();
  const renderBeacons = (beacons) => {
    if (beacons.length === shown) return;
    shown = beacons.length;
    const list = $('beacons');
    list.innerHTML = '';
    beacons.forEach((b, i) => {
      const li = document.createElement('li');
      li.value = i + 1;
      const details = document.createElement('details');
      details.open = open.has(b.sid + i);
      details.addEventListener('toggle', () => (details.open ? open.add(b.sid + i) : open.delete(b.sid + i)));
      const summary = document.createElement('summary');
      summary.textContent = describe(b);
      const table = document.createElement('table');
      const rows = FIELDS.filter((k) => b[k]).concat(Object.keys(b).filter((k) => /^(eVar|prop)\d+$/.test(k) && !FIELDS.includes(k)));
      for (const k of rows) {
        const tr = table.insertRow();
        tr.insertCell().outerHTML = `<th>${k}</th>`;
        tr.insertCell().textContent = b[k];
      }
      details.append(summary, table);
      li.append(details);
      list.prepend(li);
    });
  };
  $('clear-beacons').addEventListener('click', async () => {
    await fetch(`${collector}/__reset`, { method: 'POST' });
    render();
  });
  const round = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Number.isInteger(v) ? v : Number(v.toFixed(3))]));
  const render = async () => {
    try {
      renderBeacons(await (await fetch(`${collector}/__beacons`)).json());
    } catch {
      /* the collector is not up yet */
    }
    if (window.offtag) $('metrics').textContent = JSON.stringify(round(window.offtag.metrics()), null, 1);
    $('cookies').textContent = document.cookie.split('; ').join('\n');
  };
  setInterval(render, 1000);
  render();
})();
