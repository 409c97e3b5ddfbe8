/**
 * The import of the Core events and conditions the engine gained, and of Data Layer Manager
 * (tests/fixtures/launch/timing-events.js): each becomes the Launch runtime's event (the engine's
 * trigger), with the report's note; a Custom Code event's block goes into the page data that
 * offtag build writes into offtag.js, and its trigger sends a direct call of its own; Window Size
 * is read on the page, Browser in the worker; Page Bottom is its own event (no note telling pages
 * to drop their call).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runImport } from '../../../tools/import/command.ts';

const OUT = 'test-results/import-unit/timing-events';

describe('importing the new events and conditions', () => {
  const { lines } = runImport({ library: 'tests/fixtures/launch/timing-events.js', out: OUT });
  const source = readFileSync(`${OUT}/container.ts`, 'utf8');
  const line = (name: string) => lines.find((l) => l.startsWith(`rule ${JSON.stringify(name)}:`))!;

  it('each event as the runtime writes it', () => {
    for (const call of [
      'launch.pageBottom()',
      'launch.historyChange()',
      'launch.elementExists(".late-banner")',
      'launch.hover(".card", 0)',
      'launch.hover(".card", 300)',
      'launch.mediaTimePlayed(1, "second", "audio", {"bubbleFireIfParent":true,"bubbleFireIfChildFired":true})',
      'launch.mediaTimePlayed(50, "percent", "audio")',
      'launch.domEvent("ended", "audio")',
      'launch.customCodeEvent("function (trigger) {\\n  window.__promoListening = true;',
      'launch.dataLayerPush("appEventData", "Page Load Complete", "dlm")',
      'launch.clientIs("browser", ["Chrome","Edge"], {})',
      'launch.dataLayerState("page.name", {}, {})',
    ])
      expect(source).toContain(call);
    expect(source).toContain('launch.pageCondition("function (event) {\\n  var d = document.documentElement;\\n  return d.clientWidth > 100 && d.clientHeight > 0;\\n}", {}, "Window Size")');
    // The library's build info, property and company, for its `_satellite`.
    expect(source).toContain('launch.imported(defineContainer({');
    expect(source).toContain('"turbineVersion": "28.1.0"');
  });

  it("the report's notes, and where the rules run (a Custom Code event's block, a Window Size condition: partly on the page)", () => {
    expect(line('page bottom')).toContain('Page Bottom at _satellite.pageBottom(), else just before the DOM Ready rules');
    expect(line('late banner exists')).toContain("element observed on the page as it is added (offtag-triggers.js), not within Launch's 3-second poll");
    expect(line('card hovered for 300 ms')).toContain('mouse hover of 300 ms observed on the page');
    expect(line('played half')).toContain('media time played (50%) observed on the page');
    expect(line('sound ended')).toContain('"ended" events observed on the page (offtag-triggers.js), on document as Launch listens');
    expect(line('dlm page load')).toContain('Data Layer Manager push of "Page Load Complete" into appEventData observed on the page');
    expect(line('promo ready')).toMatch(/^rule "promo ready": partly on the page — 0 event\(s\), .*1 event\(s\) set up on the page; custom code event: its block runs on the page when offtag.js starts/);
    expect(line('wide window')).toMatch(/^rule "wide window": partly on the page — .*1 condition\(s\) read on the page/);
    expect(line('chrome browser')).toMatch(/^rule "chrome browser": in the worker/);
    expect(lines.filter((l) => l.startsWith('note: '))).toEqual([]);
    expect(lines.at(-1)).toBe('data elements: 9 worker, 5 on the page, 0 not imported; rules: 19 in the worker, 3 partly on the page, 0 not imported; 0 actions not imported; 0 other items not imported.');
  });

  it("offtag build writes the Custom Code event's block into the page data, as its source text, with its direct call and rule", async () => {
    const { loadContainer } = await import('../../../tools/build/build.ts');
    const { pageText } = await import('../../../tools/build/page-reads.ts');
    const data = pageText(await loadContainer(`${OUT}/container.ts`)).data!;
    expect(data).toContain('events: [\n["offtag-launch:core.custom-code:1", "promo ready", (function (trigger) {\n  window.__promoListening = true;');
    expect(data).toContain('launch: {"buildInfo":{"turbineVersion":"28.1.0"');
  });
});
