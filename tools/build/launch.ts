/**
 * What offtag.js needs of a container imported from a Launch library to answer as turbine's
 * `_satellite` does (src/page-side/satellite.ts): the library's build info, property and company,
 * every data element's name, and for each data element read on the page its finishing. Written by
 * `offtag build` into the page data (`launch`, tools/build/page-reads.ts), with the define
 * `__OFFTAG_LAUNCH__` at 1; a container written with `defineContainer` has none, and that code is
 * not in its offtag.js.
 */
import { finishOf, type ImportedFacts } from '../../src/launch/index.ts';
import type { LaunchFacts } from '../../src/page-side/satellite.ts';
import type { Container, DataElement } from '../../src/worker-engine/core/types.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any container, whatever its names, services and settings
export function launchFacts(container: Container<any, any, any>): LaunchFacts | undefined {
  const imported = (container as { launch?: ImportedFacts }).launch;
  if (!imported) return undefined;
  const elements = container.dataElements as Record<string, DataElement<string>>;
  const reads: LaunchFacts['reads'] = {};
  for (const [name, de] of Object.entries(elements)) {
    if (!de.page) continue;
    const f = finishOf(de) ?? {};
    reads[name] = [f.defaultValue ?? null, de.cleanText ? 1 : 0, de.forceLowerCase ? 1 : 0, f.storageDuration ?? 0];
  }
  return { ...imported, names: Object.keys(elements), reads };
}
