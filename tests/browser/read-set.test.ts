import { afterEach, describe, expect, it } from 'vitest';
import { narrow } from '../../src/main-bridge/read-set.ts';
import { applyEffects, type ApplyHooks } from '../../src/main-bridge/apply-effects.ts';
import { readPath, readSetOf } from '../../src/worker-engine/core/data-layer.ts';
import { storefront } from '../../src/storefront/container.ts';
import { startTestWorker } from './start-test-worker.ts';

afterEach(() => {
  for (const c of document.cookie.split('; ')) {
    const name = c.split('=')[0];
    if (name) document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:01 GMT`;
  }
  sessionStorage.clear();
});

/** The test worker with the bridge's batch handling (applied count, effects on the page, the narrowed data layer). */
function connect() {
  const hooks: ApplyHooks = { base: '/', vars: {}, frameMessage: () => {}, reply: () => {} };
  let applied = 0;
  const posted: unknown[] = [];
  const w = startTestWorker({
    config: { brand: 'acme' },
    onBatch(batch) {
      applyEffects(batch.effects, hooks);
      applied = batch.n || applied;
    },
    applied: () => applied,
    prepare(snapshot) {
      snapshot.dataLayer = narrow(snapshot.dataLayer, hooks.tree);
      posted.push(snapshot.dataLayer);
    },
  });
  return { ...w, hooks, posted };
}

const bigLayer = () => ({
  page: { pageInfo: { pageType: 'Cart', pageUID: 'c-1' }, element: [{ click: { id: 'e1' } }] },
  product: Array.from({ length: 500 }, (_, i) => ({ productInfo: { sku: `sku-${i}`, name: 'x'.repeat(100) } })),
  listing: { huge: 'y'.repeat(10_000) },
});

describe('the data layer read set', () => {
  it('the worker sends its container\'s read set once; the bridge then posts only the declared paths', async () => {
    (window as unknown as Record<string, unknown>).digitalData = bigLayer();
    const c = connect();
    await expect.poll(() => c.hooks.tree, { timeout: 5000 }).toEqual({ page: { pageInfo: { pageType: 0 } } });
    expect(c.batches.filter((b) => b.effects.some((e) => e.type === 'read-set'))).toHaveLength(1);
    c.send({ type: 'direct-call', id: 'Page View' });
    expect(c.posted[0]).toEqual({ page: { pageInfo: { pageType: 'Cart' } } });
    await expect.poll(() => c.batches.some((b) => b.effects.some((e) => e.type === 'log' && e.message === 'page view Cart')), { timeout: 5000 }).toBe(true);
    c.worker.terminate();
  });

  it('reads the same values from the narrowed copy as from the whole layer (storefront paths)', () => {
    const tree = readSetOf(storefront.dataElements as never)!;
    expect(tree).not.toBeNull();
    const dl = { ...bigLayer(), user: { profile: { attributes: { loginState: 'Full Logged In' }, profileInfo: { profileID: 'p' } } }, modal: { page: { pageInfo: { pageType: 'm', pageUID: 'u' } } } };
    const copy = structuredClone(narrow(dl, tree));
    for (const de of Object.values(storefront.dataElements) as Array<{ type: string; path?: string; reads?: string[] }>) {
      for (const path of de.type === 'data-layer' ? [de.path!] : (de.reads ?? [])) expect(readPath(copy, path), path).toEqual(readPath(dl, path));
    }
    expect(JSON.stringify(copy).length).toBeLessThan(2000);
    expect(JSON.stringify(dl).length).toBeGreaterThan(60_000);
  });

  it('keeps the whole layer when a custom data element declares no reads, and when a getter throws', () => {
    const tree = readSetOf({ a: { type: 'data-layer', path: 'page.x' }, b: { type: 'custom' } });
    expect(tree).toBeNull();
    const dl = bigLayer();
    expect(narrow(dl, tree)).toBe(dl);
    const throwing = { page: {} };
    Object.defineProperty(throwing.page, 'x', { enumerable: true, get: () => { throw new Error('nope'); } });
    expect(narrow(throwing, { page: { x: 0 } })).toBe(throwing);
  });
});

describe('effect batches', () => {
  it('no batch without a page effect, no write of an unchanged value, consecutive numbers for the page', async () => {
    (window as unknown as Record<string, unknown>).digitalData = { page: { pageInfo: { pageType: 'Cart' } } };
    const c = connect();
    const numbered = () => c.batches.filter((b) => b.n);
    await expect.poll(() => c.hooks.tree, { timeout: 5000 }).toBeTruthy();
    c.send({ type: 'direct-call', id: 'Page View' });
    await expect.poll(() => numbered().length, { timeout: 5000 }).toBe(1);
    expect(numbered()[0].effects).toContainEqual({ type: 'cookie-string', cookie: 'pt=Cart; path=/' });
    expect(document.cookie).toContain('pt=Cart');
    expect(sessionStorage.getItem('acmeUserData')).toBe('{"seen":"Cart"}');
    // The same writes again, with the page already holding them: nothing to post.
    c.send({ type: 'direct-call', id: 'Again' });
    // A changed value travels, numbered 2 for the page whatever the engine counted.
    (window as unknown as { digitalData: { page: { pageInfo: { pageType: string } } } }).digitalData.page.pageInfo.pageType = 'Home';
    c.send({ type: 'direct-call', id: 'Again' });
    await expect.poll(() => numbered().length, { timeout: 5000 }).toBe(2);
    expect(numbered()[1]).toEqual({
      n: 2,
      effects: [
        { type: 'cookie-string', cookie: 'pt=Home; path=/' },
        { type: 'storage', key: 'acmeUserData', value: '{"seen":"Home"}' },
        { type: 'vars', values: { pageType: 'Home' } },
      ],
    });
    expect(document.cookie).toContain('pt=Home');
    // The engine read its own writes through the renumbering: Page View sees Home, logs it.
    c.send({ type: 'direct-call', id: 'Page View' });
    await expect.poll(() => numbered().length, { timeout: 5000 }).toBe(3);
    expect(numbered()[2].effects).toEqual([{ type: 'log', level: 'log', message: 'page view Home' }]);
    c.worker.terminate();
  });
});
