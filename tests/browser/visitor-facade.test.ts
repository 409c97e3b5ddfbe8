/** The page-side `Visitor` global in real Chromium, answered by a stand-in for the worker. */
import { beforeAll, describe, expect, it } from 'vitest';
import { installVisitorFacade } from '../../src/main-bridge/visitor-facade.ts';

type Answer = { value?: unknown; callbacks?: unknown[][]; error?: string };
const seen: Array<{ method: string; args: unknown[] }> = [];
const answers: Record<string, Answer> = {
  getMarketingCloudVisitorID: { value: '123', callbacks: [['123']] },
  'optIn.fetchPermissions': { value: { aa: true }, callbacks: [[{ aa: true }]] },
  'optIn.approve': { error: '[OptIn] Invalid category(-ies). Please use the `OptIn.Categories` enum.' },
};

const w = window as unknown as { Visitor: any; adobe: any };

beforeAll(() => {
  installVisitorFacade(async (method, args) => {
    seen.push({ method, args });
    return answers[method] ?? {};
  });
});

describe('Visitor facade', () => {
  it('refuses direct construction and bad org ids with the library messages', () => {
    expect(() => new w.Visitor('ABC@AdobeOrg')).toThrow('Please use `Visitor.getInstance` to instantiate Visitor.');
    expect(() => w.Visitor.getInstance()).toThrow('Visitor requires Adobe Marketing Cloud Org ID.');
    expect(() => w.Visitor.getInstance(42)).toThrow('Org ID is not a string.');
    expect(w.Visitor.version).toBe('5.5.0');
    expect(w.Visitor.AuthState).toEqual({ UNKNOWN: 0, AUTHENTICATED: 1, LOGGED_OUT: 2 });
    expect(w.Visitor.OptOut).toEqual({ GLOBAL: 'global' });
  });

  it('returns one instance per org, with @AdobeOrg appended, and sends the config with functions called', () => {
    const a = w.Visitor.getInstance('ABC', { trackingServer: 'x', doesOptInApply: () => true });
    expect(w.Visitor.getInstance('ABC@AdobeOrg')).toBe(a);
    expect(a.marketingCloudOrgID).toBe('ABC@AdobeOrg');
    expect(seen[0]).toEqual({ method: 'getInstance', args: ['ABC@AdobeOrg', { trackingServer: 'x', doesOptInApply: true }] });
    expect(a.then).toBeUndefined();
  });

  it('an option function or a site callback that throws is said, and the call goes on', async () => {
    const said: string[] = [];
    const original = console.error;
    console.error = (m: string) => said.push(m);
    try {
      const v = w.Visitor.getInstance('THROWS', { doesOptInApply: () => { throw new Error('option broke'); }, trackingServer: 't' });
      expect(seen.at(-1)).toEqual({ method: 'getInstance', args: ['THROWS@AdobeOrg', { trackingServer: 't' }] });
      const value = await v.getMarketingCloudVisitorID(() => { throw new Error('site callback broke'); }, true);
      expect(value).toBe('123');
      expect(said).toEqual([
        'Offtag: Visitor.getInstance option "doesOptInApply" threw; it was left out: Error: option broke',
        'Offtag: the callback given to Visitor.getMarketingCloudVisitorID() threw: Error: site callback broke',
      ]);
    } finally {
      console.error = original;
    }
  });

  it('forwards methods and calls the site callback with the answered arguments', async () => {
    const v = w.Visitor.getInstance('ABC');
    const got: unknown[] = [];
    const value = await v.getMarketingCloudVisitorID((id: string) => got.push(id), true);
    expect(value).toBe('123');
    expect(got).toEqual(['123']);
    expect(seen.at(-1)).toEqual({ method: 'getMarketingCloudVisitorID', args: [null, true] });
    await v.setCustomerIDs({ crm: { id: 'a', authState: w.Visitor.AuthState.AUTHENTICATED } }, 'sha256');
    expect(seen.at(-1)).toEqual({ method: 'setCustomerIDs', args: [{ crm: { id: 'a', authState: 1 } }, 'sha256'] });
  });

  it('exposes adobe.optIn and its categories, rejecting with the worker error', async () => {
    expect(w.adobe.OptInCategories.ANALYTICS).toBe('aa');
    const perms: unknown[] = [];
    await w.adobe.optIn.fetchPermissions((p: unknown) => perms.push(p));
    expect(perms).toEqual([{ aa: true }]);
    await expect(w.adobe.optIn.approve(['bogus'])).rejects.toThrow('[OptIn] Invalid category(-ies).');
  });
});
