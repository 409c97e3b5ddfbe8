import { afterEach, describe, expect, it } from 'vitest';
import type { Effect, LinkClick } from '../../src/protocol.ts';
import { forPage } from '../../src/worker-engine/shell/page-writes.ts';
import { cloneable, takeSnapshot } from '../../src/main-bridge/snapshot.ts';
import { applyEffects, type ApplyHooks } from '../../src/main-bridge/apply-effects.ts';
import { applyRareEffect } from '../../src/main-bridge/rare-effects.ts';
import { probeCookieDomain, readPageInfo } from '../../src/main-bridge/page-info.ts';
import { linkClick, listenForClicks } from '../../src/main-bridge/clicks.ts';
import { startTestWorker } from './start-test-worker.ts';
import { clearCookies } from './clear-cookies.ts';

const hooks = (): ApplyHooks & { frames: unknown[]; replies: unknown[] } => {
  const frames: unknown[] = [];
  const replies: unknown[] = [];
  return {
    base: '/',
    vars: {},
    frames,
    replies,
    frameMessage: (m) => frames.push(m),
    reply: (seq, e) => replies.push([seq, e]),
  };
};

afterEach(() => {
  clearCookies();
  sessionStorage.clear();
});

describe('snapshot', () => {
  it('reads the data layer, cookies, declared sessionStorage keys, location and viewport', () => {
    (window as unknown as Record<string, unknown>).digitalData = { page: { pageInfo: { pageType: 'Home' } } };
    document.cookie = 'sat_track=true; path=/';
    sessionStorage.setItem('acmeUserData', '{"profile":{}}');
    sessionStorage.setItem('unrelated', 'x');
    const s = takeSnapshot(3, 2, 'digitalData', ['acmeUserData', 'acmePreviousPageName']);
    expect(s).toMatchObject({ seq: 3, applied: 2, url: location.href, gpc: false });
    expect(s.cookie).toContain('sat_track=true');
    expect(s.session).toEqual({ acmeUserData: '{"profile":{}}', acmePreviousPageName: null });
    expect(s.dataLayer).toEqual({ page: { pageInfo: { pageType: 'Home' } } });
    expect(s.viewport.width).toBe(innerWidth);
  });

  it('goes on without sessionStorage when reading it throws, and says so', () => {
    const original = Storage.prototype.getItem;
    Storage.prototype.getItem = () => {
      throw new DOMException('denied', 'SecurityError');
    };
    try {
      const s = takeSnapshot(1, 0, 'digitalData', ['acmeUserData']);
      expect(s.problems).toEqual([{ kind: 'session', detail: 'SecurityError' }]);
      expect(s.session).toEqual({});
    } finally {
      Storage.prototype.getItem = original;
    }
  });

  it('makes an uncloneable data layer cloneable, naming every dropped path', () => {
    const dl: Record<string, unknown> = {
      fn: () => 1,
      node: document.body,
      ok: { list: [1, 'two'] },
      get boom() {
        throw new Error('getter failed');
      },
    };
    dl.self = dl;
    expect(() => structuredClone(dl)).toThrow();
    const dropped: string[] = [];
    const copy = cloneable(dl, dropped);
    expect(structuredClone(copy)).toEqual({ ok: { list: [1, 'two'] } });
    expect(dropped.sort()).toEqual(['boom', 'fn', 'node', 'self']);
  });
});

