/**
 * offtag-triggers.js: the page triggers of a container (docs/triggers.md), loaded only when the
 * worker's `listen` effect lists some. Each is a listener (a capturing DOM listener, an
 * IntersectionObserver, a passive scroll listener, one timer on a page-visible clock): nothing
 * polls. When one fires, offtag.js's `send` takes a snapshot and posts a `trigger` event with the
 * listener's key. No handler throws into the page: a failure is caught and dropped.
 */
import { ELEMENT_TEXT_LIMIT } from '../protocol-keys.ts';
import { type DataLayerFlavor, type ElementInfo, type ElementProperty, type EngineEvent, type TriggerEvent, type TriggerListener } from '../protocol.ts';
import { cloneable } from './snapshot.ts';

/** offtag.js's `send`; `element`: the element the trigger matched, for the container's page reads (docs/containers.md, "Page reads"). */
type Send = (event: EngineEvent, element?: Element) => unknown;
type Fire = (listener: TriggerListener, extra?: Partial<TriggerEvent>, element?: Element) => void;
type Bubbling = Extract<TriggerListener, { type: 'click' | 'form-submit' | 'custom-event' | 'hover' | 'media-time-played' }>;
type Of<T extends TriggerListener['type']> = Extract<TriggerListener, { type: T }>;
type Off = () => void;

/**
 * `textContent`'s first ELEMENT_TEXT_LIMIT characters, read text node by text node: a rule on a
 * large container (`main`) does not make the page build the whole page's text on every click.
 */
function textOf(el: Element): string {
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let text = '';
  while (text.length < ELEMENT_TEXT_LIMIT && walk.nextNode()) text += walk.currentNode.nodeValue;
  return text.slice(0, ELEMENT_TEXT_LIMIT);
}

/** What a `trigger` event tells of an element: `%this.…%` and `%target.…%` read it in the worker. */
export function elementInfo(node: unknown): ElementInfo | undefined {
  if (!(node instanceof Element)) return;
  const attributes: Record<string, string> = {};
  for (const a of Array.from(node.attributes)) attributes[a.name] = a.value;
  const href = (node as HTMLAnchorElement).href;
  return {
    tagName: node.tagName,
    id: node.id,
    // An SVG element's className is an object; its class attribute is the text.
    className: node.getAttribute('class') ?? '',
    ...(typeof href == 'string' && href ? { href } : {}),
    text: textOf(node),
    attributes,
  };
}

/** A custom event's `detail` as it can travel: itself, or what structured clone can copy of it. */
export function travellingDetail(detail: unknown): unknown {
  if (detail === undefined || detail === null) return detail;
  try {
    return structuredClone(detail);
  } catch {
    return cloneable(detail, []);
  }
}

/**
 * Whether the listener's selector is CSS the browser takes; said once when it is not, naming the
 * rules whose event never fires (`offtag build` refuses a selector that does not parse; this
 * browser may still not know one that does).
 */
function validSelector(l: TriggerListener): boolean {
  const selector = (l as { selector?: string }).selector;
  if (!selector) return true;
  try {
    document.querySelector(selector);
    return true;
  } catch {
    const rules = l.rules ?? [];
    const of = rules.length ? `rule${rules.length > 1 ? 's' : ''} ${rules.map((r) => `"${r}"`).join(', ')}` : 'its rules';
    console.warn(`Offtag: "${selector}" is not a CSS selector this browser knows; the ${l.type} event of ${of} never fires.`);
    return false;
  }
}

const matches = (node: Node, selector: string) => node instanceof Element && node.matches(selector);

/** An element's property as Adobe's filter reads it: its text for `@text`/`innerText`, its property, else its attribute. */
function propertyOf(el: Element, name: string): unknown {
  if (name == '@text' || name == 'innerText') return el.textContent || (el as HTMLElement).innerText;
  return name in el ? (el as unknown as Record<string, unknown>)[name] : el.getAttribute(name);
}

/**
 * Whether a node passes Adobe's element property filter: every property equals its value (a
 * value of another type than text never does) or matches it as a case-insensitive regular
 * expression; a missing property never matches.
 */
export function hasProperties(node: Node | null, properties: ElementProperty[] | undefined): boolean {
  if (!properties) return true;
  if (!(node instanceof Element)) return false;
  return properties.every((p) => {
    const v = propertyOf(node, p.name);
    return v != null && (p.valueIsRegex ? regexOf(p).test(String(v)) : v === p.value);
  });
}

