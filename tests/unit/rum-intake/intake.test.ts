/**
 * tools/rum-intake: what the real Datadog SDK posts through its `proxy`, decoded. The real SDK's
 * own requests are covered end to end (tests/e2e/third-party.spec.ts); here each format alone,
 * built the way the SDK builds it, including the uncompressed one the e2e run never sends.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deflateSync } from 'node:zlib';
import { startRumIntake } from '../../../tools/rum-intake/server.ts';

let intake: Awaited<ReturnType<typeof startRumIntake>>;
beforeAll(async () => {
  intake = await startRumIntake();
});
afterAll(() => intake.close());
beforeEach(async () => {
  await fetch(`${intake.url}/__reset`, { method: 'POST' });
});

const forward = (track: string) =>
  `${intake.url}/intake?ddforward=${encodeURIComponent(`/api/v2/${track}?ddsource=browser&dd-api-key=pub&dd-evp-origin=browser`)}`;
const get = async (path: string) => (await fetch(`${intake.url}${path}`)).json();
const ndjson = (...events: object[]) => events.map((e) => JSON.stringify(e)).join('\n');

describe('RUM intake', () => {
  it('decodes newline-delimited JSON, plain and deflated, posted through ddforward', async () => {
    await fetch(forward('rum'), { method: 'POST', body: ndjson({ type: 'view', view: { id: 'v1' } }, { type: 'action' }) });
    await fetch(forward('rum'), { method: 'POST', body: deflateSync(ndjson({ type: 'error', error: { message: 'x' } })) });
    expect((await get('/__events')).map((e: { type: string }) => e.type)).toEqual(['view', 'action', 'error']);
    const batches = await get('/__batches');
    expect(batches.map((b: { track: string; encoding: string; count: number }) => [b.track, b.encoding, b.count])).toEqual([
      ['rum', 'none', 2],
      ['rum', 'deflate', 1],
    ]);
    expect(batches[0].query).toMatchObject({ ddsource: 'browser', 'dd-api-key': 'pub' });
  });

  it('decodes a multipart replay request: metadata and deflated records', async () => {
    const form = new FormData();
    const records = { records: [{ type: 4, timestamp: 1 }, { type: 2, timestamp: 2 }], view: { id: 'v1' } };
    form.append('segment', new Blob([deflateSync(JSON.stringify(records))]), 'session-1');
    form.append('event', new Blob([JSON.stringify({ records_count: 2, index_in_view: 0, creation_reason: 'init' })], { type: 'application/json' }));
    await fetch(forward('replay'), { method: 'POST', body: form });
    const [segment] = await get('/__replay');
    expect(segment).toMatchObject({ records_count: 2, creation_reason: 'init', view: { id: 'v1' } });
    expect(segment.records).toHaveLength(2);
  });

  it('keeps the lines before a broken one and says where it broke', async () => {
    await fetch(`${intake.url}/api/v2/rum`, { method: 'POST', body: `${JSON.stringify({ type: 'view' })}\n{not json` });
    expect((await get('/__events')).map((e: { type: string }) => e.type)).toEqual(['view']);
    const [batch] = await get('/__batches');
    expect(batch.problem).toMatch(/^line 2 is not JSON/);
  });

  it('serves the SDK bundle from the npm package, with CORS', async () => {
    const res = await fetch(`${intake.url}/datadog-rum.js`, { headers: { origin: 'http://127.0.0.1:1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:1');
    expect(await res.text()).toContain('DD_RUM');
  });
});
