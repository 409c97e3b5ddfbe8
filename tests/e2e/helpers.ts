import { expect, type Page, type APIRequestContext } from '@playwright/test';

const BASE = Number(process.env.OFFTAG_PORT_BASE) || 4173;
export const SERVERS = {
  page: `http://127.0.0.1:${BASE}`,
  scripts: `http://127.0.0.1:${BASE + 1}`,
  collector: `http://127.0.0.1:${BASE + 2}`,
  idService: `http://127.0.0.1:${BASE + 3}`,
  rum: `http://127.0.0.1:${BASE + 4}`,
};

export async function resetServers(request: APIRequestContext) {
  await request.post(`${SERVERS.collector}/__reset`);
  await request.post(`${SERVERS.idService}/__reset`);
  await request.post(`${SERVERS.rum}/__reset`);
}

export interface Beacon {
  hitType: 't' | 'tl';
  pageName?: string;
  events?: string;
  linkType?: string;
  linkName?: string;
  mid?: string;
  sid: string;
  duplicate: boolean;
  params: Record<string, string>;
  [k: string]: unknown;
}

export async function beacons(request: APIRequestContext): Promise<Beacon[]> {
  return (await request.get(`${SERVERS.collector}/__beacons`)).json();
}

export async function idCalls(request: APIRequestContext): Promise<Array<{ path: string; query: Record<string, string> }>> {
  return (await request.get(`${SERVERS.idService}/__calls`)).json();
}

/** Waits until the collector holds `n` beacons and returns them. */
export async function waitForBeacons(request: APIRequestContext, n: number, timeout = 15_000): Promise<Beacon[]> {
  await expect.poll(async () => (await beacons(request)).length, { timeout }).toBeGreaterThanOrEqual(n);
  return beacons(request);
}

/** Collects console messages of the page. */
export function consoleOf(page: Page): string[] {
  const lines: string[] = [];
  page.on('console', (m) => lines.push(m.text()));
  return lines;
}

export async function clearState(page: Page) {
  await page.context().clearCookies();
}

/**
 * Resolves when the page's beacon queue has nothing left to send or wait for and its store has
 * caught up (WorkerApi.beaconsIdle, asked over the Comlink API port): the event a test waits for
 * before it asserts that nothing more arrives, or leaves a page "a moment after a beacon".
 */
export async function beaconsIdle(page: Page): Promise<void> {
  await page.waitForFunction(() => !!(window as any).offtag);
  if (!(await page.evaluate(() => 'Comlink' in window))) await page.addScriptTag({ path: 'node_modules/comlink/dist/umd/comlink.min.js' });
  await page.evaluate(async () => {
    const w = window as any;
    w.offtagTestApi ??= w.Comlink.wrap(w.offtag.apiPort);
    await w.offtagTestApi.beaconsIdle();
  });
}
