/**
 * Page triggers in Chromium (docs/triggers.md): the real worker shell and engine around a
 * container whose rules use every trigger (tests/browser/triggers-worker.ts), and the bridge's
 * trigger chunk (src/main-bridge/triggers.ts, offtag-triggers.js) installing the listeners the
 * worker lists, on this page's real DOM. Each rule logs when it runs; a direct call "done" sent
 * after an action proves that everything before it was handled (inputs are handled in order).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EffectBatch, EngineEvent, InitMessage, TriggerListener } from '../../src/protocol.ts';
import { takeSnapshot } from '../../src/main-bridge/snapshot.ts';
import { readPageInfo } from '../../src/main-bridge/page-info.ts';
import { bubble, elementInfo, installTriggers } from '../../src/main-bridge/triggers.ts';
import { startTestWorker } from './start-test-worker.ts';

const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
const w = window as unknown as { digitalData?: unknown };

/** The worker of triggers-worker.ts, started as offtag.js starts one; `send` snapshots the page as offtag.js does. */
function start() {
  const worker = new Worker(new URL('./triggers-worker.ts', import.meta.url), { type: 'module' });
  const events = new MessageChannel();
  const api = new MessageChannel();
  const batches: EffectBatch[] = [];
  let listened: (l: TriggerListener[]) => void;
  /** The listeners of the worker's `listen` effect, when it comes. */
  const listen = new Promise<TriggerListener[]>((r) => (listened = r));
  events.port1.onmessage = (e: MessageEvent<EffectBatch>) => {
    batches.push(e.data);
    for (const x of e.data.effects) if (x.type === 'listen') listened(x.triggers);
  };
  const init: InitMessage = { type: 'init', config: {}, debug: false, page: readPageInfo(), events: events.port2, api: api.port2 };
  worker.postMessage(init, [events.port2, api.port2]);
  let seq = 0;
  const effects = () => batches.flatMap((b) => b.effects);
  return {
    worker,
    listen,
    effects,
    logs: () => effects().flatMap((e) => (e.type === 'log' ? [e.message] : [])),
    send(event: EngineEvent) {
      events.port1.postMessage({ type: 'event', event, snapshot: takeSnapshot(++seq, 0, 'digitalData', [], null) });
      return seq;
    },
  };
}

let page: ReturnType<typeof start>;
let uninstall: () => void;
const ran = (name: string) => page.logs().filter((m) => m === `ran ${name}` || m.startsWith(`ran ${name} `));
/** Sends "done" and waits until it ran `n` times in all: every input sent before it has been handled. */
let dones = 0;
async function settle() {
  page.send({ type: 'direct-call', id: 'done' });
  const want = ++dones;
  await expect.poll(() => ran('done').length, { timeout: 10_000 }).toBe(want);
}

beforeAll(async () => {
  document.body.innerHTML = `
    <div class="card" id="card1"><button class="buy" id="buy1" data-sku="4KM91"><span id="label">Add to cart</span></button></div>
    <div id="tile"></div>
    <form class="signup" id="signup1"><button type="submit">Sign up</button></form>
    <form class="other" id="other1"><button type="submit">Other</button></form>
    <div style="height: 6000px"></div>
    <div class="promo" id="p1" style="height: 50px">promo 1</div>
    <div style="height: 3000px"></div>
    <div class="promo" id="p2" style="height: 50px">promo 2</div>`;
  // Site code: forms do not navigate this test page.
  for (const f of document.forms) f.addEventListener('submit', (e) => e.preventDefault());
  scrollTo(0, 0);
  w.digitalData = { cart: { size: 1 } };
  page = start();
  // The baseline of the watched data element, before the timers' events come.
  page.send({ type: 'library-loaded' });
  uninstall = installTriggers(await page.listen, (e) => page.send(e));
});

afterAll(() => {
  uninstall?.();
  page?.worker.terminate();
  document.body.innerHTML = '';
  scrollTo(0, 0);
});

describe('the worker lists the listeners', () => {
  it('once, one per trigger its rules use, and says what is wrong with a trigger it drops', () => {
    const listens = page.effects().filter((e) => e.type === 'listen') as Array<{ triggers: TriggerListener[] }>;
    expect(listens).toHaveLength(1);
    expect(listens[0].triggers.map((l) => l.type).sort()).toEqual(
      ['click', 'click', 'custom-event', 'custom-event', 'element-visible', 'element-visible', 'form-submit', 'scroll-depth', 'timer', 'timer'].sort(),
    );
    expect(page.logs()).toContain('Rule "wrong": its "scroll-depth" event is ignored: percent must be a number above 0, at most 100.');
  });

  it('a container without page triggers lists none: the bridge never loads offtag-triggers.js', async () => {
    const c = startTestWorker();
    c.send({ type: 'direct-call', id: 'Page View' });
    await expect.poll(() => c.messages(), { timeout: 10_000 }).toContain('page view none');
    expect(c.effects().filter((e) => e.type === 'listen')).toEqual([]);
    c.worker.terminate();
  });
});