/** Each filter's regular expression, compiled once (the worker checked that it compiles), not on every event and node. */
const compiled = new WeakMap<ElementProperty, RegExp>();
const regexOf = (p: ElementProperty): RegExp => {
  let re = compiled.get(p);
  if (!re) compiled.set(p, (re = new RegExp(p.value, 'i')));
  return re;
};

/**
 * Adobe's bubbling rules for one DOM event: from its target up through the ancestors, each
 * listener fires for the nodes it matches (a listener without a selector: for the target only),
 * unless the event began below a match and `bubbleFireIfParent` is false, or a descendant already
 * fired and `bubbleFireIfChildFired` is false; `bubbleStop` ends the walk after its node.
 */
export function bubble(ev: Pick<Event, 'target'>, listeners: Bubbling[], fire: Fire, more: Partial<TriggerEvent> = {}): void {
  const target = ev.target as Node | null;
  let node = target;
  let childFired = false;
  while (node) {
    let fired = false;
    let stop = false;
    for (const l of listeners) {
      if (l.bubbleFireIfChildFired === false && childFired) continue;
      if (node !== target && (l.bubbleFireIfParent === false || !l.selector)) continue;
      if (l.selector && !matches(node, l.selector)) continue;
      if (!hasProperties(node, l.properties)) continue;
      const extra: Partial<TriggerEvent> = { element: elementInfo(node), target: elementInfo(target), ...more };
      if (l.type == 'custom-event') extra.detail = travellingDetail((ev as CustomEvent).detail);
      fire(l, extra, node as Element);
      fired = true;
      if (l.bubbleStop) stop = true;
    }
    if (stop) break;
    if (fired) childFired = true;
    node = node.parentNode;
  }
}

/** One capturing listener per DOM event name and place, evaluating all its listeners. */
function listenBubbling(listeners: Bubbling[], fire: Fire): Off {
  const groups = new Map<string, { at: EventTarget; name: string; listeners: Bubbling[] }>();
  for (const l of listeners) {
    const at = l.type == 'custom-event' && l.target == 'window' ? window : document;
    const name = l.type == 'click' ? 'click' : l.type == 'form-submit' ? 'submit' : (l as Of<'custom-event'>).name;
    const id = `${at === window ? 'w' : 'd'}:${name}`;
    if (!groups.has(id)) groups.set(id, { at, name, listeners: [] });
    groups.get(id)!.listeners.push(l);
  }
  const offs: Off[] = [];
  for (const { at, name, listeners: ls } of groups.values()) {
    // Capturing, and never cancelling: the page's own handlers see the event as before.
    const handler = (ev: Event) => {
      try {
        bubble(ev, ls, fire);
      } catch {
        /* never into the page's code */
      }
    };
    at.addEventListener(name, handler, { capture: true, passive: true });
    offs.push(() => at.removeEventListener(name, handler, { capture: true }));
  }
  return () => offs.forEach((f) => f());
}

/**
 * Elements entering the viewport: one IntersectionObserver per listener, watching the elements
 * that match now and those added later (a MutationObserver on added nodes). An element counts
 * when it passes the property filter as it enters; with `delay`, it fires once it has stayed in
 * view that long (leaving the viewport cancels it). Once per element, unless `everyEntry`.
 */
function listenVisible(listeners: Array<Of<'element-visible'>>, fire: Fire): Off {
  if (!listeners.length || typeof IntersectionObserver == 'undefined') return () => {};
  const watchers = listeners.map((l) => {
    const waiting = new Map<Element, ReturnType<typeof setTimeout>>();
    const io = new IntersectionObserver((entries) => {
      for (const { target: el, isIntersecting } of entries) {
        clearTimeout(waiting.get(el));
        waiting.delete(el);
        if (!isIntersecting || !hasProperties(el, l.properties)) continue;
        const go = () => {
          waiting.delete(el);
          if (!l.everyEntry) io.unobserve(el);
          fire(l, { element: elementInfo(el) }, el);
        };
        if (l.delay) waiting.set(el, setTimeout(go, l.delay));
        else go();
      }
    });
    const done = new WeakSet<Element>();
    const watch = (el: Element) => {
      if (done.has(el)) return;
      done.add(el);
      io.observe(el);
    };
    return { l, io, watch, waiting };
  });
  const scan = (root: ParentNode & Node) => {
    for (const { l, watch } of watchers) {
      if (matches(root, l.selector)) watch(root as Element);
      root.querySelectorAll(l.selector).forEach(watch);
    }
  };
  scan(document);
  const mo = new MutationObserver((records) => {
    try {
      for (const r of records) r.addedNodes.forEach((n) => n instanceof Element && scan(n));
    } catch {
      /* never into the page's code */
    }
  });
  mo.observe(document, { childList: true, subtree: true });
  return () => {
    mo.disconnect();
    for (const w of watchers) {
      w.io.disconnect();
      w.waiting.forEach((t) => clearTimeout(t));
    }
  };
}

