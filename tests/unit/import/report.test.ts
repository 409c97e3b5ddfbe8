/**
 * `offtag import`'s reader and report: the container is read without running the library, checked
 * against turbine's schema, and every data element and rule of a library appears in the report
 * exactly once, ending with the one-line summary.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import vm from 'node:vm';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseImportArgs, runImport } from '../../../tools/import/command.ts';
import { place } from '../../../tools/import/custom-code.ts';
import { LibraryReadError, readLibrary } from '../../../tools/import/read.ts';
// @ts-expect-error -- the fixtures' writers are plain ES modules without types
import { code, libraryText } from '../../fixtures/launch/library-text.mjs';
// @ts-expect-error -- idem
import { libraries } from '../../fixtures/launch/libraries.mjs';
import { writeLaunchFixtures } from '../../fixtures/launch/written.ts';

const FIX = 'tests/fixtures/launch';
const TMP = 'test-results/import-unit';
const names = (file: string) => {
  const c = readLibrary(readFileSync(`${FIX}/${file}`, 'utf8'), file);
  return { dataElements: Object.keys(c.dataElements ?? {}), rules: (c.rules ?? []).map((r) => r.name) };
};
const once = (lines: string[], kind: string, name: string) => lines.filter((l) => l.startsWith(`${kind} ${JSON.stringify(name)}:`)).length;

describe('the report', () => {
  it('lists every data element and rule of each fixture exactly once', () => {
    for (const file of ['storefront.js', 'every-module.js', 'report-paths.js']) {
      const { lines } = runImport({ library: `${FIX}/${file}`, out: `${TMP}/once-${file}`, assets: `${FIX}/assets` });
      const { dataElements, rules } = names(file);
      for (const n of dataElements) expect(once(lines, 'data element', n), `${file}: ${n}`).toBe(1);
      for (const n of rules) expect(once(lines, 'rule', n), `${file}: ${n}`).toBe(1);
      expect(lines.filter((l) => /^(data element|rule) "/.test(l))).toHaveLength(dataElements.length + rules.length);
    }
  });

  it("says where Page Bottom rules run: at the page's _satellite.pageBottom() call, else just before DOM Ready (no note: the page keeps its call)", () => {
    const { lines } = runImport({ library: `${FIX}/every-module.js`, out: `${TMP}/page-bottom` });
    expect(lines.filter((l) => l.startsWith('note: '))).toEqual([]);
    expect(lines.find((l) => l.startsWith('rule "page bottom, order 60":'))).toContain('Page Bottom at _satellite.pageBottom(), else just before the DOM Ready rules');
  });

  it('walks every path: worker, on the page, not imported with the reason, external files, other extensions, the Web SDK, third-party script; one summary line of the labels', () => {
    const { lines } = runImport({ library: `${FIX}/report-paths.js`, out: `${TMP}/paths`, assets: `${FIX}/assets` });
    const line = (kind: string, name: string) => lines.find((l) => l.startsWith(`${kind} ${JSON.stringify(name)}:`))!;
    expect(line('data element', 'page type')).toContain(': worker — JavaScript variable digitalData.page.pageInfo.pageType');
    // Read on the page with each event (offtag.js, built with them): docs/import.md, "What stays on the page".
    expect(line('data element', 'heading text')).toBe('data element "heading text": on the page — custom code on the page because it uses `document.querySelector`, which only the page has: offtag.js runs it with each event');
    // A value only the page can hold (a function, a promise): read on the page, where getVar hands it to page code as turbine does.
    expect(line('data element', 'price formatter')).toBe('data element "price formatter": on the page — custom code on the page because its value is a function, which only the page can hold for getVar: offtag.js runs it with each event');
    expect(line('data element', 'cancel action')).toBe('data element "cancel action": on the page — custom code on the page because its value is a promise, which only the page can hold for getVar: offtag.js runs it with each event');
    expect(line('data element', 'item formatter')).toBe('data element "item formatter": worker — custom code in the worker');
    expect(line('data element', 'item label')).toBe('data element "item label": worker — custom code in the worker');
    expect(line('data element', 'other global')).toBe('data element "other global": on the page — JavaScript variable utag_data.page_name (outside the data layer, digitalData) read on the page with each event (offtag.js, built with it)');
    expect(line('data element', 'hero banner id')).toBe('data element "hero banner id": on the page — DOM Attribute "id" of ".hero" read on the page with each event (offtag.js, built with it)');
    expect(line('data element', 'visitor id in local storage')).toBe('data element "visitor id in local storage": on the page — Local Storage item "vid" read on the page with each event (offtag.js, built with it)');
    expect(line('data element', 'landing page')).toBe('data element "landing page": worker — counted in the worker: the session\'s facts in sessionStorage (offtag_vts), the visitor\'s counts in the offtag_vt cookie');
    expect(line('data element', 'document title')).toBe('data element "document title": on the page — Page Info "title" (document.title) read on the page with each event (offtag.js, built with it)');
    expect(line('data element', 'dice roll, empty range')).toContain('not imported — Random Number from 6 to 1 is not a range of integers');
    // A data element reading one that is not imported is not imported either (the build would refuse the reference).
    expect(line('data element', 'dice label')).toBe('data element "dice label": not imported — it reads the data element "dice roll, empty range", which is not imported');
    // An external file in --assets: its code, placed as any block (here, in the worker); one that is not: loaded from the library's host when the action runs.
    expect(line('rule', 'external custom code present')).toBe('rule "external custom code present": in the worker — 1 event(s), 0 condition(s) and 1 action(s) in the worker; action 1: the code of RC0000000000000000000000000000000001-source.min.js (from tests/fixtures/launch/assets), custom code in the worker');
    expect(line('rule', 'external custom code missing')).toBe(
      "rule \"external custom code missing\": partly on the page — 1 event(s), 0 condition(s) and 1 action(s) in the worker, 1 action(s) on the page; action 1: RC0000000000000000000000000000000002-source.min.js is not in tests/fixtures/launch/assets, custom code in RC0000000000000000000000000000000002-source.min.js, loaded from the library's host when the action runs, as turbine loads it; action 2: custom code in the worker",
    );
    expect(line('rule', 'page custom code action')).toBe('rule "page custom code action": partly on the page — 1 event(s), 0 condition(s) and 0 action(s) in the worker, 1 action(s) on the page; action 1: custom code on the page because it uses `document.body.classList`, which only the page has');
    expect(line('rule', 'page custom code condition')).toBe('rule "page custom code condition": partly on the page — 1 event(s), 0 condition(s) and 1 action(s) in the worker, 1 condition(s) read on the page; action 1: custom code in the worker');
    // `this.id` is the event's element in the worker (virtual-page.ts elementOf); a data element read beyond that still stays out.
    expect(line('data element', 'element id')).toBe('data element "element id": worker — custom code in the worker');
    // A condition's `this` is the element the Click matched, given to the page read.
    expect(line('rule', 'element custom code condition')).toContain('in the worker — 1 event(s), 1 condition(s) and 1 action(s) in the worker');
    // Other extensions: their modules run on the page by offtag.js's module host.
    expect(line('rule', 'Target')).toBe("rule \"Target\": partly on the page — 1 event(s), 0 condition(s) and 0 action(s) in the worker, 1 action(s) on the page; action 1: adobe-target-v2/src/lib/loadTarget.js run on the page by offtag.js's module host");
    expect(line('data element', 'vendor segment')).toBe("data element \"vendor segment\": on the page — acme-vendor/src/lib/dataElements/segment.js (offtag.js's module host runs the extension's module) read on the page with each event (offtag.js, built with it)");
    // The Web SDK stays out: a data element that is more than its settings, a rule of its action alone, and its action in a rule that keeps its other one; its XDM object is in the worker.
    expect(line('data element', 'merge id')).toBe('data element "merge id": not imported — data element adobe-alloy/dist/lib/dataElements/eventMergeId/index.js: the Adobe Experience Platform Web SDK (alloy) is not imported in this version');
    expect(line('data element', 'xdm page')).toBe('data element "xdm page": worker — Web SDK XDM object: its data with the tokens replaced, in the worker');
    expect(readFileSync(`${TMP}/paths/container.ts`, 'utf8')).toContain('"xdm page": launch.xdmObject({"web":{"webPageDetails":{"name":"%page type%","viewName":"page %page type%"}}}, {})');
    expect(line('rule', 'web sdk event')).toContain(': not imported — no action could be imported (action 1 not imported: action adobe-alloy/dist/lib/actions/sendEvent/index.js: the Adobe Experience Platform Web SDK (alloy) is not imported in this version)');
    expect(line('rule', 'worker rule with a web sdk action')).toBe('rule "worker rule with a web sdk action": in the worker — 1 event(s), 0 condition(s) and 1 action(s) in the worker; action 1: custom code in the worker; action 2 not imported: action adobe-alloy/dist/lib/actions/sendEvent/index.js: the Adobe Experience Platform Web SDK (alloy) is not imported in this version');
    expect(line('rule', 'vendor script')).toContain('third-party script https://cdn.vendor.example/tag.js');
    expect(line('rule', 'custom event')).toBe('rule "custom event": in the worker — 1 event(s), 0 condition(s) and 1 action(s) in the worker; custom event "cart:add" observed on the page (offtag-triggers.js), on window as Launch listens; action 1: custom code in the worker');
    expect(line('rule', 'hero banner changed')).toContain(': partly on the page — ');
    expect(line('rule', 'hero banner changed')).toContain('reads "hero banner id", read on the page with each event');
    expect(line('rule', 'orientation change')).toContain('not imported — event core/src/lib/events/orientationChange.js is not one the engine observes yet');
    expect(line('rule', 'click with element properties')).toContain('not imported — element property "innerText" = "%page type%": a %data element% token in an element property filter is not imported');
    expect(line('rule', 'click delaying the link')).toContain(': in the worker — 1 event(s), 0 condition(s) and 1 action(s) in the worker; Click\'s "delay link navigation" (anchorDelay 100 ms) is not offered');
    expect(line('rule', 'in view for a second')).toContain(': in the worker — 1 event(s), 0 condition(s) and 1 action(s) in the worker; element entering the viewport observed on the page');
    expect(readFileSync(`${TMP}/paths/container.ts`, 'utf8')).toContain('events: [launch.entersViewport(".promo", "firstEntry", {"delay":1000})]');
    expect(lines).toContain("extension \"Acme Vendor Pixel\" (acme-vendor): on the page — offtag.js's module host runs its 2 module(s) as turbine does");
    expect(lines).toContain("extension \"Adobe Target v2\" (adobe-target-v2): on the page — offtag.js's module host runs its 1 module(s) as turbine does");
    expect(lines).toContain('extension "Social Pixel" (social-pixel): nothing to run — the library holds no module of it (turbine runs none either)');
    // An Analytics companion whose library holds only data elements reads the page: hosted; one with a module that works on s is left to the Analytics import.
    expect(line('data element', 'link region')).toBe("data element \"link region\": on the page — activity-map-customizer/src/lib/dataElements/linkClickRegionPath.js (offtag.js's module host runs the extension's module) read on the page with each event (offtag.js, built with it)");
    expect(lines).toContain("extension \"Activity Map Customizer\" (activity-map-customizer): on the page — offtag.js's module host runs its 1 module(s) as turbine does");
    expect(line('data element', 'plugin value')).toBe('data element "plugin value": not imported — data element common-analytics-plugins/src/lib/dataElements/getValOnce.js: the Common Analytics Plugins extension works on the Analytics tracker (s), which the Analytics import runs');
    expect(lines).toContain('extension "Adobe Experience Platform Web SDK" (adobe-alloy) not imported: the Adobe Experience Platform Web SDK (alloy) is not imported in this version; its events, actions and other data elements are left out (its XDM object and identity map data elements are imported)');
    expect(lines).toContain("ECID variable marketingCloudServer not imported: the engine's visitor service sends its ID calls to the container's idServiceHost setting (its Audience Manager server), and makes no call to a marketingCloudServer CNAME");
    expect(readFileSync(`${TMP}/paths/container.ts`, 'utf8')).toContain('launch.ecidRule([{"name":"trackingServer","value":"metrics.keepstock.example"},{"name":"cookieDomain","value":"keepstock.example"}])');
    expect(readFileSync(`${TMP}/paths/container.ts`, 'utf8')).toContain('events: [launch.customEvent("cart:add", "button.add", {"bubbleFireIfParent":true})]');
    expect(readFileSync(`${TMP}/paths/container.ts`, 'utf8')).toContain('events: [launch.click("a.buy")]');
    expect(lines.filter((l) => l.startsWith('note: '))).toEqual([
      "note: the property runs rule components without sequencing; Offtag runs each rule's conditions and actions in the worker in sequence (a component that returns a promise holds the next one), and its steps on the page without holding the rule, as turbine does",
      'note: the property returns "" for data elements that do not exist; Offtag leaves an unknown %token% as written',
    ]);
    // The summary counts the report's own labels.
    const labelled = (kind: string, label: string) => lines.filter((l) => l.startsWith(`${kind} "`) && l.includes(`": ${label}`)).length;
    // `element id` (a data element reading this.id) and `element custom code condition` run in the worker with the event's element.
    expect(labelled('data element', 'worker')).toBe(6);
    expect(labelled('data element', 'on the page')).toBe(9);
    expect(labelled('data element', 'not imported')).toBe(4);
    expect(labelled('rule', 'in the worker')).toBe(8);
    expect(labelled('rule', 'partly on the page')).toBe(7);
    expect(labelled('rule', 'not imported')).toBe(3);
    expect(lines.filter((l) => /^rule "[^"]*": (in the worker|partly on the page) — .*action \d+ not imported/.test(l))).toHaveLength(1);
    expect(lines.filter((l) => / not imported: /.test(l) && !/^(rule|data element) "/.test(l))).toHaveLength(3);
    expect(lines.at(-1)).toBe('data elements: 6 worker, 9 on the page, 4 not imported; rules: 8 in the worker, 7 partly on the page, 3 not imported; 1 actions not imported; 3 other items not imported.');
    const source = readFileSync(`${TMP}/paths/container.ts`, 'utf8');
    expect(source).toContain("_satellite.logger.log('external code ran');");
    expect(source).toContain('launch.loadScript(');
    expect(source).toContain('{"timeout":0,"delayNext":false}');
  });

  it('without --assets, imports each external file as a step that loads it from the library\'s host when its action runs', () => {
    const { lines } = runImport({ library: `${FIX}/report-paths.js`, out: `${TMP}/no-assets` });
    expect(lines.filter((l) => l.includes("loaded from the library's host when the action runs"))).toHaveLength(2);
    expect(lines.some((l) => l.includes(' not imported') && l.includes('RC0000'))).toBe(false);
    const source = readFileSync(`${TMP}/no-assets/container.ts`, 'utf8');
    expect(source).toContain('launch.externalCode("https://assets.example.com/launch-EN00000000000000000000000000000003/RC0000000000000000000000000000000001-source.min.js", "javascript", {})');
  });
});

describe('reading a library', () => {
  it('stops at the container assignment: nothing after it runs', () => {
    const text = readFileSync(`${FIX}/storefront.js`, 'utf8') + "\nthrow new Error('turbine ran');\n";
    expect(Object.keys(readLibrary(text, 'x.js').dataElements ?? {})).toContain('page name');
  });

  it("reads the blocks of a library a site's bundle assigns through its own name for the window (`e._satellite.container`) with that name as `window`", () => {
    const block = (w: string) => `function () {\n  var own = (function (e) { return e + 1; })(1);\n  return ${w}.avatarDL.page + own + JSON.stringify({ ${w === 'e' ? 'e' : 'e: window'} });\n}`;
    const container = { dataElements: { page: { modulePath: 'core/src/lib/dataElements/customCode.js', settings: { source: code(block('e')) } } } };
    expect(readLibrary(libraryText(container, '', 'bundle'), 'bundle.js').dataElements!.page!.settings!.source).toEqual({ code: block('window') });
    // A standalone library's `e` is the page's own global: left as it is.
    expect(readLibrary(libraryText(container), 'plain.js').dataElements!.page!.settings!.source).toEqual({ code: block('e') });
  });

  it('gives one line when the file is no Launch library, or fails before the container', () => {
    expect(() => readLibrary('var a = 1;', 'a.js')).toThrow(new LibraryReadError('a.js: no window._satellite.container assignment found (is this a Launch library built by turbine 25 or later?).'));
    expect(() => readLibrary('window.nope.x = 1;', 'b.js')).toThrow(/^b\.js: the library failed before assigning _satellite\.container: /);
  });

  it('reads a container the schema finds fault with, and names each finding as a warning', () => {
    mkdirSync(TMP, { recursive: true });
    const broken = readFileSync(`${FIX}/report-paths.js`, 'utf8').replace('"RL0000000000000000000000000000012c"', '"not-a-rule-id"');
    writeFileSync(`${TMP}/broken.js`, broken);
    const { lines } = runImport({ library: `${TMP}/broken.js`, out: `${TMP}/broken` });
    expect(lines[0]).toMatch(/^warning: schema: \/rules\/0\/id must match pattern .* \(read anyway: turbine runs it\)$/);
    expect(lines.filter((l) => l.startsWith('warning: '))).toHaveLength(1);
  });

  it('reads every turbine generation\'s shape and a library a site\'s bundle carries inside a function, as the plain library', () => {
    // Written by Node itself (the test runner's transform would rewrite the modules' source text).
    const GEN = `${TMP}/generations`;
    mkdirSync(GEN, { recursive: true });
    execFileSync(process.execPath, ['--input-type=module', '-e', `import { writeFileSync } from 'node:fs'; import { generations } from './${FIX}/libraries.mjs'; for (const [n, t] of Object.entries(generations())) writeFileSync('${GEN}/' + n + '.js', t);`]);
    const plain = runImport({ library: `${FIX}/storefront.js`, out: `${TMP}/gen-plain` });
    // The same container, but for what its `_satellite` tells of the library (build info, property), which each generation writes its way.
    const body = (dir: string) =>
      readFileSync(`${dir}/container.ts`, 'utf8')
        .replace(/^.*turbine [\d.?]+\).*$/m, '')
        .replace(/\bname: "[^"]+"/, '')
        .replace(/\n\}\), \{\n[\s\S]*?\n\}\);\n/, '');
    const warnings = (lines: string[]) => lines.filter((l) => l.startsWith('warning: ')).map((l) => l.replace(/ \(read anyway: turbine runs it\)$/, ''));
    const expected: Record<string, string[]> = {
      'storefront-turbine27': ['warning: schema: /buildInfo must NOT have additional properties (minified)'],
      'storefront-turbine25': [
        'warning: schema: /buildInfo must NOT have additional properties (environment)',
        "warning: schema: /company must have required property 'dynamicCdnEnabled'",
        "warning: schema: /property must have required property 'id'",
        "warning: schema: /property/settings must have required property 'ruleComponentSequencingEnabled'",
      ],
      'storefront-in-bundle': ['warning: schema: /buildInfo must NOT have additional properties (minified)'],
    };
    expect(warnings(plain.lines)).toEqual([]);
    const bundleNote = /^note: the library is inside a function of a site bundle \(function installTags\); site-bundle\.js is that bundle with the function left empty/;
    for (const [file, want] of Object.entries(expected)) {
      const r = runImport({ library: `${GEN}/${file}.js`, out: `${TMP}/gen-${file}` });
      expect(warnings(r.lines).sort(), file).toEqual([...want].sort());
      expect(r.lines.filter((l) => !l.startsWith('warning: ') && !bundleNote.test(l)), file).toEqual(plain.lines);
      expect(r.lines.filter((l) => bundleNote.test(l)), file).toHaveLength(file === 'storefront-in-bundle' ? 1 : 0);
      expect(existsSync(`${TMP}/gen-${file}/site-bundle.js`), file).toBe(file === 'storefront-in-bundle');
      expect(body(`${TMP}/gen-${file}`), file).toBe(body(`${TMP}/gen-plain`));
    }
    // The bundle's own code needs a page: running the file, as a reader that executes it would, fails before the container.
    expect(() => vm.runInNewContext(readFileSync(`${GEN}/storefront-in-bundle.js`, 'utf8'), { window: {} })).toThrow(/Cannot read properties of undefined \(reading 'cookie'\)/);
  });

  it("writes a site's bundle without the library it carries: the bundle's own code runs as before, and its call of the library's function installs nothing", () => {
    const GEN = `${TMP}/generations`;
    mkdirSync(GEN, { recursive: true });
    execFileSync(process.execPath, ['--input-type=module', '-e', `import { writeFileSync } from 'node:fs'; import { generations } from './${FIX}/libraries.mjs'; writeFileSync('${GEN}/in-bundle.js', generations()['storefront-in-bundle']);`]);
    const { files } = runImport({ library: `${GEN}/in-bundle.js`, out: `${TMP}/site-bundle` });
    expect(files.map((f) => f.split('/').pop())).toEqual(['container.ts', 'report.txt', 'site-bundle.js']);
    const page = () => {
      const window: Record<string, unknown> = { document: { cookie: 'OptanonConsent=groups%3DC0001%3A1' }, location: { search: '' } };
      window.window = window;
      return window;
    };
    const original = page();
    vm.runInNewContext(readFileSync(`${GEN}/in-bundle.js`, 'utf8'), original);
    expect(original.siteConsent).toBe(true);
    expect(Object.keys((original._satellite as { container: object }).container)).toContain('rules');
    const shipped = page();
    const text = readFileSync(`${TMP}/site-bundle/site-bundle.js`, 'utf8');
    vm.runInNewContext(text, shipped);
    expect(shipped.siteConsent).toBe(true);
    expect(shipped._satellite).toBeUndefined();
    // Nothing of the container is left in it.
    expect(text).not.toMatch(/dataElements|_satellite/);
  });

  it('refuses only a library with nothing to import, in one line', () => {
    mkdirSync(TMP, { recursive: true });
    writeFileSync(`${TMP}/empty.js`, 'window._satellite = window._satellite || {};\nwindow._satellite.container = { buildInfo: {}, dataElements: {}, rules: [] };\n');
    expect(() => runImport({ library: `${TMP}/empty.js`, out: `${TMP}/empty` })).toThrow(new LibraryReadError(`${TMP}/empty.js: the library has no data elements, rules or extensions to import`));
  });

  it('the fixture libraries are generated, not committed: git ignores and tracks none of them, and writing them again rewrites none', () => {
    // Written by the global setup (tests/fixtures/launch/written.ts) before this file loads.
    const files = Object.keys(libraries() as Record<string, string>).map((n) => `${FIX}/${n}.js`);
    // check-ignore exits 1 when it names no file.
    const git = (...args: string[]) => spawnSync('git', args, { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
    expect(git('ls-files', '--', ...files)).toEqual([]);
    expect(git('check-ignore', '--', ...files)).toEqual(files);
    // Hand-written files beside them stay tracked.
    expect(git('check-ignore', '--no-index', '--', `${FIX}/write.mjs`, `${FIX}/storefront.mjs`, `${FIX}/assets/RC0000000000000000000000000000000001-source.min.js`)).toEqual([]);
    const written = files.map((f) => statSync(f).mtimeMs);
    writeLaunchFixtures();
    expect(files.map((f) => statSync(f).mtimeMs)).toEqual(written);
  });
});

describe('the command line', () => {
  it('takes one library and its options; a missing value is a clear message', () => {
    expect(parseImportArgs(['lib.js'])).toEqual({ library: 'lib.js', out: 'containers/lib' });
    expect(parseImportArgs(['x/launch-abc.min.js', '--assets', 'a', '--out', 'containers/shop'])).toEqual({ library: 'x/launch-abc.min.js', out: 'containers/shop', assets: 'a' });
    expect(parseImportArgs(['lib.js', '--out'])).toBe('offtag import: --out needs a value.');
    expect(parseImportArgs([])).toMatch(/^offtag import: give one library file\./);
  });
});

describe('where custom code runs', () => {
  const W = { dataLayer: 'digitalData', thisIs: 'element' as const };
  it('in the worker when it uses only its own names, built-ins and what the worker serves', () => {
    expect(place("function (event) { var a = _satellite.getVar('x'), b = [1, 2]; return b.map(function (n) { return n + a; }).join(','); }", W).where).toBe('worker');
    expect(place("function (e) { sessionStorage.setItem('k', JSON.stringify({ a: 1 })); return /x\\/y/.test('x/y'); }", W)).toMatchObject({ where: 'worker', sideEffects: true, sessionKeys: ['k'], globals: ['sessionStorage'] });
    expect(place('function () { return document.URL.split("?")[0] + location.hostname + navigator.userAgent + screen.width + innerWidth; }', W)).toMatchObject({ where: 'worker', globals: ['document', 'innerWidth', 'location', 'navigator', 'screen'] });
    expect(place('function () { document.cookie = "a=1; path=/"; return window.location.href; }', W).where).toBe('worker');
  });
  it('resolves names by scope: hoisted vars and functions, block lets, parameters, catch, shadowing a page global', () => {
    expect(place('function (e) { f(); function f() { try { x = 1 } catch (document) { document.anything } } var x; { let y = 1; y++ } }', W).where).toBe('worker');
    expect(place('function (e) { var document = {}; return document.title; }', W).where).toBe('worker');
    expect(place('function (e) { { let document = {}; } return document.title; }', W).reason).toBe('it uses `document.title`, which only the page has');
  });
  it('a name it assigns without declaring it is its own; new Function texts become functions analysed as page code', () => {
    expect(place('function (e, s) { promos = []; promos.push(1); s.prop1 = promos.join(); }', W)).toMatchObject({ where: 'worker', globals: ['promos'] });
    const p = place('function (e, s) { s.apl = new Function("l", "v", "var s=this; return l ? l + \',\' + v : v"); s.list1 = s.apl(s.list1, "x"); }', W);
    expect(p.where).toBe('worker');
    expect(p.source).toContain('(function anonymous(l,v\n) {\nvar s=this;');
    expect(place('function (e, s) { s.f = new Function("return document.body.scrollHeight"); }', W).reason).toBe('it uses `document.body.scrollHeight`, which only the page has');
    expect(place('function (e, s) { var w = 1; s.f = new Function("return w"); }', W).reason).toBe('a `new Function` text in it names `w`, which the block declares too');
    expect(place('function (e, s) { s.f = Function(e.code); }', W).reason).toBe('it builds code from text at run time (Function)');
  });
  it('in the worker when it reads the data layer global (its snapshot), on the page when it writes into it', () => {
    expect(place('function () { return digitalData.cart.total + window.digitalData.page.x; }', W)).toMatchObject({ where: 'worker', sideEffects: false, sessionKeys: [], readsDataLayer: true });
    expect(place("function () { window.digitalData.page['x'] = 1; }", W).reason).toBe("it writes into `digitalData`, the page's data layer");
    // Another global read as data travels with each event on its own.
    expect(place('function () { return digitalData.x; }')).toMatchObject({ where: 'worker', pageGlobals: ['digitalData'] });
  });
  it('names the data layer paths it reads, so only those travel: up to a computed member, length or a call; the layer itself, whole', () => {
    expect(place('function () { return digitalData.cart.total + window.digitalData.page.x + digitalData.cart.total; }', W)).toMatchObject({ readsDataLayer: true, dataLayerPaths: ['cart.total', 'page.x'] });
    const cut = place('function (e) { return digitalData.list.length + digitalData.a.b.split(",")[0] + digitalData.c[e.k].d + digitalData.f.g() + digitalData.items.map(String); }', W);
    expect(cut.dataLayerPaths).toEqual(['a.b', 'c', 'f', 'items', 'list']);
    // A test of whether a path is there needs no more of it than what is read under it; the value a test reads (`.length`) is read whole.
    expect(place('function () { if (!window.digitalData) return; return null != digitalData && digitalData.page && typeof digitalData.user === "object" && digitalData.page.x; }', W).dataLayerPaths).toEqual(['page.x', 'user']);
    expect(place('function () { return !digitalData.list.length ? digitalData.list[0].sku : 1; }', W).dataLayerPaths).toEqual(['list', 'list.0.sku']);
    // A member named as a method, not called, is data; one called, or applied, is its owner's.
    expect(place('function () { return digitalData.search.term + digitalData.name.split(" ") + digitalData.items.map.call(digitalData.more, String); }', W).dataLayerPaths).toEqual(['items', 'more', 'name', 'search.term']);
    // Read whole (an alias, its value passed on, a call of it): no paths, the whole layer travels.
    for (const whole of ['function () { var d = window.digitalData || {}; return d.page; }', 'function () { return digitalData && digitalData.page.x || digitalData; }', 'function () { return JSON.stringify(digitalData); }'])
      expect([place(whole, W)].map((p) => [p.where, p.readsDataLayer, p.dataLayerPaths])).toEqual([['worker', true, undefined]]);
    expect(place('function () { return 1; }', W).dataLayerPaths).toBeUndefined();
  });
  it("names the paths of a page global it reads as data (null: it may read any of it)", () => {
    expect(place('function () { var t = window.siteTag?.utils?.clean; return siteTag.record.current.xdm.id + (t ? 1 : 0) + siteTag.record.list.length; }', W)).toMatchObject({
      pageGlobals: ['siteTag'],
      pageGlobalPaths: { siteTag: ['record.current.xdm.id', 'record.list', 'utils.clean'] },
    });
    expect(place('function (e, s) { if (window.eventData && eventData.search) s.prop6 = window.eventData.search.type.split(":")[0]; }', W).pageGlobalPaths).toEqual({ eventData: ['search.type'] });
    expect(place('function (e, s) { var d = window.eventData.search; s.prop6 = d || eventData; }', W).pageGlobalPaths).toEqual({ eventData: null });
  });
  it('this: the window for customSetup, the element for the other blocks (its attributes, id, class, tag, href, text)', () => {
    expect(place('function (s) { this.s = s; s.server = this.location.hostname; }', { thisIs: 'window' }).where).toBe('worker');
    expect(place('function (e, s) { s.eVar1 = this.getAttribute("data-x") + this.id; }', W).where).toBe('worker');
    expect(place('function () { return this.parentNode.id; }', W).reason).toBe('it uses `this` (the element of the event) beyond its attributes, id, class, tag, href and text');
  });
  it('a page global whose members it reads as data travels with each event; one only tested for, called or assigned keeps it on the page', () => {
    expect(place('function (e, s) { if (window.eventData && eventData.search) s.prop6 = window.eventData.search.type.split(":")[0]; }', W)).toMatchObject({ where: 'worker', pageGlobals: ['eventData'] });
    expect(place('function () { return window.ga && 1; }', W).reason).toBe('it uses `ga`, which only the page has');
    expect(place('function () { return pageDataTracker.md5("x"); }', W).reason).toBe('it uses `pageDataTracker.md5`, which only the page has');
    expect(place('function () { pageData.page.x = 1; }', W).reason).toBe('it uses `pageData.page.x`, which only the page has');
  });
  it('on the page when it touches the page', () => {
    expect(place('function () { return document.title; }', W).reason).toBe('it uses `document.title`, which only the page has');
    expect(place("function () { _satellite.track('x'); }", W).reason).toBe('it uses `_satellite.track`, which only the page has');
    expect(place('function () { $(this).attr("x"); }', W).reason).toBe('it uses `$`, which only the page has');
    expect(place('function () { window.eventData = {}; }', W).reason).toBe('it assigns `window.eventData`, which the page may read');
    expect(place('function () { return `a${b}`; }', W).reason).toBe('it uses `b`, which only the page has');
    expect(place('function () { return (; }', W).reason).toMatch(/^it does not parse/);
  });
});

describe("the data the worker's blocks read", () => {
  // A data layer and a site global that hold functions (a layer's helper, a tag library's own code)
  // beside the data the blocks read.
  const rule = (name: string, conditions: unknown[], actions: unknown[]) => ({ id: `RL-${name}`, name, events: [{ modulePath: 'core/src/lib/events/libraryLoaded.js', settings: {} }], conditions, actions });
  const custom = (fn: string) => ({ modulePath: 'core/src/lib/conditions/customCode.js', settings: { source: code(fn) } });
  const library = (conditionFn: string) => ({
    extensions: { core: { displayName: 'Core', settings: {} } },
    dataElements: {
      'page name': { modulePath: 'core/src/lib/dataElements/javascriptVariable.js', settings: { path: 'siteData.page.name' } },
      'user id': { modulePath: 'core/src/lib/dataElements/customCode.js', settings: { source: code('function () { return window.siteData.user.id + siteTag.record.current.id; }') } },
    },
    rules: [
      rule('tested', [custom(conditionFn), { modulePath: 'core/src/lib/conditions/variable.js', settings: { name: 'siteData.flags.on', value: 'yes' } }], [
        { modulePath: 'core/src/lib/actions/customCode.js', settings: { source: code('function () { return siteData.cart.items.length + siteTag.utils.clean; }'), language: 'javascript' } },
      ]),
    ],
  });
  const imported = async (name: string, conditionFn: string) => {
    mkdirSync(`${TMP}/reads`, { recursive: true });
    writeFileSync(`${TMP}/reads/${name}.js`, libraryText(library(conditionFn)));
    runImport({ library: `${TMP}/reads/${name}.js`, out: `${TMP}/reads/${name}` });
    const { loadContainer } = await import('../../../tools/build/build.ts');
    return loadContainer(`${TMP}/reads/${name}/container.ts`);
  };

  it("the bridge's copy of the data layer holds every path a worker block reads — data elements, conditions, actions — and a page global only its branches they read", async () => {
    const { readSetOf } = await import('../../../src/worker-engine/core/data-layer.ts');
    const c = await imported('narrow', 'function () { return siteData.page.type === "home"; }');
    expect(readSetOf(c.dataElements as never)).toStrictEqual({ page: { name: 0, type: 0 }, user: { id: 0 }, flags: { on: 0 }, cart: { items: 0 } });
    const source = readFileSync(`${TMP}/reads/narrow/container.ts`, 'utf8');
    expect(source).toContain('"offtag:global siteTag": launch.pageGlobalBranches("siteTag", ["record.current.id","utils.clean"])');
    // A block that reads the layer through an alias may read any of it: the whole layer travels.
    const whole = await imported('whole', 'function () { var d = siteData || {}; return d.page.type === "home"; }');
    expect(readSetOf(whole.dataElements as never)).toBeNull();
  });
});
