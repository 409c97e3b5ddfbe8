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

function nextMessage(timeoutMs: number): Promise<MessageEvent | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      removeEventListener('message', on);
      resolve(undefined);
    }, timeoutMs);
    const on = (e: MessageEvent) => {
      clearTimeout(timer);
      removeEventListener('message', on);
      resolve(e);
    };
    addEventListener('message', on);
  });
}

async function loadDest5(trustedOrigin: string, waitMs = 2000): Promise<{ frame: HTMLIFrameElement; first: Promise<MessageEvent | undefined> }> {
  const src = `${URL.createObjectURL(new Blob([DEST5_HTML], { type: 'text/html' }))}#${encodeURIComponent(trustedOrigin)}`;
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin');
  frame.title = 'Adobe ID Syncing iFrame';
  frame.style.display = 'none';
  const first = nextMessage(waitMs);
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.src = src;
  document.body.append(frame);
  frames.push(frame);
  await loaded;
  return { frame, first };
}

const stateOf = (frame: HTMLIFrameElement) => (frame.contentWindow as unknown as { dest5: Dest5State }).dest5;

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
};

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
    await waitFor(() => stateOf(frame).received.length > 0);
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
    await waitFor(() => stateOf(frame).rejected.length > 0);
    expect(stateOf(frame).rejected).toEqual([expect.objectContaining({ origin: 'null' })]);
    expect(stateOf(frame).received).toEqual([]);
  });

  it('says nothing to a parent it was not told to trust, and refuses its posts', async () => {
    const { frame, first } = await loadDest5('https://other.example', 300);
    expect(await first).toBeUndefined();
    frame.contentWindow!.postMessage(combinedMessage(['ibs|1|img|x|1|||0'], false), '*');
    await waitFor(() => stateOf(frame).rejected.length > 0);
    expect(stateOf(frame).rejected).toEqual([expect.objectContaining({ origin: location.origin })]);
    expect(stateOf(frame).received).toEqual([]);
  });
});