/** How far down the page has been seen, in percent of its height (the viewport's bottom edge). */
export function scrolledPercent(): number {
  const height = Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0, 1);
  return Math.min(100, (Math.ceil(scrollY + innerHeight) / height) * 100);
}

/**
 * Scroll depth: a passive scroll listener that looks once per frame while the page scrolls, and
 * once when the page has loaded (a short page is seen whole at once). Each threshold fires once;
 * with none left the listener goes.
 */
function listenScroll(listeners: Array<Of<'scroll-depth'>>, fire: Fire): Off {
  const left = [...listeners].sort((a, b) => a.percent - b.percent);
  if (!left.length) return () => {};
  let queued = false;
  const check = () => {
    queued = false;
    const seen = scrolledPercent();
    while (left.length && left[0].percent <= seen) {
      const l = left.shift()!;
      fire(l, { percent: l.percent });
    }
    if (!left.length) off();
  };
  const onScroll = () => {
    if (!queued && document.readyState == 'complete') {
      queued = true;
      requestAnimationFrame(check);
    }
  };
  const onLoad = () => onScroll();
  const off = () => {
    removeEventListener('scroll', onScroll);
    removeEventListener('load', onLoad);
  };
  addEventListener('scroll', onScroll, { passive: true });
  if (document.readyState == 'complete') onScroll();
  else addEventListener('load', onLoad);
  return off;
}

/**
 * Timers on one clock that counts page-visible time only (Adobe's "time on page"): paused while
 * the page is hidden. One setTimeout at a time, for the next due firing; every firing due by then
 * goes, in the order they fell due.
 */
function listenTimers(listeners: Array<Of<'timer'>>, fire: Fire): Off {
  if (!listeners.length) return () => {};
  const count = new Map(listeners.map((l) => [l, 0]));
  let counted = 0;
  let since: number | undefined;
  let handle: ReturnType<typeof setTimeout> | undefined;
  const elapsed = () => counted + (since === undefined ? 0 : performance.now() - since);
  /** The listener that falls due next, and when. */
  const next = (): [Of<'timer'>, number] | undefined => {
    let best: [Of<'timer'>, number] | undefined;
    for (const [l, n] of count) {
      if (l.limit && n >= l.limit) continue;
      const due = (n + 1) * l.ms;
      if (!best || due < best[1]) best = [l, due];
    }
    return best;
  };
  const run = () => {
    handle = undefined;
    const now = elapsed();
    for (let n = next(); n && n[1] <= now; n = next()) {
      const c = count.get(n[0])! + 1;
      count.set(n[0], c);
      fire(n[0], { count: c, ms: n[1] });
    }
    schedule();
  };
  const schedule = () => {
    clearTimeout(handle);
    const n = next();
    if (n && since !== undefined) handle = setTimeout(run, Math.max(0, n[1] - elapsed()));
  };
  const onVisibility = () => {
    if (document.hidden) {
      counted = elapsed();
      since = undefined;
      clearTimeout(handle);
    } else if (since === undefined) {
      since = performance.now();
      schedule();
    }
  };
  document.addEventListener('visibilitychange', onVisibility);
  if (!document.hidden) onVisibility();
  return () => {
    clearTimeout(handle);
    document.removeEventListener('visibilitychange', onVisibility);
  };
}

/**
 * The page's URL changing without a load, as Launch's Core extension sees it: `pushState` and
 * `replaceState` (called through), `popstate` and `hashchange`, settled for a task (several
 * changes in one task are one), and only when `location.href` differs from the last one seen.
 */
