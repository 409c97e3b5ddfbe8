/**
 * Shared by the bench's main-thread variants: the synthetic container growth (container
 * scaling) and the page-side knobs the bench pages set before a variant loads.
 */
import type { Container, DataElement, Rule } from '../../src/worker-engine/core/types.ts';
import type { Services } from '../../src/worker-engine/services.ts';
import { DIRECT_CALLS } from '../../containers/storefront/rules.ts';

/** What a bench page may set before the variant's script: `window.benchSynthetic = { dataElements, rules }`. */
export interface SyntheticSize {
  dataElements: number;
  rules: number;
}

declare global {
  interface Window {
    benchSynthetic?: SyntheticSize;
  }
}

/** Real data layer paths the synthetic data elements read (a present path costs more than a missing one). */
const PATHS = [
  'page.pageInfo.pageType',
  'page.pageInfo.pageUID',
  'page.pageInfo.language',
  'page.category.lineOfBusiness',
  'page.category.leafCategoryName',
  'product[0].productInfo.sku',
  'user.profile.attributes.loginState',
  'cart.freightForwarder',
];

export const syntheticName = (i: number) => `synthetic ${i}`;

/**
 * The storefront plus `dataElements` synthetic data-layer elements and `rules` synthetic
 * direct-call rules. Rule j listens to one of the four direct calls (j mod 4) and its condition
 * reads its share of the synthetic elements, so every event reads every synthetic element once
 * and walks a quarter of the synthetic rules; the conditions are false, so no extra beacon is
 * sent and the beacon work stays the storefront's.
 */
export function growContainer<N extends string, X>(base: Container<N, Services, X>, size: SyntheticSize | undefined): Container<string, Services, X> {
  if (!size || (!size.dataElements && !size.rules)) return base as unknown as Container<string, Services, X>;
  const dataElements: Record<string, DataElement<string, X>> = { ...(base.dataElements as Record<string, DataElement<string, X>>) };
  for (let i = 0; i < size.dataElements; i++) {
    dataElements[syntheticName(i)] = {
      type: 'data-layer',
      path: PATHS[i % PATHS.length],
      default: '',
      cleanText: i % 2 === 0,
      forceLowerCase: i % 3 === 0,
    };
  }
  const ids = Object.values(DIRECT_CALLS);
  const rules: Rule<string, Services, X>[] = [...(base.rules as unknown as Rule<string, Services, X>[])];
  const perEvent = Math.max(1, Math.ceil(size.rules / ids.length));
  const perRule = Math.ceil(size.dataElements / perEvent);
  for (let j = 0; j < size.rules; j++) {
    const slot = Math.floor(j / ids.length);
    const names: string[] = [];
    for (let k = slot * perRule; k < Math.min(size.dataElements, (slot + 1) * perRule); k++) names.push(syntheticName(k));
    rules.push({
      name: `synthetic rule ${j}`,
      events: [{ type: 'direct-call', id: ids[j % ids.length] }],
      conditions: [{ name: 'never', fn: (ctx) => names.map((n) => ctx.get(n)).join('|') === 'never' }],
      actions: [{ name: 'unreachable', fn: () => undefined }],
    });
  }
  return { ...base, name: `${base.name}+${size.dataElements}de+${size.rules}rules`, dataElements, rules } as Container<string, Services>;
}

/** SHA-256 with WebCrypto, lowercase hex (the engine's `env.sha256`, as the worker shell gives it). */
export async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
