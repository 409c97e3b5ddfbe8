/**
 * `npm run faults`: the delivery fault suite (docs/delivery.md). Drives the built dist/ in
 * Chromium against the project's own collector and ID service, injects one fault per line, and
 * prints, per fault, events fired, beacons received, lost and duplicated, then a total.
 *
 *   npm run faults              the full run (a few minutes)
 *   tsx tools/faults/run.ts --quick   the subset `npm test` runs (under 2 minutes)
 *   tsx tools/faults/run.ts --only=quick-close,poison
 *
 * Every event is a `_satellite.track('Page View')` with its own page id in the data layer, so
 * each beacon names the event it belongs to (its pageName). Exit code 1 when anything is lost or
 * duplicated outside the documented cases.
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../chromium.ts';
import { startServers, type Servers } from '../dev-server.ts';
import { setOffline } from '../offline.ts';

const quick = process.argv.includes('--quick');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7).split(',');
// Off the e2e ports, so a running `offtag serve` or Playwright web server does not collide.
const BASE = (Number(process.env.OFFTAG_PORT_BASE) || 4173) + 10;

let servers: Servers;
let browser: Browser;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Row {
  fault: string;
  fired: number;
  received: number;
  lost: number;
  duplicated: number;
  /** The same beacon (same request) arrived again: the documented answer-lost window. */
  resent: number;
  note?: string;
}

async function post(url: string): Promise<void> {
  await fetch(url, { method: 'POST' });
}
async function collected(): Promise<Array<{ pageName?: string; sid: string }>> {
  return (await fetch(`${servers.collectorUrl}/__beacons`)).json() as Promise<Array<{ pageName?: string; sid: string }>>;
}

async function newContext(workerUrl?: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: servers.pageUrl });
  await context.addCookies([{ name: 'sat_track', value: 'true', url: servers.pageUrl }]);
  if (workerUrl) await context.addInitScript((w) => ((window as { offtagConfig?: unknown }).offtagConfig = { workerUrl: w }), `${servers.pageUrl}${workerUrl}`);
  return context;
}

/** A page of the site with the library loaded, no automatic page view. */
async function open(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.on('console', (m) => {
    if (process.env.FAULTS_VERBOSE) console.log(`    [page] ${m.text()}`);
  });
  await page.goto('/test/minimal.html?silent');
  await page.waitForFunction(() => !!(window as { _satellite?: unknown })._satellite);
  // The worker has loaded and answers (a scenario that goes offline next must not cut its scripts off).
  await page.evaluate(() => (window as unknown as { _satellite: { getVarAsync(n: string): Promise<unknown> } })._satellite.getVarAsync('brand'));
  return page;
}

/** Fires one Page View per id, each with its id as the page id (the beacon's pageName carries it). */
async function fire(page: Page, ids: string[]): Promise<void> {
  await page.evaluate((list) => {
    const w = window as unknown as { digitalData: { page: { pageInfo: { pageUID: string } } }; _satellite: { track(n: string): void } };
    for (const id of list) {
      w.digitalData.page.pageInfo.pageUID = id;
      w._satellite.track('Page View');
    }
  }, ids);
}

const ids = (tag: string, n: number, from = 0) => Array.from({ length: n }, (_, i) => `${tag}x${from + i}x`);

/**
 * What a page of the origin still holds, printed when events were lost, so a loss that happens only
 * sometimes says where the events stopped: pagehide copies not yet taken (`offtag:u:*`), beacons its
 * queue still works on, and the worker's feed (orphans finished or failed, beacons dropped or given up).
 */