describe('applying effects', () => {
  it('writes cookies (as the strings the worker builds) with path, expiry and SameSite, and removes them', () => {
    applyEffects(
      ([
        { type: 'cookie', name: 'a', value: '1', path: '/', expires: Date.now() + 60_000, sameSite: 'Lax' },
        { type: 'cookie', name: 'b', value: 'x%7Cy', path: '/' },
      ] as Effect[]).map(forPage),
      hooks(),
    );
    expect(document.cookie).toContain('a=1');
    expect(document.cookie).toContain('b=x%7Cy');
    applyEffects([forPage({ type: 'cookie', name: 'a', value: '', path: '/', expires: 0 })], hooks());
    expect(document.cookie).not.toContain('a=1');
  });

  it('writes and removes sessionStorage, and survives a storage that throws', () => {
    applyEffects([{ type: 'storage', key: 'k', value: 'v' }], hooks());
    expect(sessionStorage.getItem('k')).toBe('v');
    applyEffects([{ type: 'storage', key: 'k', value: null }], hooks());
    expect(sessionStorage.getItem('k')).toBeNull();
    const original = Storage.prototype.setItem;
    Storage.prototype.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError');
    };
    try {
      expect(() => applyEffects([{ type: 'storage', key: 'k', value: 'v' }], hooks())).not.toThrow();
    } finally {
      Storage.prototype.setItem = original;
    }
  });

  it('keeps vars and replies for the page-side API', () => {
    const h = hooks();
    applyEffects(
      [
        { type: 'vars', values: { pageName: 'acme:home:x' } },
        { type: 'reply', seq: 4, value: 1 },
      ],
      h,
    );
    expect(h.vars).toEqual({ pageName: 'acme:home:x' });
    expect(h.replies).toEqual([[4, { type: 'reply', seq: 4, value: 1 }]]);

  });

  it('creates a hidden iframe in an idle period after load, posts queued messages once it loads, and passes its messages back', async () => {
    const h = hooks();
    const src = URL.createObjectURL(
      new Blob(
        [
          `<script>addEventListener('message', (e) => parent.postMessage('echo:' + e.data, '*'));</script>`,
        ],
        { type: 'text/html' },
      ),
    );
    applyRareEffect(
        {
          type: 'iframe',
          id: 'sync-frame',
          src,
          title: 'Adobe ID Syncing iFrame',
          sandbox: 'allow-scripts allow-same-origin',
          targetOrigin: '*',
          messages: ['hello'],
        },
      h,
    );
    // Not in the effect batch's task: the frame is inserted after the page's load, when the main thread is idle.
    expect(document.getElementById('sync-frame')).toBeNull();
    await new Promise<void>((resolve) => {
      const inserted = new MutationObserver(() => document.getElementById('sync-frame') && (inserted.disconnect(), resolve()));
      inserted.observe(document, { childList: true, subtree: true });
    });
    const el = document.getElementById('sync-frame') as HTMLIFrameElement;
    expect(el.style.display).toBe('none');
    expect(el.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin');
    await expect.poll(() => h.frames.length, { timeout: 5000 }).toBe(1);
    expect(h.frames[0]).toEqual({ type: 'frame-message', frameId: 'sync-frame', origin: location.origin, data: 'echo:hello' });
    expect(el.className).toBe('aamIframeLoaded');
  });

  it('loads a script and calls its init function with the arguments', async () => {
    const src = URL.createObjectURL(
      new Blob(['window.FAKE_RUM = { init: function (o) { window.FAKE_RUM.got = o; } };'], { type: 'text/javascript' }),
    );
    applyRareEffect({ type: 'script', id: 'fake-rum', src, init: { fn: 'FAKE_RUM.init', args: [{ a: 1 }] } }, { frameMessage: () => {} });
    await expect.poll(() => (window as unknown as { FAKE_RUM?: { got?: unknown } }).FAKE_RUM?.got, { timeout: 5000 }).toEqual({ a: 1 });
  });

  it('says "Failed to load script" when a tracker script (one with an init) does not load; a plain script fails as a page\'s script tag does, saying nothing more', async () => {
    const errors: string[] = [];
    const original = console.error;
    console.error = (m: string) => errors.push(m);
    try {
      const plain = `${location.origin}/no-such-plain-script-${Date.now()}.js`;
      applyRareEffect({ type: 'script', id: 'missing-plain-script', src: plain }, { frameMessage: () => {} });
      const src = `${location.origin}/no-such-script-${Date.now()}.js`;
      applyRareEffect({ type: 'script', id: 'missing-script', src, init: { fn: 'NO_RUM.init', args: [] } }, { frameMessage: () => {} });
      await expect.poll(() => errors, { timeout: 5000 }).toContain(`Failed to load script ${src}`);
      await expect.poll(() => document.getElementById('missing-plain-script')?.getAttribute('data-offtag-status'), { timeout: 5000 }).toBe('failed');
      // Only this test's two scripts: an earlier test's lazy offtag-effects.js load may fail into this window.
      expect(errors.filter((m) => m.includes('/no-such-'))).toEqual([`Failed to load script ${src}`]);
    } finally {
      console.error = original;
    }
  });
});

