/** Applies effect batches from the worker: the only page writes Offtag makes. */
import type { Effect } from '../protocol.ts';

export interface ApplyHooks {
  /** A message from a frame the engine created, for the worker (it checks the origin). */
  frameMessage(frameId: string, origin: string, data: unknown): void;
  reply(seq: number, effect: Extract<Effect, { type: 'reply' }>): void;
  vars: Record<string, unknown>;
  monitor: Array<{ name: string; data: unknown }>;
  debug(): boolean;
}

const frames: Record<string, { el: HTMLIFrameElement; ready: boolean; queue: Array<[string, string]> }> = {};

function cookieString(e: Extract<Effect, { type: 'cookie' }>): string {
  let s = `${e.name}=${e.value}; path=${e.path ?? '/'}`;
  if (e.domain) s += `; domain=${e.domain}`;
  if (e.expires !== undefined) s += `; expires=${new Date(e.expires).toUTCString()}`;
  if (e.sameSite) s += `; SameSite=${e.sameSite}`;
  if (e.secure) s += '; Secure';
  return s;
}

function callPath(path: string, args: unknown[]): void {
  const parts = path.split('.');
  let owner: any = window;
  for (let i = 0; i < parts.length - 1; i++) owner = owner?.[parts[i]];
  const fn = owner?.[parts[parts.length - 1]];
  if (typeof fn === 'function') fn.apply(owner, args);
  else console.error(`Offtag: ${path} is not a function after its script loaded.`);
}

function post(frameId: string, message: string, origin: string): void {
  const f = frames[frameId];
  if (!f) return;
  if (f.ready) f.el.contentWindow?.postMessage(message, origin);
  else f.queue.push([message, origin]);
}

export function applyEffects(effects: Effect[], hooks: ApplyHooks): void {
  for (const e of effects) {
    switch (e.type) {
      case 'cookie':
        document.cookie = cookieString(e);
        break;
      case 'storage':
        try {
          if (e.value === null) sessionStorage.removeItem(e.key);
          else sessionStorage.setItem(e.key, e.value);
        } catch (err) {
          console.warn(`Offtag could not write sessionStorage "${e.key}": ${(err as Error).name}`);
        }
        break;
      case 'log':
        if (e.level !== 'debug' || hooks.debug()) console[e.level](e.message);
        break;
      case 'vars':
        Object.assign(hooks.vars, e.values);
        break;
      case 'reply':
        hooks.reply(e.seq, e);
        break;
      case 'monitor':
        if (hooks.monitor.push(e) > 500) hooks.monitor.shift();
        break;
      case 'image':
        new Image().src = e.src;
        break;
      case 'iframe': {
        if (frames[e.id]) break;
        const el = document.createElement('iframe');
        const f: (typeof frames)[string] = (frames[e.id] = { el, ready: false, queue: (e.messages ?? []).map((m) => [m, e.targetOrigin] as [string, string]) });
        el.id = e.id;
        if (e.name) el.name = e.name;
        if (e.title) el.title = e.title;
        if (e.sandbox) el.setAttribute('sandbox', e.sandbox);
        el.style.cssText = 'display:none;width:0;height:0;border:0';
        el.onload = () => {
          el.className = 'aamIframeLoaded';
          f.ready = true;
          for (const [m, o] of f.queue.splice(0)) el.contentWindow?.postMessage(m, o);
        };
        addEventListener('message', (ev) => {
          if (ev.source && ev.source === el.contentWindow) hooks.frameMessage(e.id, ev.origin, ev.data);
        });
        el.src = e.src;
        (document.body ?? document.documentElement).appendChild(el);
        break;
      }
      case 'post-message':
        post(e.frameId, e.message, e.targetOrigin);
        break;
      case 'script': {
        if (document.getElementById(e.id)) break;
        const s = document.createElement('script');
        s.id = e.id;
        s.async = true;
        if (e.partytown) s.type = 'text/partytown';
        s.src = e.src;
        s.onload = () => {
          if (e.init) callPath(e.init.fn, e.init.args);
          const then = e.then;
          if (then) setTimeout(() => callPath(then.fn, then.args), then.delay);
        };
        s.onerror = () => console.error(`Failed to load script ${e.src}`);
        document.head.appendChild(s);
        if (e.partytown) dispatchEvent(new CustomEvent('ptupdate'));
        break;
      }
    }
  }
}
