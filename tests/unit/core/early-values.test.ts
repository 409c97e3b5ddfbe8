import { describe, expect, it } from 'vitest';
import { replay } from '../../../tools/replay/replay.ts';

/** `_satellite.getVar` right after the script tag: the data elements are evaluated with the first lifecycle event. */
describe('early getVar values', () => {
  it('library-loaded sends every data element without side effects, before any rule reads them', async () => {
    const { effects } = await replay({
      cookies: { sat_track: 'true' },
      dataLayer: { page: { pageInfo: { pageType: 'Product Detail', pageUID: 'product 4KM91' } }, product: [{ productInfo: { sku: '4KM91' } }] },
      events: [{ type: 'library-loaded' }],
    });
    const vars = effects.filter((e) => e.type === 'vars').map((e) => (e as { values: Record<string, unknown> }).values);
    const values = Object.assign({}, ...vars);
    expect(values).toMatchObject({ 'page name': 'acme:product detail:product 4km91', 'product SKU': '4KM91', 'login state': 'Not Logged In' });
    // Reading these writes cookies or storage: they wait for the rules that read them.
    for (const name of ['previous page name', 'new/repeat', 'visit number', 'days since last visit', 'time since last visit']) {
      expect(values).not.toHaveProperty(name);
    }
    expect(effects.filter((e) => e.type === 'storage')).toEqual([]);
    expect(effects.filter((e) => e.type === 'cookie').map((e) => (e as { name: string }).name)).not.toContain('s_nr30');
  });

  it('quietly: a value missing this early logs nothing', async () => {
    const { effects } = await replay({ cookies: { sat_track: 'true' }, events: [{ type: 'library-loaded' }] });
    const logs = effects.filter((e) => e.type === 'log').map((e) => (e as { message: string }).message);
    expect(logs.filter((m) => /not set in the page data layer/.test(m))).toEqual([]);
    const values = Object.assign({}, ...effects.filter((e) => e.type === 'vars').map((e) => (e as { values: object }).values));
    expect(values['page name']).toBe('acme::not set in pdl');
  });
});