function listenHistory(listeners: Array<Of<'history-change'>>, fire: Fire): Off {
  if (!listeners.length) return () => {};
  let last = location.href;
  let due: ReturnType<typeof setTimeout> | undefined;
  const changed = () => {
    clearTimeout(due);
    due = setTimeout(() => {
      if (location.href == last) return;
      last = location.href;
      for (const l of listeners) fire(l, { url: last });
    });
  };
  const h = history as unknown as Record<string, (...a: unknown[]) => unknown>;
  const originals: Array<[string, (...a: unknown[]) => unknown]> = [];
  for (const name of ['pushState', 'replaceState']) {
    const original = h[name];
    if (typeof original != 'function') continue;
    originals.push([name, original]);
    h[name] = function (this: unknown, ...a: unknown[]) {
      const r = original.apply(this, a);
      changed();
      return r;
    };
  }
  addEventListener('popstate', changed);
  addEventListener('hashchange', changed);
  return () => {
    clearTimeout(due);
    for (const [name, original] of originals) h[name] = original;
    removeEventListener('popstate', changed);
    removeEventListener('hashchange', changed);
  };
}

/**
 * Elements in the document: each listener fires once, for the first element that matches its
 * selector and properties, found when the chunk loads or when one is added later (a
 * MutationObserver; Adobe's Core extension looks every 3 seconds instead).
 */
function listenExists(listeners: Array<Of<'element-exists'>>, fire: Fire): Off {
  const left = [...listeners];
  if (!left.length) return () => {};
  const scan = () => {
    for (let i = 0; i < left.length; i++) {
      const l = left[i];
      const el = Array.from(document.querySelectorAll(l.selector)).find((e) => hasProperties(e, l.properties));
      if (!el) continue;
      left.splice(i--, 1);
      fire(l, { element: elementInfo(el), target: elementInfo(el) }, el);
    }
    if (!left.length) mo.disconnect();
  };
  const mo = new MutationObserver(() => {
    try {
      scan();
    } catch {
      /* never into the page's code */
    }
  });
  mo.observe(document, { childList: true, subtree: true });
  scan();
  return () => mo.disconnect();
}

/**
 * Hover: the pointer entering an element (one capturing `mouseenter` listener) that a listener's
 * selector and properties match starts that listener's delay; leaving the element first cancels
 * it. When the delay is over, Adobe's bubbling walk runs from that element for the listeners of
 * that delay (Core: a hover bubbles only to rules of the same delay).
 */
function listenHover(listeners: Array<Of<'hover'>>, fire: Fire): Off {
  if (!listeners.length) return () => {};
  const onEnter = (ev: Event) => {
    try {
      const el = ev.target;
      if (!(el instanceof Element)) return;
      const delays = new Set(listeners.filter((l) => el.matches(l.selector) && hasProperties(el, l.properties)).map((l) => l.delay ?? 0));
      for (const delay of delays) {
        const go = () => bubble({ target: el }, listeners.filter((l) => (l.delay ?? 0) == delay), fire, { delay });
        if (!delay) go();
        else {
          const t = setTimeout(() => {
            el.removeEventListener('mouseleave', cancel);
            go();
          }, delay);
          const cancel = () => clearTimeout(t);
          el.addEventListener('mouseleave', cancel, { once: true });
        }
      }
    } catch {
      /* never into the page's code */
    }
  };
  document.addEventListener('mouseenter', onEnter, { capture: true, passive: true });
  return () => document.removeEventListener('mouseenter', onEnter, { capture: true });
}

/**
 * Media time played: one capturing `timeupdate` listener. For each HTML5 media element, the time
 * played since the start of its seekable range is compared with what it was at its last update;
 * each threshold crossed (seconds, or percent of the seekable range) runs the bubbling walk from
 * the element for the listeners of that threshold, as Core's Media Time Played does.
 */
function listenMediaTime(listeners: Array<Of<'media-time-played'>>, fire: Fire): Off {
  if (!listeners.length) return () => {};
  const played = new WeakMap<EventTarget, number>();
  const onTime = (ev: Event) => {
    try {
      const m = ev.target as HTMLMediaElement;
      const range = m.seekable;
      if (!range || !range.length) return;
      const start = range.start(0);
      const now = m.currentTime - start;
      const before = played.get(m) ?? 0;
      played.set(m, now);
      const seen = new Set<string>();
      for (const l of listeners) {
        const id = l.amount + l.unit;
        if (seen.has(id)) continue;
        seen.add(id);
        const at = l.unit == 'second' ? l.amount : ((range.end(0) - start) * l.amount) / 100;
        if (at > before && at <= now)
          bubble({ target: m }, listeners.filter((o) => o.amount == l.amount && o.unit == l.unit), fire, { amount: l.amount, unit: l.unit });
      }
    } catch {
      /* never into the page's code */
    }
  };
  document.addEventListener('timeupdate', onTime, { capture: true, passive: true });
  return () => document.removeEventListener('timeupdate', onTime, { capture: true });
}

