import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultsFor } from '../../../src/worker-engine/core/settings.ts';
import { storefront } from '../../../containers/storefront/container.ts';

/** docs/configuration.md documents the storefront's settings: the engine's, with the container's defaults and its own. */
const DEFAULT_SETTINGS = defaultsFor(storefront);

/** docs/configuration.md and offtag.d.ts against the engine's `Settings` (the code is the truth). */
const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Every leaf setting of DEFAULT_SETTINGS (nested objects by dotted path; arrays are leaves) with its default. */
function leaves(o: Record<string, unknown>, prefix = ''): [string, unknown][] {
  return Object.entries(o).flatMap(([k, v]) =>
    v && typeof v === 'object' && !Array.isArray(v) ? leaves(v as Record<string, unknown>, `${prefix}${k}.`) : [[`${prefix}${k}`, v] as [string, unknown]],
  );
}

function docRows(): Map<string, { type: string; def: string; effect: string }> {
  const md = readFileSync(`${root}docs/configuration.md`, 'utf8');
  const rows = new Map<string, { type: string; def: string; effect: string }>();
  for (const line of md.split('\n')) {
    const m = /^\| `([\w.]+)` \| (.+?) \| `(.*?)` \| (.+) \|$/.exec(line);
    if (m) rows.set(m[1], { type: m[2], def: m[3], effect: m[4] });
  }
  return rows;
}

describe('docs/configuration.md', () => {
  it("every setting of Settings has a row here, with the code's default", () => {
    const rows = docRows();
    const settings = leaves(DEFAULT_SETTINGS as unknown as Record<string, unknown>);
    expect(settings.length).toBeGreaterThan(30);
    const missing = settings.filter(([path]) => !rows.has(path)).map(([path]) => path);
    expect(missing, 'settings missing from docs/configuration.md').toEqual([]);
    for (const [path, def] of settings) {
      expect(rows.get(path)!.def, `default of ${path}`).toBe(JSON.stringify(def));
      expect(rows.get(path)!.effect.length, `effect of ${path}`).toBeGreaterThan(10);
    }
    const unknown = [...rows.keys()].filter((k) => !settings.some(([path]) => path === k));
    expect(unknown, 'rows for settings the code does not have').toEqual([]);
  });

  it("offtag.d.ts type-checks and OfftagConfig has exactly Settings' keys", () => {
    // tests/types/config-check.ts asserts Same<Deep<OfftagConfig>, Deep<Settings>> at the type level.
    let out = '';
    try {
      execFileSync(`${root}node_modules/.bin/tsc`, ['-p', `${root}tests/types`], { encoding: 'utf8' });
    } catch (err) {
      out = String((err as { stdout?: string }).stdout ?? err);
    }
    expect(out).toBe('');
  }, 60_000);

  it('package.json ships offtag.d.ts as its types', () => {
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
    expect(pkg.types).toBe('./offtag.d.ts');
    expect(pkg.exports['.'].types).toBe('./offtag.d.ts');
    expect(pkg.files).toContain('offtag.d.ts');
  });
});
