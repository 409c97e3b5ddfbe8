import { describe, expect, it } from 'vitest';
import {
  ALL_CATEGORIES,
  createOptIn,
  optInCookieLifetime,
  parsePermissions,
  type OptInConfig,
} from '../../../src/worker-engine/visitor/opt-in.ts';
import { MESSAGES } from '../../../src/worker-engine/visitor/constants.ts';

function setup(config: OptInConfig, cookie?: string) {
  const logs: string[] = [];
  const writes: Array<{ value: string; lifetime: number; domain: string }> = [];
  let jar = cookie;
  const optIn = createOptIn(config, {
    cookie: () => jar,
    writeCookie: (value, lifetime, domain) => {
      jar = value;
      writes.push({ value, lifetime, domain });
    },
    log: (m) => logs.push(m),
    cookieDomain: 'example.com',
    hostname: 'www.example.com',
  });
  return { optIn, logs, writes };
}

describe('opt-in', () => {
  it('has the eight categories', () => {
    expect(ALL_CATEGORIES).toEqual(['aam', 'adcloud', 'aa', 'campaign', 'ecid', 'livefyre', 'target', 'mediaaa']);
  });

  it('approves everything when opt-in does not apply', () => {
    const { optIn } = setup({});
    expect(optIn.status).toBe('complete');
    expect(optIn.isApproved('aa')).toBe(true);
    expect(optIn.isApproved([])).toBe(true);
  });

  it('moves pending → changed → complete, and complete() acts only on changed', () => {
    const { optIn } = setup({ doesOptInApply: true });
    expect(optIn.status).toBe('pending');
    optIn.complete();
    expect(optIn.status).toBe('pending');
    optIn.approve(['aa', 'ecid'], true);
    expect(optIn.status).toBe('changed');
    expect(optIn.isApproved('aa')).toBe(false);
    optIn.complete();
    expect(optIn.status).toBe('complete');
    expect(optIn.isApproved(['aa', 'ecid'])).toBe(true);
    expect(optIn.isApproved([])).toBe(false);
    optIn.deny('aa');
    expect(optIn.isApproved('aa')).toBe(false);
  });

  it('throws on invalid categories', () => {
    const { optIn } = setup({ doesOptInApply: true });
    expect(() => optIn.approve(['aa', 'bogus'])).toThrow(MESSAGES.invalidCategories);
    expect(() => optIn.isApproved('nope')).toThrow('[OptIn] Invalid category(-ies). Please use the `OptIn.Categories` enum.');
  });

  it('validates previousPermissions and preOptInApprovals, logging the exact messages', () => {
    expect(parsePermissions({})).toBeUndefined();
    expect(parsePermissions('{"aa":true}')).toEqual({ aa: true });
    expect(parsePermissions(() => ({ ecid: true, videoaa: true }))).toEqual({ ecid: true, videoaa: true });
    expect(parsePermissions('{oops')).toBeUndefined();
    expect(parsePermissions({ nope: true })).toBeUndefined();
    const { optIn, logs } = setup({ doesOptInApply: true, previousPermissions: {}, preOptInApprovals: 'x' });
    expect(logs).toEqual(['Invalid `preOptInApprovals`!', 'Invalid `previousPermissions`!']);
    expect(optIn.status).toBe('pending');
  });

  it('starts complete from previousPermissions; later sources win', () => {
    const { optIn } = setup({
      doesOptInApply: true,
      isOptInStorageEnabled: true,
      preOptInApprovals: { aa: true, target: true },
      previousPermissions: { aa: false, ecid: true },
    }, encodeURIComponent('{"ecid":false}'));
    expect(optIn.status).toBe('complete');
    expect(optIn.isApproved('target')).toBe(true);
    expect(optIn.isApproved('aa')).toBe(false);
    expect(optIn.isApproved('ecid')).toBe(false);
    expect(optIn.isPreApproved('target')).toBe(true);
  });

  it('reads the stored cookie only with storage on', () => {
    const cookie = encodeURIComponent('{"aa":true,"ecid":true}');
    expect(setup({ doesOptInApply: true }, cookie).optIn.status).toBe('pending');
    const on = setup({ doesOptInApply: true, isOptInStorageEnabled: true }, cookie).optIn;
    expect(on.status).toBe('complete');
    expect(on.isApproved(['aa', 'ecid'])).toBe(true);
  });

  it('writes adobeujs-optin merged with the old value, 33696000 s by default through the extension', () => {
    const { optIn, writes } = setup(
      { doesOptInApply: true, isOptInStorageEnabled: true },
      encodeURIComponent('{"videoaa":true}'),
    );
    optIn.approve('aa');
    expect(writes).toHaveLength(1);
    const w = writes[0]!;
    expect(w.lifetime).toBe(33696000);
    expect(w.domain).toBe('example.com');
    const stored = JSON.parse(decodeURIComponent(w.value));
    expect(stored).toMatchObject({ videoaa: true, aa: true, ecid: false });
  });

  it('has the library fallback lifetime outside the extension and honours a given expiry', () => {
    expect(optInCookieLifetime({ isOptInStorageEnabled: true }, true)).toBe(33696000);
    expect(optInCookieLifetime({ isOptInStorageEnabled: true }, false)).toBe(34190000);
    expect(optInCookieLifetime({}, true)).toBe(34190000);
    expect(optInCookieLifetime({ optInStorageExpiry: 60 }, true)).toBe(60);
  });

  it('writes host-only when the cookie domain is the hostname, and nothing without storage', () => {
    const a = setup({ doesOptInApply: true, isOptInStorageEnabled: true, optInCookieDomain: 'www.example.com' });
    a.optIn.approveAll();
    expect(a.writes[0]?.domain).toBe('');
    const b = setup({ doesOptInApply: true });
    b.optIn.approveAll();
    expect(b.writes).toEqual([]);
  });

  it('fetchPermissions answers now when complete, otherwise on completion', async () => {
    const { optIn } = setup({ doesOptInApply: true });
    const seen: unknown[] = [];
    optIn.fetchPermissions((p) => seen.push(p));
    expect(seen).toEqual([]);
    const done = optIn.whenComplete();
    optIn.approve('ecid');
    await done;
    expect(seen).toHaveLength(1);
    expect((seen[0] as Record<string, boolean>).ecid).toBe(true);
    optIn.fetchPermissions((p) => seen.push(p));
    expect(seen).toHaveLength(2);
  });

  it('fetchPermissions answers at once when pre-approvals exist', () => {
    const { optIn } = setup({ doesOptInApply: true, preOptInApprovals: { aa: true } });
    let called = false;
    optIn.fetchPermissions(() => (called = true));
    expect(called).toBe(true);
  });
});