async function diagnose(page: Page): Promise<string> {
  try {
    const held = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('offtag:u:')));
    if (!(await page.evaluate(() => 'Comlink' in window))) await page.addScriptTag({ path: 'node_modules/comlink/dist/umd/comlink.min.js' });
    const [pending, feed] = await page.evaluate(async () => {
      const w = window as unknown as { Comlink: { wrap(p: unknown): Record<string, () => Promise<unknown>> }; offtag: { apiPort: unknown } };
      const api = w.Comlink.wrap(w.offtag.apiPort);
      return [await api.pendingBeacons!(), await api.monitor!()] as [number, Array<{ name: string; data: unknown }>];
    });
    // The origin's beacon store (transport/idb-store.ts): each beacon's claim and attempts, and the pages' markers.
    const stored = await page.evaluate(
      () =>
        new Promise<string[]>((resolve) => {
          const open = indexedDB.open('offtag-beacons');
          open.onerror = () => resolve([`cannot open: ${String(open.error)}`]);
          open.onsuccess = () => {
            const db = open.result;
            if (!db.objectStoreNames.contains('beacons')) return resolve(['no object store']);
            const out: string[] = [];
            const req = db.transaction('beacons').objectStore('beacons').openCursor();
            req.onsuccess = () => {
              const c = req.result;
              if (!c) return resolve(out);
              const v = c.value as { owner?: string; leaseUntil?: number; attempts?: number; answered?: number; seq?: number; url?: string };
              out.push(
                v.url
                  ? `${String(c.key)}: owner ${v.owner}, claim ends in ${v.leaseUntil! - Date.now()} ms, attempts ${v.attempts}, answered ${v.answered ?? 0}`
                  : `${String(c.key)}: ${JSON.stringify(v)}`,
              );
              c.continue();
            };
            req.onerror = () => resolve([...out, `cursor failed: ${String(req.error)}`]);
          };
        }),
    );
    const lines = feed.filter((e) => !/^(rule|data-element|condition)/.test(e.name)).map((e) => `    ${e.name} ${JSON.stringify(e.data).slice(0, 300)}`);
    return [`  pagehide copies still in localStorage: ${held.length ? held.join(', ') : 'none'}`, `  beacons the queue still works on: ${pending}`, '  beacon store:', ...stored.map((l) => `    ${l}`), '  worker feed:', ...lines.slice(-40)].join('\n');
  } catch (e) {
    return `  (could not read the page: ${String(e)})`;
  }
}

/** Waits until every id arrived (or `timeoutMs`), then a moment more for late duplicates; counts. `page`: one of the origin, read when something is lost. */
async function tally(fault: string, fired: string[], timeoutMs: number, note?: string, page?: Page): Promise<Row> {
  /** Per event: how many arrivals, and how many different beacons (request ids `sid`). */
  const sids = new Map<string, Set<string>>();
  const count = async () => {
    const seen = new Map<string, number>();
    sids.clear();
    for (const b of await collected()) {
      const id = /([a-z0-9-]+x\d+x)/.exec(b.pageName ?? '')?.[1];
      if (!id) continue;
      seen.set(id, (seen.get(id) ?? 0) + 1);
      if (!sids.has(id)) sids.set(id, new Set());
      sids.get(id)!.add(b.sid);
    }
    return seen;
  };
  const until = Date.now() + timeoutMs;
  let seen = await count();
  while (Date.now() < until && fired.some((id) => !seen.has(id))) {
    await sleep(250);
    seen = await count();
  }
  await sleep(1_500);
  seen = await count();
  const received = fired.reduce((n, id) => n + (seen.get(id) ?? 0), 0);
  const lost = fired.filter((id) => !seen.has(id));
  if (lost.length && page) console.log(`${fault}: lost ${lost.join(', ')}\n${await diagnose(page)}`);
  return {
    fault,
    fired: fired.length,
    received,
    lost: lost.length,
    duplicated: fired.reduce((n, id) => n + Math.max(0, (sids.get(id)?.size ?? 0) - 1), 0),
    resent: fired.reduce((n, id) => n + (seen.get(id) ?? 0) - (sids.get(id)?.size ?? 0), 0),
    note,
  };
}

