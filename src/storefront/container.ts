/** The storefront's container: its data elements, rules and the session keys the bridge reads. */
import type { Container, Services } from '../worker-engine/core/types.ts';
import { dataElements, type StorefrontElement } from './data-elements.ts';
import { rules } from './rules.ts';
import { SESSION_KEYS } from './session-keys.ts';

export type { StorefrontElement } from './data-elements.ts';

export const storefront: Container<StorefrontElement, Services> = {
  name: 'storefront',
  sessionKeys: SESSION_KEYS,
  dataElements,
  rules,
};