describe('each trigger runs its rule, the right number of times', () => {
  it('timers: 3 times at 20 ms, then no more (a 400 ms timer on the same clock comes after)', async () => {
    await expect.poll(() => ran('sentinel').length, { timeout: 10_000 }).toBe(1);
    expect(ran('tick')).toEqual(['ran tick 1', 'ran tick 2', 'ran tick 3']);
  });

  it('a click on a CSS selector: the element matched and the one clicked; the ancestors that match too, once each', async () => {
    document.getElementById('label')!.click();
    document.getElementById('buy1')!.click();
    document.getElementById('tile')!.click();
    await settle();
    expect(ran('buy')).toEqual(['ran buy buy1 SPAN 4KM91', 'ran buy buy1 BUTTON 4KM91']);
    expect(ran('card')).toEqual(['ran card card1', 'ran card card1']);
  });

  it('a custom event on window, with its detail (what can travel of it), also from an element', async () => {
    window.dispatchEvent(new CustomEvent('cart:add', { detail: { sku: 'A1', notData: () => 1 } }));
    document.getElementById('tile')!.dispatchEvent(new CustomEvent('cart:add', { detail: { sku: 'B2' } }));
    window.dispatchEvent(new CustomEvent('cart:remove', { detail: { sku: 'C3' } }));
    await settle();
    // On window, no element: `%this.id%` is empty.
    expect(ran('cart add')).toEqual(['ran cart add A1 ', 'ran cart add B2 tile']);
  });

  it('a custom event on document: not one dispatched on window', async () => {
    window.dispatchEvent(new Event('ping'));
    document.dispatchEvent(new Event('ping'));
    await settle();
    expect(ran('doc ping')).toHaveLength(1);
  });

  it('a form submit on a selector; another form runs nothing', async () => {
    (document.getElementById('signup1') as HTMLFormElement).requestSubmit();
    (document.getElementById('other1') as HTMLFormElement).requestSubmit();
    await settle();
    expect(ran('signup')).toEqual(['ran signup signup1']);
  });

  it('scroll depth fires once when half the page has been seen; visibility once per element, also for one added later', async () => {
    expect(ran('half')).toEqual([]);
    expect(ran('promo')).toEqual([]);
    document.getElementById('p1')!.scrollIntoView();
    await expect.poll(() => ran('promo'), { timeout: 10_000 }).toEqual(['ran promo p1']);
    await expect.poll(() => ran('half'), { timeout: 10_000 }).toEqual(['ran half']);
    // Out of view and back: p1 does not run it again, nor does scroll depth.
    scrollTo(0, 0);
    await frame();
    document.getElementById('p1')!.scrollIntoView();
    await frame();
    const late = document.createElement('div');
    late.className = 'promo';
    late.id = 'p3';
    late.textContent = 'added later';
    document.getElementById('p2')!.after(late);
    document.getElementById('p2')!.scrollIntoView();
    await expect.poll(() => ran('promo'), { timeout: 10_000 }).toContain('ran promo p2');
    await settle();
    expect(ran('promo').sort()).toEqual(['ran promo p1', 'ran promo p2', 'ran promo p3']);
    expect(ran('half')).toEqual(['ran half']);
  });

  it('visibility with everyEntry: every time the element comes into view', async () => {
    await expect.poll(() => ran('p2 every'), { timeout: 10_000 }).toHaveLength(1);
    scrollTo(0, 0);
    await frame();
    document.getElementById('p2')!.scrollIntoView();
    await expect.poll(() => ran('p2 every'), { timeout: 10_000 }).toHaveLength(2);
    await settle();
    expect(ran('promo').filter((m) => m === 'ran promo p2')).toHaveLength(1);
  });

  it('a data element change, told by the next snapshot, once per change', async () => {
    await settle();
    const before = ran('cart changed').length;
    w.digitalData = { cart: { size: 2 } };
    await settle();
    await settle();
    w.digitalData = { cart: { size: 3 } };
    await settle();
    expect(ran('cart changed').slice(before)).toEqual(['ran cart changed 1>2', 'ran cart changed 2>3']);
  });
});

