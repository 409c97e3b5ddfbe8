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

/** The worker's API (WorkerApi) over the Comlink API port, once offtag.js has started; Comlink is added to the page once. */
async function withApi<T>(page: Page, call: string, arg?: unknown): Promise<T> {
  await page.waitForFunction(() => !!(window as any).offtag);
  if (!(await page.evaluate(() => 'Comlink' in window))) await page.addScriptTag({ path: 'node_modules/comlink/dist/umd/comlink.min.js' });
  return page.evaluate(
    async ([name, a]) => {
      const w = window as any;
      w.offtagTestApi ??= w.Comlink.wrap(w.offtag.apiPort);
      return w.offtagTestApi[name as string](a);
    },
    [call, arg] as const,
  ) as Promise<T>;
}

/**
 * Resolves when the page's beacon queue has nothing left to send or wait for and its store has
 * caught up (WorkerApi.beaconsIdle): the event a test waits for before it asserts that nothing
 * more arrives, or leaves a page "a moment after a beacon".
 */
export const beaconsIdle = (page: Page): Promise<void> => withApi(page, 'beaconsIdle');

/** Beacons the page's durable queue is still working on (WorkerApi.pendingBeacons). */
export const pendingBeacons = (page: Page): Promise<number> => withApi(page, 'pendingBeacons');

/** The worker's devtools feed (WorkerApi.monitor). */
export const monitorOf = (page: Page): Promise<Array<{ name: string; data: any }>> => withApi(page, 'monitor');

/**
 * Resolves once the worker has handled every event the page sent before this call and the page has
 * applied their effects: a `get-var` round trip (the worker handles events, and the page applies
 * their batches, in order). The event to wait for before asserting that an event did nothing.
 */
export async function caughtUp(page: Page): Promise<void> {
  await page.waitForFunction(() => !!(window as any).offtag);
  await page.evaluate(() => (window as any).offtag.ask({ type: 'get-var', name: 'page name' }));
}

/**
 * Waits for the worker's verdict on a rule (its devtools feed): `fired`, `condition not met` or `action failed`.
 * `timeout`: the verdict comes once the page has loaded, which takes longer on a loaded machine.
 */
export async function ruleVerdict(page: Page, rule: string, timeout = 15_000): Promise<'fired' | 'condition not met' | 'action failed'> {
  let verdict: 'fired' | 'condition not met' | 'action failed' | undefined;
  await expect
    .poll(async () => {
      const entry = (await monitorOf(page)).find((m) => ['rule-completed', 'rule-condition-failed', 'rule-action-failed'].includes(m.name) && m.data?.rule === rule);
      verdict = entry && (entry.name === 'rule-completed' ? 'fired' : entry.name === 'rule-action-failed' ? 'action failed' : 'condition not met');
      return verdict;
    }, { timeout })
    .toBeDefined();
  return verdict!;
}