describe('page info', () => {
  it('probes the cookie domain: host-only on an IP or localhost', () => {
    expect(probeCookieDomain('127.0.0.1')).toBe('');
    expect(probeCookieDomain('localhost')).toBe('');
    expect(readPageInfo()).toMatchObject({ origin: location.origin, cookieDomain: '' });
  });

  it('describes link clicks for automatic link tracking', () => {
    document.body.innerHTML = `<div id="footer"><a id="l" href="/files/sheet.pdf" onclick="s.tl(this,'d')">  Safety
      sheet </a></div>`;
    const l = document.querySelector('#l')!;
    expect(linkClick(l)).toEqual({
      href: new URL('/files/sheet.pdf', location.href).href,
      text: 'Safety sheet',
      html: l.outerHTML,
      region: 'footer',
      tag: 'A',
      objectId: 'undefined',
    });
    expect(linkClick(document.body)).toBeUndefined();
  });
  it('sends the tag and window.s_objectID as text, for ClickMap (ot, oid)', () => {
    document.body.innerHTML = `<map name="m"><area id="ar" href="/x.pdf" alt="x"></map>`;
    const w = window as unknown as { s_objectID?: unknown };
    w.s_objectID = 'hero pdf';
    try {
      expect(linkClick(document.querySelector('#ar'))).toMatchObject({ tag: 'AREA', objectId: 'hero pdf' });
    } finally {
      delete w.s_objectID;
    }
  });
});

describe('clicks as AppMeasurement sees them', () => {
  const w = window as unknown as { s_objectID?: unknown };
  it('the region is the nearest ancestor with a data-id, else an id (empty ones skipped), else BODY', () => {
    document.body.innerHTML = `<section id="outer"><div data-id="promo-box" id="inner"><p id=""><a id="a1" href="/x">Spring sale</a></p></div></section>
      <div data-id="" id="plain"><a id="a2" href="/y">y</a></div><a id="a3" href="/z">z</a>`;
    expect(linkClick(document.querySelector('#a1'))!.region).toBe('promo-box');
    expect(linkClick(document.querySelector('#a2'))!.region).toBe('plain');
    expect(linkClick(document.querySelector('#a3'))!.region).toBe('BODY');
  });
  it("the link's own HTML goes to the worker, which names it (data-s-object-id, onclick, alt/title)", () => {
    document.body.innerHTML = `<a id="a" href="/x" data-s-object-id="promo-a" onclick="s_objectID='p'"><img alt="Sale" src="/s.png"></a>`;
    const link = linkClick(document.querySelector('#a img'))!;
    expect(link.text).toBe('');
    expect(link.html).toBe(document.querySelector('#a')!.outerHTML);
  });
  it('the same element clicked again within 10 s is not sent again; every sent click resets window.s_objectID', () => {
    document.body.innerHTML = `<a id="b1" href="#one">one</a><a id="b2" href="#two">two</a>`;
    const sent: LinkClick[] = [];
    listenForClicks((e) => sent.push(e.link));
    const [b1, b2] = [document.querySelector<HTMLElement>('#b1')!, document.querySelector<HTMLElement>('#b2')!];
    w.s_objectID = 'hero';
    b1.click();
    expect(sent.map((l) => l.objectId)).toEqual(['hero']);
    expect(w.s_objectID).toBe(0);
    w.s_objectID = 'again';
    b1.click();
    // Not tracked again: s_objectID is left as the page set it.
    expect(sent).toHaveLength(1);
    expect(w.s_objectID).toBe('again');
    b2.click();
    b1.click();
    expect(sent.map((l) => l.text)).toEqual(['one', 'two', 'one']);
    expect(sent[1]!.objectId).toBe('again');
    expect(sent[2]!.objectId).toBe('0');
    delete w.s_objectID;
  });
  it("a hit the worker made (a rule's page view) resets window.s_objectID, so a later click does not carry it", () => {
    w.s_objectID = 'stale';
    applyEffects([{ type: 'hit' }], { vars: {}, base: '', frameMessage() {}, reply() {} } as ApplyHooks);
    expect(w.s_objectID).toBe(0);
    document.body.innerHTML = `<a id="d" href="/f.pdf">pdf</a>`;
    expect(linkClick(document.querySelector('#d'))!.objectId).toBe('0');
    delete w.s_objectID;
  });
});