type Scenario = () => Promise<Row>;
const scenarios: Record<string, Scenario> = {
  async baseline() {
    const c = await newContext();
    const p = await open(c);
    const fired = ids('base', quick ? 10 : 50);
    await fire(p, fired);
    const row = await tally('online, no fault', fired, 20_000, undefined, p);
    await c.close();
    return row;
  },
  async 'collector-5xx'() {
    await post(`${servers.collectorUrl}/__fail?count=${quick ? 3 : 5}`);
    const c = await newContext();
    const p = await open(c);
    const fired = ids('fivexx', quick ? 10 : 30);
    await fire(p, fired);
    const row = await tally(`collector answers 503 (${quick ? 3 : 5} times)`, fired, 90_000, undefined, p);
    await c.close();
    return row;
  },
  async 'collector-reset'() {
    await post(`${servers.collectorUrl}/__fail?count=${quick ? 5 : 6}&status=0`);
    const c = await newContext();
    const p = await open(c);
    const fired = ids('reset', quick ? 10 : 30);
    await fire(p, fired);
    const row = await tally(`collector resets the connection (${quick ? 5 : 6} times)`, fired, 90_000, undefined, p);
    await c.close();
    return row;
  },
  async 'collector-hang'() {
    await post(`${servers.collectorUrl}/__fail?count=2&status=-1`);
    const c = await newContext();
    const p = await open(c);
    const fired = ids('hang', 5);
    await fire(p, fired);
    const row = await tally('collector never answers (2 requests, 5 s timeout)', fired, 40_000, undefined, p);
    await c.close();
    return row;
  },
  async 'offline-flaps'() {
    const c = await newContext();
    const p = await open(c);
    const n = quick ? 40 : 1000;
    const toggles = quick ? 20 : 101;
    const fired = ids('flap', n);
    const per = Math.ceil(n / toggles);
    for (let t = 0; t < toggles; t++) {
      await setOffline(c, t % 2 === 0);
      await fire(p, fired.slice(t * per, (t + 1) * per));
      await sleep(50);
    }
    await setOffline(c, false);
    const row = await tally(`${toggles} offline/online flaps`, fired, 90_000, undefined, p);
    await c.close();
    return row;
  },
  async 'quick-close'() {
    const c = await newContext();
    const n = quick ? 10 : 140;
    const fired = ids('close', n);
    for (let i = 0; i < n; i++) {
      const p = await open(c);
      const delay = i % 21; // 0–20 ms
      await fire(p, [fired[i]!]);
      if (delay) await sleep(delay);
      await p.close();
    }
    // The same origin opened again: its worker finishes what the closed pages left.
    const next = await open(c);
    const row = await tally(`page closed 0–20 ms after track (${n} pages)`, fired, 60_000, undefined, next);
    await next.close();
    await c.close();
    return row;
  },
  async 'id-service-hang'() {
    await post(`${servers.idServiceUrl}/__hang?on=1`);
    const c = await newContext();
    const p = await open(c);
    const fired = ids('idhang', 3);
    await fire(p, fired);
    await sleep(quick ? 2_000 : 5_000);
    await p.close();
    await post(`${servers.idServiceUrl}/__hang?on=0`);
    const next = await open(c);
    const row = await tally(`ID service hangs, page closed at ${quick ? 2 : 5} s`, fired, 40_000, undefined, next);
    await next.close();
    await c.close();
    return row;
  },
  async 'idb-missing'() {
    const c = await newContext('/test/faults/idb-missing.js');
    const p = await open(c);
    const fired = ids('idbmissing', 10);
    await fire(p, fired);
    const row = await tally('no IndexedDB in the worker', fired, 20_000, undefined, p);
    await c.close();
    return row;
  },
  async 'idb-throw'() {
    const c = await newContext('/test/faults/idb-throw.js');
    const p = await open(c);
    const fired = ids('idbthrow', 10);
    await fire(p, fired);
    const row = await tally('indexedDB.open throws', fired, 20_000, undefined, p);
    await c.close();
    return row;
  },
  async 'idb-hang'() {
    const c = await newContext('/test/faults/idb-hang.js');
    const p = await open(c);
    const fired = ids('idbhang', 3);
    await fire(p, fired);
    const row = await tally('indexedDB.open never answers (3 s timeout)', fired, 20_000, undefined, p);
    await c.close();
    return row;
  },
  async 'idb-quota'() {
    const c = await newContext('/test/faults/idb-quota.js');
    const p = await open(c);
    await setOffline(c, true);
    const fired = ids('quota', 20);
    await fire(p, fired);
    // Beacons wait offline, stored; then every write fails (a quota) while they are retried.
    await sleep(quick ? 5_000 : 12_000);
    await setOffline(c, false);
    const row = await tally('IndexedDB quota error mid-life, after waiting offline', fired, 40_000, undefined, p);
    await c.close();
    return row;
  },
  async 'two-tabs'() {
    const c = await newContext();
    // A page stores beacons it cannot send (the collector refuses), then dies.
    await post(`${servers.collectorUrl}/__fail?count=1000&status=503`);
    const dead = await open(c);
    const fired = ids('tabs', quick ? 10 : 30);
    await fire(dead, fired);
    await sleep(1_500);
    await dead.close();
    await post(`${servers.collectorUrl}/__fail?count=0&status=503`);
    // Two pages of the origin open in the same instant once the dead page's claims ran out.
    await sleep(10_500);
    const [a, b] = await Promise.all([open(c), open(c)]);
    const row = await tally('two tabs take over the same orphans at once', fired, 60_000, undefined, a);
    await a.close();
    await b.close();
    await c.close();
    return row;
  },
  async poison() {
    await post(`${servers.collectorUrl}/__poison?match=poisonx`);
    const c = await newContext();
    const p = await open(c);
    await fire(p, ['poisonx0x']);
    const fired = ids('after', quick ? 10 : 20);
    await fire(p, fired);
    const row = await tally('one beacon always answered 500, then normal ones', fired, 40_000, 'the poisoned one steps aside, is given up after 10 refusals', p);
    await c.close();
    return row;
  },
};

