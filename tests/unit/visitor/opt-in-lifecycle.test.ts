/**
 * `adobe.optIn` (VisitorAPI.js 5.5.0: opt-in) beyond opt-in.test.ts: what counts as a permission object, the
 * lifetime of `adobeujs-optin`, what a configuration is ignored for, `fetchPermissions`'
 * subscription, `on`/`off`, `whenComplete`, and `deny(cats, true)` through the facade.
 */
import { describe, expect, it } from 'vitest';
import { createOptIn, optInCookieLifetime, parsePermissions, type OptInConfig } from '../../../src/worker-engine/visitor/opt-in.ts';
import { createVisitorService } from '../../../src/worker-engine/visitor/service.ts';
import { makeContext } from './helpers.ts';

function setup(config: OptInConfig, cookie?: string) {
  const logs: string[] = [];
  const writes: Array<{ value: string; lifetime: number; domain: string }> = [];
  const jar = { value: cookie };
  const optIn = createOptIn(config, {
    cookie: () => jar.value,
    writeCookie: (value, lifetime, domain) => {
      jar.value = value;
      writes.push({ value, lifetime, domain });
    },
    log: (m) => logs.push(m),
    cookieDomain: 'example.com',
    hostname: 'www.example.com',
  });
  return { optIn, logs, writes, jar };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('opt-in permission objects', () => {
  it('null, a JSON null and a function returning null are refused, not thrown on', () => {
    expect(parsePermissions(null)).toBeUndefined();
    expect(parsePermissions('null')).toBeUndefined();
    expect(parsePermissions(() => null)).toBeUndefined();
    const { optIn, logs } = setup({ doesOptInApply: true, previousPermissions: null, preOptInApprovals: 'null' });
    expect(logs).toEqual(['Invalid `preOptInApprovals`!', 'Invalid `previousPermissions`!']);
    expect(optIn.status).toBe('pending');
  });

  it('an array is refused, even one carrying a category as a property', () => {
    expect(parsePermissions([])).toBeUndefined();
    expect(parsePermissions(Object.assign([], { ecid: true }))).toBeUndefined();
    expect(parsePermissions('["aa"]')).toBeUndefined();
  });

  it('a function is called once: a function it returns is not a permission object, whatever it carries', () => {
    const inner = Object.assign(() => undefined, { ecid: true });
    expect(parsePermissions(() => inner)).toBeUndefined();
    expect(parsePermissions(() => '{"ecid":true}')).toEqual({ ecid: true });
  });

  it('only a string is read as JSON: an array holding a JSON text is refused', () => {
    expect(parsePermissions(['{"ecid":true}'])).toBeUndefined();
    expect(parsePermissions(() => ['{"ecid":true}'])).toBeUndefined();
  });

  it('one unknown key among categories refuses the whole object', () => {
    expect(parsePermissions({ aa: true, ecid: true, bogus: true })).toBeUndefined();
    expect(parsePermissions({ bogus: true, aa: true })).toBeUndefined();
  });

  it('takes the extra keys videoaa and iabConsentHash beside the categories', () => {
    expect(parsePermissions({ aa: true, iabConsentHash: '1a2b3c' })).toEqual({ aa: true, iabConsentHash: '1a2b3c' });
    expect(parsePermissions('{"iabConsentHash":"x9","videoaa":false}')).toEqual({ iabConsentHash: 'x9', videoaa: false });
  });
});

describe('the adobeujs-optin lifetime', () => {
  it('uses optInStorageExpiry only when it is a positive number of seconds', () => {
    expect(optInCookieLifetime({ isOptInStorageEnabled: true, optInStorageExpiry: 1 }, true)).toBe(1);
    expect(optInCookieLifetime({ isOptInStorageEnabled: true, optInStorageExpiry: 0 }, true)).toBe(33696000);
    expect(optInCookieLifetime({ isOptInStorageEnabled: true, optInStorageExpiry: -60 }, true)).toBe(33696000);
    expect(optInCookieLifetime({ isOptInStorageEnabled: true, optInStorageExpiry: 0 }, false)).toBe(34190000);
    // A text is not a number of seconds (the extension gives numbers): the default applies.
    const text = { isOptInStorageEnabled: true, optInStorageExpiry: '60' as unknown as number };
    expect(optInCookieLifetime(text, true)).toBe(33696000);
  });
});

describe('what the opt-in configuration is ignored for', () => {
  it('without doesOptInApply, permissions given at setup or stored change nothing and log nothing', () => {
    const { optIn, logs } = setup(
      {
        isOptInStorageEnabled: true,
        previousPermissions: { ecid: false, aa: false },
        preOptInApprovals: 'not json',
      },
      encodeURIComponent('{"target":false}'),
    );
    expect(logs).toEqual([]);
    expect(optIn.status).toBe('complete');
    expect(optIn.permissions()).toEqual({ aam: true, adcloud: true, aa: true, campaign: true, ecid: true, livefyre: true, target: true, mediaaa: true });
  });

  it('without doesOptInApply, every category stays approved, even after deny', () => {
    const { optIn } = setup({});
    optIn.deny('aa');
    expect(optIn.isApproved('aa')).toBe(true);
    expect(optIn.isApproved()).toBe(true);
  });

  it('with doesOptInApply and nothing given, nothing is logged', () => {
    const { optIn, logs } = setup({ doesOptInApply: true, isOptInStorageEnabled: true });
    expect(optIn.status).toBe('pending');
    expect(logs).toEqual([]);
  });

  it('a stored cookie that is not a permission object leaves the status pending', () => {
    for (const cookie of ['garbage', encodeURIComponent('{}'), encodeURIComponent('{"nope":true}')]) {
      const { optIn } = setup({ doesOptInApply: true, isOptInStorageEnabled: true }, cookie);
      expect(optIn.status).toBe('pending');
      expect(optIn.isApproved('ecid')).toBe(false);
    }
  });

  it('the write merges what another page stored in adobeujs-optin since this one started', () => {
    const { optIn, writes, jar } = setup({ doesOptInApply: true, isOptInStorageEnabled: true });
    jar.value = encodeURIComponent('{"iabConsentHash":"abc","videoaa":true}');
    optIn.approve('ecid');
    expect(JSON.parse(decodeURIComponent(writes[0]!.value))).toMatchObject({ iabConsentHash: 'abc', videoaa: true, ecid: true, aa: false });
  });
});

describe('isApproved / isPreApproved with no categories', () => {
  it('no argument means every category', () => {
    const { optIn } = setup({ doesOptInApply: true, preOptInApprovals: { aa: true } });
    expect(optIn.isApproved()).toBe(false);
    expect(optIn.isPreApproved()).toBe(false);
    optIn.approveAll();
    expect(optIn.isApproved()).toBe(true);
    const all = setup({
      doesOptInApply: true,
      preOptInApprovals: { aam: true, adcloud: true, aa: true, campaign: true, ecid: true, livefyre: true, target: true, mediaaa: true },
    });
    expect(all.optIn.isPreApproved()).toBe(true);
    expect(all.optIn.isPreApproved(undefined)).toBe(true);
  });

  it('isPreApproved of a list needs every listed category pre-approved', () => {
    const { optIn } = setup({ doesOptInApply: true, preOptInApprovals: { aa: true } });
    expect(optIn.isPreApproved(['aa'])).toBe(true);
    expect(optIn.isPreApproved(['aa', 'target'])).toBe(false);
    expect(optIn.isPreApproved(['target', 'aa'])).toBe(false);
  });
});

describe('fetchPermissions, on/off and whenComplete', () => {
  it('a queued callback answers once, at the next completion only', () => {
    const { optIn } = setup({ doesOptInApply: true });
    const seen: Array<Record<string, unknown>> = [];
    optIn.fetchPermissions((p) => seen.push(p));
    optIn.approve('aa');
    optIn.approve('ecid');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ aa: true, ecid: false });
  });

  it('once complete, a callback without autoSubscribe answers at once and never again', () => {
    const { optIn } = setup({ doesOptInApply: true, previousPermissions: { aa: true } });
    const seen: unknown[] = [];
    optIn.fetchPermissions((p) => seen.push(p));
    expect(seen).toHaveLength(1);
    optIn.approve('ecid');
    optIn.deny('ecid');
    expect(seen).toHaveLength(1);
  });

  it('autoSubscribe while pending answers at every completion, not before', () => {
    const { optIn } = setup({ doesOptInApply: true });
    const seen: Array<Record<string, unknown>> = [];
    optIn.fetchPermissions((p) => seen.push(p), true);
    expect(seen).toEqual([]);
    optIn.approve('aa');
    optIn.deny('aa');
    expect(seen.map((p) => p.aa)).toEqual([true, false]);
  });

  it('autoSubscribe once complete answers now and at every later completion', () => {
    const { optIn } = setup({ doesOptInApply: true, previousPermissions: { aa: true } });
    const seen: Array<Record<string, unknown>> = [];
    optIn.fetchPermissions((p) => seen.push(p), true);
    expect(seen.map((p) => p.target)).toEqual([false]);
    optIn.approve('target');
    expect(seen.map((p) => p.target)).toEqual([false, true]);
  });

  it('on("complete") runs a listener at each completion; off removes it', () => {
    const { optIn } = setup({ doesOptInApply: true });
    let calls = 0;
    const fn = () => calls++;
    optIn.on('complete', fn);
    optIn.approve('aa');
    expect(calls).toBe(1);
    optIn.off('complete', fn);
    optIn.approve('ecid');
    expect(calls).toBe(1);
  });

  it('whenComplete waits while pending or changed, and resolves at completion', async () => {
    const { optIn } = setup({ doesOptInApply: true });
    let resolved = false;
    void optIn.whenComplete().then(() => (resolved = true));
    await tick();
    expect(resolved).toBe(false);
    optIn.approve('aa', true);
    await tick();
    expect(resolved).toBe(false);
    optIn.complete();
    await tick();
    expect(resolved).toBe(true);
  });
});

describe('adobe.optIn.deny through the facade', () => {
  it('deny(cats, true) waits for complete(); deny(cats) completes at once', async () => {
    const svc = createVisitorService(makeContext(), { optIn: { doesOptInApply: true, previousPermissions: { aa: true, target: true } } });
    expect(await svc.call('optIn.deny', ['aa', true])).toEqual({});
    expect(await svc.call('optIn.status', [])).toEqual({ value: 'changed' });
    expect(await svc.call('optIn.isApproved', ['aa'])).toEqual({ value: true });
    await svc.call('optIn.complete', []);
    expect(await svc.call('optIn.isApproved', ['aa'])).toEqual({ value: false });
    await svc.call('optIn.deny', ['target']);
    expect(await svc.call('optIn.status', [])).toEqual({ value: 'complete' });
    expect(await svc.call('optIn.isApproved', ['target'])).toEqual({ value: false });
  });
});