const isObject = (v: unknown): v is Record<string, unknown> => Object.prototype.toString.call(v) == '[object Object]';

/** Adobe Client Data Layer's and Google Tag Manager's state: objects merged deeply (arrays and other values replaced). */
function mergeDeep(into: Record<string, unknown>, add: Record<string, unknown>): Record<string, unknown> {
  for (const k of Object.keys(add)) into[k] = isObject(add[k]) ? mergeDeep(isObject(into[k]) ? (into[k] as Record<string, unknown>) : {}, add[k] as Record<string, unknown>) : add[k];
  return into;
}

/** The state after a pushed item (`state` is kept up to date in place), and the `detail` the event carries. */
function nextState(flavor: DataLayerFlavor, state: Record<string, unknown>, item: Record<string, unknown>): unknown {
  // What the item itself says about the event is not part of the page's state (ACDL: `eventInfo` neither).
  const { event: _e, __meta: _m, ...data } = item;
  if (flavor == 'acdl') delete data.eventInfo;
  if (flavor == 'dlm') {
    // Data Layer Manager: only event objects count, merged shallowly; the event carries its state in `__meta`.
    if (typeof item.event != 'string') return;
    Object.assign(state, data);
    return { ...item, __meta: { computedState: { ...state } } };
  }
  mergeDeep(state, data);
  return item;
}

/**
 * Data layer pushes (Adobe Client Data Layer, Google Tag Manager, Data Layer Manager): the array
 * `window[global]` (created when the page has none yet) gets a `push` that calls the one it had —
 * or the one a library sets later, as ACDL and gtm.js do — and then reads each pushed object. The
 * items pushed before the chunk loaded are read first, in order, as those libraries read the
 * queue they find. Each object with an `event` fires the listeners of that event (or of every
 * event), with the object as `detail` and the state so far as `state`.
 */
function listenDataLayers(listeners: Array<Of<'data-layer-push'>>, fire: Fire): Off {
  const byGlobal = new Map<string, Array<Of<'data-layer-push'>>>();
  for (const l of listeners) byGlobal.set(l.global, [...(byGlobal.get(l.global) ?? []), l]);
  const offs: Off[] = [];
  for (const [global, ls] of byGlobal) {
    const w = window as unknown as Record<string, unknown>;
    const layer = (w[global] ??= []) as unknown[];
    if (!Array.isArray(layer)) {
      console.warn(`Offtag: window.${global} is not an array; its data layer push events never fire.`);
      continue;
    }
    const state: Record<string, unknown> = {};
    const read = (item: unknown) => {
      try {
        if (!isObject(item)) return;
        const detail = nextState(ls[0].flavor, state, item);
        if (detail === undefined || typeof item.event != 'string') return;
        for (const l of ls) if (l.event === undefined || l.event === item.event) fire(l, { detail: travellingDetail(detail), state: travellingDetail(state) });
      } catch {
        /* never into the page's code */
      }
    };
    let inner = layer.push;
    function push(this: unknown, ...items: unknown[]) {
      const r = inner.apply(this, items);
      items.forEach(read);
      return r;
    }
    Object.defineProperty(layer, 'push', { configurable: true, get: () => push, set: (f) => void (inner = f) });
    layer.slice().forEach(read);
    offs.push(() => {
      delete (layer as { push?: unknown }).push;
      if (inner !== Array.prototype.push) layer.push = inner;
    });
  }
  return () => offs.forEach((f) => f());
}

/** Installs the listeners the worker listed; returns what removes them (the tests use it). */
export function installTriggers(listeners: TriggerListener[], send: Send): Off {
  const fire: Fire = (l, extra, element) => {
    try {
      send({ type: 'trigger', key: l.key, on: l.type, ...extra }, element);
    } catch {
      /* never into the page's code */
    }
  };
  const ok = listeners.filter(validSelector);
  const of = <T extends TriggerListener['type']>(...types: T[]) => ok.filter((l): l is Of<T> => types.includes(l.type as T));
  const offs = [
    listenBubbling(of('click', 'form-submit', 'custom-event'), fire),
    listenVisible(of('element-visible'), fire),
    listenScroll(of('scroll-depth'), fire),
    listenTimers(of('timer'), fire),
    listenHistory(of('history-change'), fire),
    listenExists(of('element-exists'), fire),
    listenHover(of('hover'), fire),
    listenMediaTime(of('media-time-played'), fire),
    listenDataLayers(of('data-layer-push'), fire),
  ];
  return () => offs.forEach((f) => f());
}