const QUICK = ['baseline', 'collector-5xx', 'offline-flaps', 'quick-close', 'id-service-hang', 'idb-quota', 'idb-hang', 'poison'];

async function main(): Promise<void> {
  servers = await startServers({
    quiet: true,
    base: { page: BASE, scripts: BASE + 1, collector: BASE + 2, idService: BASE + 3, rum: BASE + 4 },
  });
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  const names = only ?? (quick ? QUICK : Object.keys(scenarios));
  const rows: Row[] = [];
  const started = Date.now();
  console.log(`Offtag delivery faults (${quick ? 'quick' : 'full'} run), built dist/ in Chromium`);
  console.log(`${'fault'.padEnd(58)} ${'fired'.padStart(6)} ${'received'.padStart(9)} ${'lost'.padStart(5)} ${'dup'.padStart(4)} ${'resent'.padStart(7)}`);
  try {
    for (const name of names) {
      await post(`${servers.collectorUrl}/__reset`);
      await post(`${servers.idServiceUrl}/__reset`);
      const t0 = Date.now();
      const row = await scenarios[name]!();
      rows.push(row);
      console.log(
        `${row.fault.padEnd(58)} ${String(row.fired).padStart(6)} ${String(row.received).padStart(9)} ${String(row.lost).padStart(5)} ${String(row.duplicated).padStart(4)} ${String(row.resent).padStart(7)}` +
          `  (${((Date.now() - t0) / 1000).toFixed(1)} s${row.note ? `; ${row.note}` : ''})`,
      );
    }
  } finally {
    await browser.close();
    await servers.close();
  }
  const sum = (k: 'fired' | 'received' | 'lost' | 'duplicated' | 'resent') => rows.reduce((n, r) => n + r[k], 0);
  console.log(
    `${'total'.padEnd(58)} ${String(sum('fired')).padStart(6)} ${String(sum('received')).padStart(9)} ${String(sum('lost')).padStart(5)} ${String(sum('duplicated')).padStart(4)} ${String(sum('resent')).padStart(7)}` +
      `  (${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );
  // Both runs fail on a loss or a duplicate (a second, different beacon for one event).
  process.exit(sum('lost') || sum('duplicated') ? 1 : 0);
}

await main();
