/**
 * The storefront's container: its settings, data elements, rules and the session keys the
 * bridge reads, on the Adobe services (visitor ID and analytics), written with `defineContainer`
 * (src/container). `offtag build` (the default `npm run build`) makes a library of it.
 */
import { adobeServices, defineContainer } from '../../src/container/index.ts';
import { dataElements } from './data-elements.ts';
import { rules } from './rules.ts';
import { SESSION_KEYS } from './session-keys.ts';
import { STOREFRONT_SETTING_CHECKS, STOREFRONT_SETTINGS } from './settings.ts';

export type { StorefrontElement } from './data-elements.ts';

export const storefront = defineContainer({
  name: 'storefront',
  version: '1.0.0',
  // docs/spec-coverage.md §9: the container's build date (also in the beacons' tag container marker).
  buildDate: '2025-08-19T00:00:00Z',
  settings: STOREFRONT_SETTINGS,
  settingChecks: STOREFRONT_SETTING_CHECKS,
  sessionKeys: SESSION_KEYS,
  dataElements,
  services: adobeServices(),
  rules,
});

export default storefront;