describe('bridge ↔ worker', () => {
  it('one message per event; effects come back in numbered batches; network answers arrive later', async () => {
    const w = startTestWorker({ config: { brand: 'acme' } });
    // Numbered batches only (the read set and worker logs travel as batch 0).
    const batches = () => w.batches.filter((b) => b.n);
    (window as unknown as Record<string, unknown>).digitalData = { page: { pageInfo: { pageType: 'Cart' } } };
    const { send, api } = w;
    send({ type: 'direct-call', id: 'Page View' });
    await expect.poll(() => batches().length, { timeout: 5000 }).toBe(1);
    expect(batches()[0].n).toBe(1);
    expect(batches()[0].effects).toContainEqual({ type: 'cookie-string', cookie: 'pt=Cart; path=/' });
    expect(batches()[0].effects).toContainEqual({ type: 'log', level: 'log', message: 'page view Cart' });
    expect(batches()[0].effects.some((e) => e.type === 'request' || e.type === 'timer')).toBe(false);

    send({ type: 'direct-call', id: 'Fetch' });
    await expect.poll(() => batches().flatMap((b) => b.effects).find((e) => e.type === 'log' && e.message.startsWith('answer')), { timeout: 5000 }).toBeTruthy();
    // The API surface, over Comlink.
    expect(await api.values()).toMatchObject({ pageType: 'Cart' });
    expect((await api.settings()).brand).toBe('acme');
    expect(await api.pendingBeacons()).toBe(0);
    w.worker.terminate();
  });

  it('a snapshot taken before the worker said hello reads no cookie, sessionStorage or viewport; the worker fills them in from the init\'s, with its problems', async () => {
    document.cookie = 'sat_track=true; path=/';
    sessionStorage.setItem('acmeUserData', 'at hello');
    const getItem = Storage.prototype.getItem;
    let reads = 0;
    Storage.prototype.getItem = function (this: Storage, k: string) {
      reads++;
      return getItem.call(this, k);
    };
    let early;
    try {
      early = takeSnapshot(1, 0, 'digitalData', ['acmeUserData'], null, true);
    } finally {
      Storage.prototype.getItem = getItem;
    }
    expect(reads).toBe(0);
    expect(['cookie', 'session', 'viewport'].filter((k) => k in early)).toEqual([]);
    // What offtag.js sends at hello: a snapshot then, here with a problem it met reading it.
    const now = { ...takeSnapshot(0, 0, '', ['acmeUserData']), problems: [{ kind: 'session' as const, detail: 'SecurityError' }] };
    const w = startTestWorker({ now });
    w.send({ type: 'get-var', name: 'consent' }, true);
    w.send({ type: 'get-var', name: 'counter' }, true);
    const reply = (seq: number) => w.effects().find((e) => e.type === 'reply' && e.seq === seq) as { value?: unknown } | undefined;
    await expect.poll(() => reply(2), { timeout: 5000 }).toBeTruthy();
    expect([reply(1)!.value, reply(2)!.value]).toEqual(['true', 'at hello']);
    expect(w.messages()).toContain('sessionStorage is not readable (SecurityError); the event goes on without it.');
    w.worker.terminate();
  });
});
