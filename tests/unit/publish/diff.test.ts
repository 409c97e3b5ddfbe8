/**
 * `offtag diff` in the container's terms (tools/publish/diff.ts), from descriptions made at publish
 * (tools/publish/describe.ts): the shop fixtures' two versions, and the cases each kind of change takes.
 */
import { describe, expect, it } from 'vitest';
import { adobeServices, constant, dataLayer, defineContainer } from '../../../src/container/index.ts';
import { describeContainer, describeValue, sourceFiles, sourceHash, sourceOfItems } from '../../../tools/publish/describe.ts';
import { diffDescriptions, diffLines, textChange } from '../../../tools/publish/diff.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import v1 from '../../fixtures/publish/shop-v1.ts';
import v2 from '../../fixtures/publish/shop-v2.ts';
import { fileURLToPath } from 'node:url';

const describeOf = (c: unknown) => JSON.parse(JSON.stringify(describeContainer(c as Parameters<typeof describeContainer>[0])));

describe('offtag diff', () => {
  it('names what changed between the shop’s two versions: settings, data elements, rules and their actions', () => {
    expect(diffLines(diffDescriptions(describeOf(v1), describeOf(v2)))).toEqual([
      'container: version: "1.0.0" → "2.0.0"',
      'setting "currency": "EUR" → "USD"',
      'data element "release": value: "v1" → "v2"',
      'data element "promo": added',
      'rule "Page View": action "Send page view beacon": def.pageView.eVar1: added ("%section%")',
      'rule "Newsletter": removed',
      'rule "Promo": added',
    ]);
    expect(diffDescriptions(describeOf(v2), describeOf(v2))).toEqual([]);
  });

  it('a description is plain JSON: it survives the record file as it is', () => {
    const d = describeContainer(v2 as unknown as Parameters<typeof describeContainer>[0]);
    expect(JSON.parse(JSON.stringify(d))).toEqual(d);
    expect(d.dataElements.promo).toEqual({ type: 'data-layer', path: 'promo.id' });
    expect(d.rules.map((r) => r.name)).toEqual(['Visitor service', 'Page View', 'Promo']);
  });

  function shop(o: { events?: string[]; code?: (ctx: unknown) => void; order?: string[]; condition?: unknown; cookie?: string }) {
    return defineContainer({
      name: 'shop',
      settings: { reportSuites: { production: 'p', staging: 's', development: 'd' }, nested: { a: 1, b: 2 } as never },
      dataElements: { page: dataLayer('page.name'), flag: constant(true) },
      services: adobeServices(),
      rules: (k) => {
        const rules = {
          A: { name: 'A', events: (o.events ?? ['a']).map((id) => ({ type: 'direct-call' as const, id })), conditions: [k.valueIs('flag', o.condition ?? true)], actions: [k.run('custom', o.code ?? ((ctx) => void ctx))] },
          B: { name: 'B', events: [{ type: 'dom-ready' as const }], actions: [k.pageView(k.variables({ pageName: '%page%' }))] },
        };
        return (o.order ?? ['A', 'B']).map((n) => rules[n as 'A' | 'B']);
      },
    });
  }

  it('code, events, conditions and the rules’ order, each as its own line', () => {
    const base = describeOf(shop({}));
    expect(diffLines(diffDescriptions(base, describeOf(shop({ code: (ctx) => console.log(ctx) }))))).toEqual(['rule "A": action "custom": fn: code changed']);
    expect(diffLines(diffDescriptions(base, describeOf(shop({ events: ['a', 'b'] }))))).toEqual([
      'rule "A": events: [{"type":"direct-call","id":"a"}] → [{"type":"direct-call","id":"a"},{"type":"direct-call","id":"b"}]',
    ]);
    expect(diffLines(diffDescriptions(base, describeOf(shop({ condition: false }))))).toEqual([
      'rule "A": condition "flag is false" added',
      'rule "A": condition "flag is true" removed',
    ]);
    expect(diffLines(diffDescriptions(base, describeOf(shop({ order: ['B', 'A'] }))))).toEqual(['rule "(order)": rules reordered: "B", "A"']);
  });

  it('describes values JSON cannot hold: functions as code, cycles and exotic values named', () => {
    const cyclic: Record<string, unknown> = { n: 1n, inf: Infinity, re: /a+/g, at: new Date(0), gone: undefined };
    cyclic.self = cyclic;
    expect(describeValue(cyclic)).toEqual({ n: '1n', inf: 'Infinity', re: { regexp: '/a+/g' }, at: '1970-01-01T00:00:00.000Z', self: '[circular]' });
    expect(describeValue(function f() {})).toEqual({ code: 'function f() {}' });
  });

  it('hashes the container’s own source: its file and what it imports by relative path, not Offtag’s src/', async () => {
    const src = fileURLToPath(new URL('../../../src/', import.meta.url));
    const storefront = fileURLToPath(new URL('../../../containers/storefront/container.ts', import.meta.url));
    const files = (await sourceFiles(storefront, src)).map((f) => f.split('/containers/')[1]);
    expect(files).toContain('storefront/container.ts');
    expect(files).toContain('storefront/rules.ts');
    expect(files.every((f) => f?.startsWith('storefront/'))).toBe(true);
    const v1file = fileURLToPath(new URL('../../fixtures/publish/shop-v1.ts', import.meta.url));
    expect(await sourceHash(v1file, src)).toMatch(/^[0-9a-f]{64}$/);
    expect(await sourceHash(v1file, src)).not.toBe(await sourceHash(v1file.replace('v1', 'v2'), src));
  });

  /** An imported container's shape (`offtag import` writes it): helpers that keep their arguments in closures. */
  const imported = (path: string, log: string) => `
import * as launch from "./launch";
const analytics: launch.AnalyticsOptions = {};
export const container = defineContainer({
  name: "imported",
  dataElements: launch.dataElements({
    "page type": launch.javascriptVariable("${path}", {"forceLowerCase":true}),
    "fixed": launch.constant("x", {}),
  }),
  rules: () => [
    launch.rule({
      name: "page bottom",
      events: [launch.pageBottom()],
      actions: [launch.customAction((_satellite) => (function (event) { _satellite.logger.log(${log}); }), {})],
    }),
  ],
});
export default container;
`;

  it('reads each data element’s and rule’s text from the container file, TypeScript stripped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'offtag-src-'));
    try {
      writeFileSync(join(dir, 'container.ts'), imported('digitalData.page.type', '"a"'));
      const items = await sourceOfItems(join(dir, 'container.ts'));
      expect(items.dataElements).toEqual({ 'page type': 'launch.javascriptVariable("digitalData.page.type", { "forceLowerCase": true })', fixed: 'launch.constant("x", {})' });
      expect(Object.keys(items.rules!)).toEqual(['page bottom']);
      expect(items.rules!['page bottom']).toContain('_satellite.logger.log("a")');
      // A file whose tables come from elsewhere (the storefront's) spells out nothing: its descriptions stand alone.
      expect(await sourceOfItems(fileURLToPath(new URL('../../../containers/storefront/container.ts', import.meta.url)))).toEqual({});
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an imported container’s changed closure shows as the part of its text that changed', () => {
    const element = { type: 'custom', reads: [], fn: { code: 'ctx=>read(ctx)' } };
    const rule = { name: 'page bottom', events: [{ type: 'dom-ready' }], actions: [{ name: 'Custom Code', fn: { code: 'ctx=>run(factory,ctx)' } }] };
    const d = (path: string, log: string) => ({
      name: 'imported', version: '', sessionKeys: [], settings: {},
      dataElements: { 'page type': { ...element, source: `launch.javascriptVariable("${path}", {})` } },
      rules: [{ ...rule, source: `launch.rule({ actions: [launch.customAction(() => log(${log}))] })` }],
    });
    expect(diffLines(diffDescriptions(d('digitalData.page.type', '"a"'), d('digitalData.page.kind', '"b"')))).toEqual([
      'data element "page type": source: …iable("digitalData.page.type", {}) → …iable("digitalData.page.kind", {})',
      'rule "page bottom": source: …customAction(() => log("a"))] }) → …customAction(() => log("b"))] })',
    ]);
    // When the description itself says what changed, the text is not repeated.
    const moved = d('digitalData.page.kind', '"a"');
    moved.dataElements['page type'] = { ...moved.dataElements['page type'], reads: ['page.kind'] as never };
    expect(diffLines(diffDescriptions(d('digitalData.page.type', '"a"'), moved))).toEqual(['data element "page type": reads: [] → ["page.kind"]']);
    expect(textChange('abc', 'abc')).toBe('abc → abc');
  });
});
