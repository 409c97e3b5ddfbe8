/**
 * Values from the network are data, not structure; and the ID call's messages say what really
 * happened.
 */
import { describe, expect, it } from 'vitest';
import { decodeAmcv, encodeAmcv } from '../../../src/worker-engine/visitor/amcv-cookie.ts';
import { createVisitorService } from '../../../src/worker-engine/visitor/service.ts';
import { idReply, makeContext } from '../visitor/helpers.ts';

const AMCV = 'AMCV_0123456789ABCDEF01234567%40AdobeOrg';
const MID = '87281349862349576210981234567890123456';

describe('network values cannot inject AMCV fields', () => {
  it('a d_blob of "x|MCMID|DEADBEEF" is left out, said, and the cookie keeps the real MID on the next page', async () => {
    const ctx = makeContext({ fetch: () => idReply({ d_blob: 'x|MCMID|DEADBEEF' }) });
    const svc = createVisitorService(ctx);
    await svc.start();
    const cookie = ctx.cookies.get(AMCV)!;
    expect(decodeURIComponent(cookie)).not.toContain('DEADBEEF');
    expect(decodeAmcv(cookie).fields.get('MCMID')?.value).toBe(MID);
    expect(ctx.logs.map((l) => l.message)).toContain(
      `Visitor ID call: the reply's d_blob held "|" or "*", which would change the AMCV cookie's fields; left out.`,
    );
    // The next page reads the cookie back: still the service's MID.
    const next = makeContext({ cookies: { [AMCV]: cookie }, fetch: () => idReply() });
    const again = createVisitorService(next);
    expect((await again.getVisitorValues()).MCMID).toBe(MID);
  });

  it('a region, opt-out, subdomain or ibs id holding "|" or "*" is left out', async () => {
    const ctx = makeContext({
      fetch: () =>
        idReply({
          d_region: '7|MCAID|ABC',
          d_optout: ['global|MCMID|1'],
          subdomain: 'dpm|x',
          ibs: [{ id: '411*999-99999', url: ['//cm.example.net/p'], ttl: 60, fireURLSync: 1, syncOnPage: 1 }],
        }),
    });
    const svc = createVisitorService(ctx);
    await svc.start();
    const raw = decodeURIComponent(ctx.cookies.get(AMCV)!);
    expect(raw.split('|').filter((p) => p === 'MCMID')).toHaveLength(1);
    expect(raw).not.toContain('MCAID|ABC');
    expect(raw).not.toContain('999-99999');
    expect(ctx.logs.map((l) => l.message).find((m) => m.includes('left out'))).toBe(
      `Visitor ID call: the reply's ibs id, d_optout, d_region, subdomain held "|" or "*", which would change the AMCV cookie's fields; left out.`,
    );
  });

  it('encodeAmcv never writes a value holding the separator, whatever its source', () => {
    const fields = new Map([
      ['MCMID', { value: MID }],
      ['MCAAMB', { value: 'a|MCMID|DEADBEEF' }],
    ]);
    const decoded = decodeAmcv(encodeAmcv(fields, 1));
    expect([...decoded.fields.keys()]).toEqual(['MCMID']);
  });
});

describe('the ID call says what happened', () => {
  for (const [what, res, cause] of [
    ['HTTP 404', { status: 404, body: 'not found' }, 'ID service answered HTTP 404'],
    ['HTTP 500', { status: 500, body: '' }, 'ID service answered HTTP 500'],
    ['an empty body', { status: 200, body: '' }, 'Error parsing response as JSON'],
    ['a JSON array', { status: 200, body: '[1,2]' }, 'Response is not JSON'],
  ] as const) {
    it(`${what}: one message with the real cause, never "timed out"`, async () => {
      const ctx = makeContext({ fetch: () => res });
      const svc = createVisitorService(ctx);
      await svc.start();
      const said = ctx.logs.map((l) => l.message);
      expect(said).toEqual([`Visitor ID call: ${cause}; using a local Marketing Cloud ID.`]);
      expect(said.join('\n')).not.toContain('timed out');
    });
  }

  it('a real timeout still says "timed out"', async () => {
    const ctx = makeContext({ fetch: () => ({ status: 0, body: '', error: 'timeout' }) });
    await createVisitorService(ctx).start();
    expect(ctx.logs.map((l) => l.message)).toEqual(['Visitor ID call timed out; using a local Marketing Cloud ID.']);
  });
});
