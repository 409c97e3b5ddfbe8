/**
 * Preview's decision (src/worker-engine/core/preview.ts), the worker's hand-over
 * (src/worker-engine/shell/preview.ts) on real MessagePorts, and the overlay's publishing line
 * (src/devtools/publishing.ts). In the browser: tests/e2e/publish.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import type { EffectBatch, EngineInput, InitMessage } from '../../../src/protocol.ts';
import { previewOf } from '../../../src/worker-engine/core/preview.ts';
import { servePreview } from '../../../src/worker-engine/shell/preview.ts';
import { publishView } from '../../../src/devtools/publishing.ts';

describe('which environment a browser previews', () => {
  const page = 'https://shop.example/p';
  it('nothing asked, nothing kept: the page runs its own', () => {
    expect(previewOf(page, 'a=1; b=2', 'production')).toEqual({});
    expect(previewOf(undefined, undefined, 'production')).toEqual({});
  });
  it('?offtag_env=<env> keeps it in a session cookie and runs it', () => {
    expect(previewOf(`${page}?x=1&offtag_env=staging`, '', 'production')).toEqual({ cookie: 'offtag_env=staging; path=/; SameSite=Lax', env: 'staging' });
    // Asking for the page's own environment keeps the choice and runs the page's own.
    expect(previewOf(`${page}?offtag_env=production`, '', 'production')).toEqual({ cookie: 'offtag_env=production; path=/; SameSite=Lax' });
  });
  it('the cookie keeps it on the next pages; the environment it names runs its own', () => {
    expect(previewOf(page, 'a=1; offtag_env=development', 'production')).toEqual({ env: 'development' });
    expect(previewOf(page, 'offtag_env=staging', 'staging')).toEqual({});
  });
  it('?offtag_env= (empty) ends it; a value that names no environment is said and changes nothing', () => {
    expect(previewOf(`${page}?offtag_env=`, 'offtag_env=staging', 'production')).toEqual({ cookie: 'offtag_env=; path=/; max-age=0; SameSite=Lax' });
    expect(previewOf(`${page}?offtag_env=`, '', 'production')).toEqual({});
    expect(previewOf(`${page}?offtag_env=../x`, 'offtag_env=staging', 'production')).toEqual({
      warning: 'Offtag: ?offtag_env=../x names no environment (development, staging, production); this page runs production.',
    });
    expect(previewOf(page, 'offtag_env=qa', 'production')).toEqual({});
  });
});

describe('the worker’s hand-over', () => {
  const init = (url: string, cookie = ''): InitMessage =>
    ({ type: 'init', config: {}, page: {}, now: { seq: 0, applied: 0, time: 0, url, referrer: '', dataLayer: undefined, gpc: false, cookie }, orphans: [['offtag:u:1', '[]']] }) as unknown as InitMessage;
  const event = (seq: number, e: Record<string, unknown>): EngineInput => ({ type: 'event', event: e, snapshot: { seq } }) as unknown as EngineInput;

  /** The worker's side of the hot path, and what the page gets on it, batch by batch. */
  function link() {
    const { port1: page, port2: worker } = new MessageChannel();
    const got: EffectBatch[] = [];
    const waiters: Array<() => void> = [];
    page.onmessage = (e) => {
      got.push(e.data);
      waiters.splice(0).forEach((w) => w());
    };
    const next = (n: number) => new Promise<void>((r) => (got.length >= n ? r() : waiters.push(() => got.length >= n && r())));
    const close = () => {
      page.close();
      worker.close();
    };
    return { page, worker, got, next, close };
  }

  it('serves at once when nothing is previewed', () => {
    const l = link();
    let served = 0;
    servePreview(init('https://s/'), l.worker, 'production', () => served++);
    expect(served).toBe(1);
    l.close();
  });

  it('holds the page’s inputs, asks for the other environment, and serves them in order when it did not load', async () => {
    const l = link();
    const seen: number[] = [];
    servePreview(init('https://s/?offtag_env=staging'), l.worker, 'production', () => {
      l.worker.onmessage = (e) => seen.push((e.data as { snapshot: { seq: number } }).snapshot.seq);
    });
    await l.next(1);
    expect(l.got[0]).toEqual({ n: 0, effects: [{ type: 'cookie-string', cookie: 'offtag_env=staging; path=/; SameSite=Lax' }, { type: 'preview', env: 'staging', own: 'production' }] });
    l.page.postMessage(event(1, { type: 'library-loaded' }));
    l.page.postMessage(event(2, { type: 'direct-call', id: 'page view' }));
    l.page.postMessage({ type: 'preview', loaded: false });
    l.page.postMessage(event(3, { type: 'dom-ready' }));
    await expect.poll(() => seen).toEqual([1, 2, 3]);
    l.close();
  });

  it('when it loaded: acknowledges what it held and what comes, answers questions with nothing, hands back the calls and orphans', async () => {
    const l = link();
    let served = 0;
    servePreview(init('https://s/', 'offtag_env=staging'), l.worker, 'production', () => served++);
    await l.next(1);
    expect(l.got[0]).toEqual({ n: 0, effects: [{ type: 'preview', env: 'staging', own: 'production' }] });
    l.page.postMessage(event(1, { type: 'library-loaded' }));
    l.page.postMessage(event(2, { type: 'direct-call', id: 'page view', detail: { a: 1 } }));
    l.page.postMessage(event(3, { type: 'set-var', values: { x: 1 } }));
    l.page.postMessage(event(4, { type: 'get-var', name: 'x' }));
    l.page.postMessage({ type: 'preview', loaded: true });
    await l.next(2);
    expect(l.got[1]).toEqual({
      n: 0,
      a: 4,
      effects: [
        { type: 'preview-done', calls: [['track', 'page view', { a: 1 }], ['setVar', { x: 1 }]], orphans: [['offtag:u:1', '[]']] },
        { type: 'reply', seq: 4 },
      ],
    });
    l.page.postMessage(event(5, { type: 'click' }));
    await l.next(3);
    expect(l.got[2]).toEqual({ n: 0, effects: [], a: 5 });
    expect(served).toBe(0);
    l.close();
  });
});

describe('the overlay’s publishing line', () => {
  const state = { environments: { production: { version: 'v1aaaaa', build: 'b1aaaaa' }, staging: { version: 'v2bbbbb', build: 'b2sssss' } } };
  it('names the environment, the version of the build it runs, what runs where, and the preview', () => {
    expect(publishView('https://cdn.example/offtag/b2sssss/', 'staging', 'offtag_env=staging', state)).toEqual({
      env: 'staging',
      build: 'b2sssss',
      version: 'v2bbbbb',
      preview: 'staging',
      live: [
        { env: 'staging', version: 'v2bbbbb' },
        { env: 'production', version: 'v1aaaaa' },
      ],
    });
  });
  it('without the folder’s state, the build; without a published folder, the environment alone', () => {
    expect(publishView('https://cdn.example/offtag/b1aaaaa/', 'production', '')).toEqual({ env: 'production', build: 'b1aaaaa', live: [] });
    expect(publishView('https://cdn.example/dist/', 'production', '')).toEqual({ env: 'production', live: [] });
  });
});
