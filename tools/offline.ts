/**
 * Offline for the tests and the fault suite: Playwright's `context.setOffline` reaches the pages
 * and their dedicated workers, not shared workers (it does not attach to them), and Offtag's
 * beacons leave from the origin's SharedWorker sender (docs/delivery.md, "The sender"). This does
 * both: the context, then every shared worker of the browser, through one browser-level CDP
 * session that stays attached to each (emulation lasts as long as its session). A shared worker
 * started while offline starts online (the next call reaches it).
 */
import type { Browser, BrowserContext, CDPSession } from 'playwright';

interface Link {
  cdp: CDPSession;
  /** targetId → the session attached to it. */
  sessions: Map<string, string>;
  next: number;
}
const links = new WeakMap<Browser, Promise<Link>>();

/** One command to an attached (non-flat) target session; resolves with its answer, or after 2 s. */
function command(link: Link, sessionId: string, method: string, params: object): Promise<void> {
  const id = ++link.next;
  const answered = new Promise<void>((resolve) => {
    const on = (e: { sessionId: string; message: string }) => {
      if (e.sessionId !== sessionId || !e.message.startsWith(`{"id":${id},`)) return;
      link.cdp.off('Target.receivedMessageFromTarget', on);
      resolve();
    };
    link.cdp.on('Target.receivedMessageFromTarget', on);
  });
  return link.cdp
    .send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) })
    .then(() => Promise.race([answered, new Promise<void>((r) => setTimeout(r, 2_000))]));
}

export async function setOffline(context: BrowserContext, offline: boolean): Promise<void> {
  await context.setOffline(offline);
  const browser = context.browser();
  if (!browser) return;
  if (!links.has(browser)) links.set(browser, browser.newBrowserCDPSession().then((cdp) => ({ cdp, sessions: new Map(), next: 0 })));
  const link = await links.get(browser)!;
  const { targetInfos } = (await link.cdp.send('Target.getTargets')) as { targetInfos: Array<{ targetId: string; type: string }> };
  for (const t of targetInfos.filter((x) => x.type === 'shared_worker')) {
    let sessionId = link.sessions.get(t.targetId);
    if (!sessionId) {
      ({ sessionId } = (await link.cdp.send('Target.attachToTarget', { targetId: t.targetId, flatten: false })) as { sessionId: string });
      link.sessions.set(t.targetId, sessionId);
      // Emulation takes effect in a target whose Network domain is on.
      await command(link, sessionId, 'Network.enable', {});
    }
    await command(link, sessionId, 'Network.emulateNetworkConditions', { offline, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  }
}