describe("Adobe's bubbling options (bubble)", () => {
  const fired: string[] = [];
  const fire = (l: TriggerListener, extra: { element?: { id: string } } = {}) => void fired.push(`${l.key}@${extra.element?.id ?? '-'}`);
  type Options = { selector?: string; bubbleFireIfParent?: boolean; bubbleFireIfChildFired?: boolean; bubbleStop?: boolean };
  const click = (key: string, o: Options = {}): TriggerListener => ({ key, type: 'click', ...o });
  const on = (id: string, ls: TriggerListener[]) => {
    fired.length = 0;
    const el = document.getElementById(id)!;
    const ev = new MouseEvent('click', { bubbles: true });
    Object.defineProperty(ev, 'target', { value: el });
    bubble(ev, ls as Parameters<typeof bubble>[1], fire as Parameters<typeof bubble>[2]);
    return [...fired];
  };

  it('a selector fires for every matching node from the target up; no selector: the target only', () => {
    document.body.insertAdjacentHTML('beforeend', '<div class="x" id="outer"><div class="x" id="inner"><span id="leaf"></span></div></div>');
    expect(on('leaf', [click('x', { selector: '.x' }), click('any')])).toEqual(['any@leaf', 'x@inner', 'x@outer']);
  });

  it('bubbleFireIfParent false: only when the event began on the matched element', () => {
    expect(on('leaf', [click('x', { selector: '.x', bubbleFireIfParent: false })])).toEqual([]);
    expect(on('inner', [click('x', { selector: '.x', bubbleFireIfParent: false })])).toEqual(['x@inner']);
  });

  it('bubbleFireIfChildFired false: not once a descendant fired', () => {
    expect(on('leaf', [click('x', { selector: '.x', bubbleFireIfChildFired: false })])).toEqual(['x@inner']);
  });

  it('bubbleStop: the ancestors are not evaluated after its node', () => {
    expect(on('leaf', [click('stop', { selector: '#inner', bubbleStop: true }), click('x', { selector: '.x' })])).toEqual(['stop@inner', 'x@inner']);
    document.getElementById('outer')!.remove();
  });
});

describe('what a trigger event tells of an element (elementInfo)', () => {
  it('tag, id, class (also of an SVG element), resolved href, every attribute, and the first 1000 characters of its text', () => {
    const host = document.createElement('div');
    host.innerHTML = `<a id="l" class="c1 c2" href="/x?y=1" data-sku="A1"><b>Sh</b>eet</a><svg class="icon"><circle/></svg><section id="long"><p>${'a'.repeat(600)}</p><p>${'b'.repeat(600)}</p></section>`;
    document.body.append(host);
    expect(elementInfo(host.querySelector('#l'))).toEqual({
      tagName: 'A',
      id: 'l',
      className: 'c1 c2',
      href: new URL('/x?y=1', location.href).href,
      text: 'Sheet',
      attributes: { id: 'l', class: 'c1 c2', href: '/x?y=1', 'data-sku': 'A1' },
    });
    expect(elementInfo(host.querySelector('svg'))).toMatchObject({ tagName: 'svg', className: 'icon', text: '' });
    expect(elementInfo(host.querySelector('#long'))!.text).toBe('a'.repeat(600) + 'b'.repeat(400));
    expect(elementInfo(window)).toBeUndefined();
    host.remove();
  });
});

describe('a selector this browser does not take', () => {
  it('is said once, naming the rules whose event never fires; the other listeners are installed', async () => {
    const warned: string[] = [];
    const warn = console.warn;
    console.warn = (...a: unknown[]) => void warned.push(a.map(String).join(' '));
    const sent: string[] = [];
    let off = () => {};
    try {
      // A selector css-selector-parser lets through (`offtag build` leaves vendor prefixes to the browser) that Chromium refuses.
      off = installTriggers(
        [
          { key: 'bad', type: 'click', selector: 'a:-moz-any(.deal)', rules: ['Deal click', 'Deal click (EU)'] },
          { key: 'bad-one', type: 'hover', selector: 'a:-moz-any(.card)', rules: ['Card hover'] },
          { key: 'good', type: 'click', selector: '#unknown-selector-ok' },
        ],
        (event) => void sent.push((event as { key: string }).key),
      );
    } finally {
      console.warn = warn;
    }
    expect(warned).toEqual([
      'Offtag: "a:-moz-any(.deal)" is not a CSS selector this browser knows; the click event of rules "Deal click", "Deal click (EU)" never fires.',
      'Offtag: "a:-moz-any(.card)" is not a CSS selector this browser knows; the hover event of rule "Card hover" never fires.',
    ]);
    const el = document.createElement('button');
    el.id = 'unknown-selector-ok';
    document.body.append(el);
    el.click();
    off();
    el.remove();
    expect(sent).toEqual(['good']);
  });
});
