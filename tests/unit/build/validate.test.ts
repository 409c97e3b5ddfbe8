import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { adobeServices, constant, dataLayer, defineContainer, fn } from '../../../src/container/index.ts';
import { validateContainer } from '../../../src/container/validate.ts';
import { storefront } from '../../../containers/storefront/container.ts';

/** `offtag build` refuses a broken container with one line per problem: the file, the item, what is wrong (docs/containers.md). */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const FILE = 'containers/x/container.ts';
const elements = { section: dataLayer('page.section'), title: dataLayer('page.title') };
const check = (c: Parameters<typeof validateContainer>[0]) => validateContainer(c, FILE);

describe('build-time validation', () => {
  it('the storefront and a well-formed container pass', () => {
    expect(validateContainer(storefront, 'containers/storefront/container.ts')).toEqual([]);
    const good = defineContainer({
      name: 'good',
      settings: { currency: 'EUR', site: { section: 'news' } },
      dataElements: { ...elements, both: fn((ctx) => `${String(ctx.get('section'))}${String(ctx.get('title'))}`, { reads: [] }) },
      services: adobeServices(),
      rules: (k) => [{ name: 'Page View', events: [{ type: 'window-loaded' }], conditions: [k.valueIs('section', 'x')], actions: [k.pageView(k.variables({ pageName: '%both%' }))] }],
    });
    expect(check(good)).toEqual([]);
  });

  it('a %token% that names no data element', () => {
    const c = defineContainer({
      name: 'token',
      dataElements: elements,
      services: adobeServices(),
      rules: (k) => [{ name: 'Page View', events: [{ type: 'window-loaded' }], actions: [k.pageView({ pageName: '%section%', channel: '%secton%' } as Record<string, string>)] }],
    });
    expect(check(c)).toEqual([`${FILE}: rule "Page View", action "Send page view beacon": %secton% names no data element`]);
  });

  it('a rule condition or a function data element that reads a missing data element', () => {
    const c = defineContainer({
      name: 'missing',
      dataElements: { ...elements, derived: fn((ctx) => ctx.get('sektion' as 'section'), { reads: [] }) },
      rules: (k) => [{ name: 'Gate', events: [{ type: 'dom-ready' }], conditions: [k.valueIs('nope' as 'section', 1)], actions: [] }],
    });
    expect(check(c)).toEqual([
      `${FILE}: rule "Gate", condition "nope is 1": %nope% names no data element`,
      `${FILE}: data element "derived": reads "sektion", which is no data element`,
    ]);
  });

  it("an imported Launch container's custom code may getVar a name no data element has (turbine answers setVar's value): no problem there", async () => {
    const launch = await import('../../../src/launch/index.ts');
    const c = launch.imported(
      defineContainer({
        name: 'imported',
        dataElements: launch.dataElements({ joined: launch.customCode((w) => () => `${String(w._satellite.getVar('set by the page'))}`) }),
        rules: [],
      }),
      { buildInfo: {}, property: {}, company: {} },
    );
    expect(check(c)).toEqual([]);
  });

  it('a circular reference between data elements', () => {
    const c = defineContainer({
      name: 'cycle',
      dataElements: {
        a: fn((ctx) => ctx.get('b' as never), { reads: [] }),
        b: fn((ctx) => ctx.get('a' as never), { reads: [] }),
        c: constant(1),
      },
      rules: [],
    });
    expect(check(c)).toEqual([
      `${FILE}: data element "a": circular reference: a -> b -> a`,
      `${FILE}: data element "b": circular reference: b -> a -> b`,
    ]);
  });

  it('a setting of the wrong type, one that fails its check, and one the build owns', () => {
    const c = defineContainer({
      name: 'settings',
      settings: { reportSuites: 'news' as never, currency: 7 as never, proxy: 'ftp://x', environment: 'production' as never },
      settingChecks: { proxy: (v) => (String(v).startsWith('https://') ? undefined : 'an https URL') },
      dataElements: elements,
      rules: [],
    });
    expect(check(c)).toEqual([
      `${FILE}: setting "environment": is chosen by the build (--env), not the container`,
      `${FILE}: setting "reportSuites": must be an object; got string`,
      `${FILE}: setting "currency": must be a string; got number`,
      `${FILE}: setting "proxy": must be an https URL; got "ftp://x"`,
    ]);
  });

  it('two rules with one name', () => {
    const c = defineContainer({
      name: 'dupes',
      dataElements: elements,
      rules: [
        { name: 'Page View', events: [{ type: 'dom-ready' }], actions: [] },
        { name: 'Page View', events: [{ type: 'window-loaded' }], actions: [] },
      ],
    });
    expect(check(c)).toEqual([`${FILE}: rule "Page View": another rule has this name (rule names must be unique)`]);
  });

  it('offtag build fails with the one line, exit code 1, and writes nothing', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'offtag-build-')), 'dist');
    const fixture = 'tests/unit/build/fixtures/broken-token.ts';
    const run = promisify(execFile)(process.execPath, [`${root}tools/build.mjs`, '--container', fixture, '--out', out], { cwd: root });
    const err = await run.then(() => undefined, (e: { code: number; stderr: string }) => e);
    expect(err?.code).toBe(1);
    expect(err?.stderr).toBe(`${fixture}:11:86: rule "Page View", action "Send page view beacon": %secton% names no data element\n`);
    expect(existsSync(out)).toBe(false);
  }, 60_000);
});
