/**
 * The page side of a container with page code (docs/containers.md "Page reads", docs/import.md):
 * bundled into offtag.js only when the build writes page code (the `__OFFTAG_PAGE__` define is
 * then the data literal offtag build writes outside the bridge's code, tools/build/page-reads.ts;
 * for any other container it is `0` and none of this is in offtag.js). It reads the page with
 * each event's snapshot, runs the steps of imported Launch rules the worker sends, and hosts the
 * imported library's other extensions.
 */
import type { EngineEvent, PageValues, SnapshotProblem } from '../protocol.ts';
import { turbineEvent } from './event.ts';
import { createHost, logger, plain, readDebug, type Host } from './host.ts';
import { launchSatellite } from './satellite.ts';
import { createSteps } from './steps.ts';
import type { PageData, PageHooks, PageSideRuntime, Post, Read, ReadOn } from './types.ts';

/** 1 when the build writes a module host (a container with other Launch extensions): its code is left out otherwise. */
declare const __OFFTAG_PAGE_HOST__: 0 | 1;
/** 1 when the container's rules have steps on the page (imported Launch code): the code that runs them is left out otherwise. */
declare const __OFFTAG_PAGE_STEPS__: 0 | 1;
/** 1 for a container imported from a Launch library: its `_satellite` is turbine's (satellite.ts); left out otherwise. */
declare const __OFFTAG_LAUNCH__: 0 | 1;

/** How many events' elements a step can still be given (a step runs within a few events of its own). */
const KEPT_ELEMENTS = 50;

const detail = (x: unknown) => (x instanceof Error ? x.name + ': ' + x.message : x && typeof x == 'object' ? 'a thrown object' : String(x));

/** Whether a page condition is read for `e`. */
const readFor = (on: ReadOn, e: EngineEvent) => on === 1 || on.some(([type, id]) => type == e.type && (id === undefined || (e as { id?: string }).id == id));

export function pageSide(data: PageData): PageSideRuntime {
  let hooks: PageHooks | undefined;
  let post: Post | undefined;
  const elements = new Map<number, Element>();
  /** Set while reading: a read that sends an event (`_satellite.track` in page code) gets no reads for that inner event, rather than reading again without end. */
  let busy = false;
  /**
   * The data elements being read now. A read may ask for another (`_satellite.getVar` in a data
   * element's code): turbine computes that one on the call, so it is read then, even during an
   * event's reads; only a name already being read (a cycle) answers the worker's value instead.
   */
  const reading = new Set<string>();

  /** One read; `condition`: a Launch block gets the element as `this` (Core calls a condition so, a data element without). */
  const exec = (r: Read, e: EngineEvent, element: Element | undefined, event: () => Record<string, unknown> | undefined, condition?: boolean): unknown => {
    switch (r[0]) {
      case 'l':
        try {
          return localStorage.getItem(r[1]);
        } catch {
          return null;
        }
      case 't':
        return document.title;
      case 'v':
        return r[1].reduce<unknown>((o, k) => (o == null ? undefined : (o as Record<string, unknown>)[k]), window);
      case 'a': {
        const t = document.querySelector(r[1]) as HTMLElement | null;
        if (t) return r[2] == 'text' ? t.innerText || t.textContent : r[2] in t ? (t as unknown as Record<string, unknown>)[r[2]] : t.getAttribute(r[2]);
        return undefined;
      }
      case 'f':
        return r[1](e, element);
      case 'b':
        return condition ? r[1].call(element, event(), element) : r[1](event());
      case 'm':
        return host!.call(r[1], r[2], event(), true);
    }
  };

  /** A data element read on the page, outside an event's reads (the module host's `getDataElementValue`). */
  const pageValue = (name: string, event: Record<string, unknown>) => {
    const r = data.elements?.[name];
    return r ? exec(r, { type: 'get-var', name }, undefined, () => event) : undefined;
  };

  const host: Host | undefined = __OFFTAG_PAGE_HOST__ && data.host ? createHost(data.host, () => hooks?.vars ?? {}, pageValue) : undefined;
  const run = __OFFTAG_PAGE_STEPS__ ? createSteps({ host, element: (seq) => elements.get(seq), hooks: () => hooks, post: () => post }) : () => {};

  const side: PageSideRuntime = {
    read(e, problems: SnapshotProblem[], element, seq, only) {
      if (only !== undefined ? reading.has(only) : busy) return {};
      const outer = busy;
      busy = true;
      try {
        if (element) {
          elements.set(seq, element);
          if (elements.size > KEPT_ELEMENTS) elements.delete(elements.keys().next().value!);
        }
        let ev: Record<string, unknown> | undefined;
        // The page's getVar gives a data element no event (turbine's passes none).
        const event = () => (e.type == 'get-var' ? undefined : (ev ??= turbineEvent(e, element)));
        const o: PageValues = {};
        const one = (g: 'd' | 'c', k: string, r: Read) => {
          if (g == 'd') reading.add(k);
          try {
            const v = exec(r, e, element, event, g == 'c');
            // A promise (custom code whose value only the page can hold, for its getVar) cannot be
            // cloned: an event's snapshot carries what the clone's fallback always made of one, an
            // empty object, rather than have every event's clone refused and copied again.
            (o[g] ??= {})[k] = only === undefined && v instanceof Promise ? {} : v;
          } catch (x) {
            problems.push({ kind: 'page', g, k, detail: detail(x) });
          } finally {
            if (g == 'd') reading.delete(k);
          }
        };
        if (only !== undefined) {
          if (data.elements?.[only]) one('d', only, data.elements[only]!);
          return o;
        }
        for (const k in data.elements) one('d', k, data.elements[k]!);
        for (const [k, on, r] of data.conditions ?? []) if (readFor(on, e)) one('c', k, r);
        return o;
      } finally {
        busy = outer;
      }
    },
    launch(s, h) {
      if (__OFFTAG_LAUNCH__ && data.launch) launchSatellite(s, data.launch, h, (name, problems) => side.read({ type: 'get-var', name }, problems, undefined, 0, name));
    },
    start(h, p) {
      hooks = h;
      post = p;
      readDebug();
      // Triggers pulled while the events are being set up go with Library Loaded, whose rules they
      // join by rule order (turbine queues them until all are set up, then runs them in that order).
      let queued: Array<{ id: string; detail?: unknown }> | undefined = [];
      const trigger = (id: string) => (synthetic?: unknown) => {
        const call = { id, detail: plain(synthetic) };
        if (queued) queued.push(call);
        else h.send?.({ type: 'direct-call', ...call });
      };
      // Core's Custom Code events: each block runs now, as turbine runs it while setting its rules up (what it sets up is there for the rules' code).
      for (const [id, rule, block] of data.events ?? [])
        try {
          block.call({ source: block }, trigger(id));
        } catch (x) {
          logger().error('Failed to execute "Custom Code" for "' + rule + '" rule. ' + (x as Error)?.message);
        }
      host?.start(trigger);
      const setup = queued;
      queued = undefined;
      return setup;
    },
    run,
  };
  return side;
}
