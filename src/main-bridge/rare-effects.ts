/**
 * Effects most page views never need: the ID-sync iframe and its messages, sync pixels and
 * third-party scripts. They live in offtag-effects.js, which offtag.js loads the first time the
 * worker asks for one, so the script tag every page pays for stays small.
 */
import type { Effect } from '../protocol.ts';

export type RareEffect = Extract<Effect, { type: 'iframe' | 'post-message' | 'image' | 'script' }>;
export type FrameMessage = (frameId: string, origin: string, data: unknown) => void;

const frames: Record<string, { el: HTMLIFrameElement; ready: boolean; queue: Array<[string, string]> }> = {};

function callPath(path: string, args: unknown[]): void {
  const parts = path.split('.');
  let owner: any = window;
  for (let i = 0; i < parts.length - 1; i++) owner = owner?.[parts[i]];
  const fn = owner?.[parts[parts.length - 1]];
  if (typeof fn === 'function') fn.apply(owner, args);
  else console.error(`Offtag: ${path} is not a function after its script loaded.`);
}

export function applyRareEffect(e: RareEffect, frameMessage: FrameMessage): void {
  switch (e.type) {
    case 'image':
      new Image().src = e.src;
      break;
    case 'iframe': {
      if (frames[e.id]) break;
      const el = document.createElement('iframe');
      const f: (typeof frames)[string] = (frames[e.id] = {
        el,
        ready: false,
        queue: (e.messages ?? []).map((m) => [m, e.targetOrigin] as [string, string]),
      });
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
      // Only messages from this frame's window go back; the worker checks their origin.
      addEventListener('message', (ev) => {
        if (ev.source && ev.source === el.contentWindow) frameMessage(e.id, ev.origin, ev.data);
      });
      el.src = e.src;
      (document.body ?? document.documentElement).appendChild(el);
      break;
    }
    case 'post-message': {
      const f = frames[e.frameId];
      if (!f) break;
      if (f.ready) f.el.contentWindow?.postMessage(e.message, e.targetOrigin);
      else f.queue.push([e.message, e.targetOrigin]);
      break;
    }
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
