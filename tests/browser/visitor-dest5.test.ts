/**
 * The ID-sync iframe protocol in real Chromium: the local ID service's dest5.html, loaded as a
 * blob document (its origin is the test page's), talks to the page through postMessage, and
 * both sides check origins.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEST5_HTML } from '../../tools/id-service/dest5.ts';
import { combinedMessage, ibsMessage, readFrameMessage } from '../../src/worker-engine/visitor/id-sync.ts';

type Dest5State = { parentOrigin: string; received: Array<{ clear: boolean; entries: string[] }>; rejected: Array<{ origin: string }> };

const frames: HTMLIFrameElement[] = [];
afterEach(() => {
  for (const f of frames.splice(0)) f.remove();
});

/**
 * The frame's first message to this page. For a parent the frame does not trust (`none`), undefined
 * once the frame has loaded and one more task has run: dest5.html posts while its script runs,
 * before its load event, so a message it sent would have been queued by then. A trusted parent
 * waits for the message itself, however long the frame takes.
 */
function firstMessage(loaded: Promise<unknown>, none: boolean): Promise<MessageEvent | undefined> {
  return new Promise((resolve) => {
    const on = (e: MessageEvent) => {
      removeEventListener('message', on);
      resolve(e);
    };
    addEventListener('message', on);
    if (none)
      void loaded.then(() =>
        setTimeout(() => {
          removeEventListener('message', on);
          resolve(undefined);
        }),
      );
  });
}

async function loadDest5(trustedOrigin: string): Promise<{ frame: HTMLIFrameElement; first: Promise<MessageEvent | undefined> }> {
  const src = `${URL.createObjectURL(new Blob([DEST5_HTML], { type: 'text/html' }))}#${encodeURIComponent(trustedOrigin)}`;
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin');
  frame.title = 'Adobe ID Syncing iFrame';
  frame.style.display = 'none';
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  const first = firstMessage(loaded, trustedOrigin !== location.origin);
  frame.src = src;
  document.body.append(frame);
  frames.push(frame);
  await loaded;
  return { frame, first };
}

const stateOf = (frame: HTMLIFrameElement) => (frame.contentWindow as unknown as { dest5: Dest5State }).dest5;

/** Resolves when `check` holds, looking again after each message the frame receives (its state changes only on one). */
const waitFor = (frame: HTMLIFrameElement, check: () => boolean) =>
  new Promise<void>((resolve) => {
    if (check()) return resolve();
    const win = frame.contentWindow!;
    // dest5.html's own listener was added first, so it has run when this one does.
    const on = () => check() && (win.removeEventListener('message', on), resolve());
    win.addEventListener('message', on);
  });

describe('dest5.html postMessage protocol', () => {
  it('tells the trusted parent it can set third-party cookies; the page accepts that only from the iframe origin', async () => {
    const { frame, first } = await loadDest5(location.origin);
    const e = await first;
    expect(e).toBeDefined();
    expect(e!.source).toBe(frame.contentWindow);
    expect(e!.data).toBe('---destpub-to-parent---canSetThirdPartyCookies|true');
    expect(readFrameMessage(e!.data, e!.origin, location.origin)).toEqual({ canSetThirdPartyCookies: true });
    expect(readFrameMessage(e!.data, e!.origin, 'https://dpm.demdex.net')).toBeUndefined();
  });

  it('accepts combined posts from the trusted origin and splits the entries', async () => {
    const { frame, first } = await loadDest5(location.origin);
    await first;
    const entries = [
      ibsMessage({ id: '411', tag: 'img', url: ['//127.0.0.1:9/p?x=1'], ttl: 10080, fireURLSync: 1, syncOnPage: 0 }),
      ibsMessage({ id: '22', tag: 'img', url: [], ttl: 60, fireURLSync: 0, syncOnPage: 0 }),
    ];
    frame.contentWindow!.postMessage(combinedMessage(entries, true), location.origin);
    await waitFor(frame, () => stateOf(frame).received.length > 0);
    expect(stateOf(frame).received).toEqual([{ clear: true, entries }]);
    expect(stateOf(frame).rejected).toEqual([]);
  });

  it('ignores posts from any other origin', async () => {
    const { frame, first } = await loadDest5(location.origin);
    await first;
    const intruder = document.createElement('iframe');
    intruder.setAttribute('sandbox', 'allow-scripts');
    intruder.srcdoc = `<script>parent.frames[0].postMessage('---destpub-combined---ibs|1|img|x|1|||0', '*');</script>`;
    document.body.append(intruder);
    frames.push(intruder);
    await waitFor(frame, () => stateOf(frame).rejected.length > 0);
    expect(stateOf(frame).rejected).toEqual([expect.objectContaining({ origin: 'null' })]);
    expect(stateOf(frame).received).toEqual([]);
  });

  it('says nothing to a parent it was not told to trust, and refuses its posts', async () => {
    const { frame, first } = await loadDest5('https://other.example');
    expect(await first).toBeUndefined();
    frame.contentWindow!.postMessage(combinedMessage(['ibs|1|img|x|1|||0'], false), '*');
    await waitFor(frame, () => stateOf(frame).rejected.length > 0);
    expect(stateOf(frame).rejected).toEqual([expect.objectContaining({ origin: location.origin })]);
    expect(stateOf(frame).received).toEqual([]);
  });
});
