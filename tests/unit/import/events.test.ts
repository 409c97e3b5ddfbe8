/**
 * The import of the Core events and conditions the engine gained, and of Data Layer Manager
 * (tests/fixtures/launch/timing-events.js): each becomes the Launch runtime's event (the engine's
 * trigger), with the report's note; a Custom Code event's block goes into page-code.js, whose
 * `__offtagLaunch.event` runs it; Window Size is read on the page, Browser in the worker; Page
 * Bottom is its own event (no note telling pages to drop their call).
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
      'launch.customCodeEvent("block1", "/timing-events.page-code.js")',
      'launch.dataLayerPush("appEventData", "Page Load Complete", "dlm")',
      'launch.clientIs("browser", ["Chrome","Edge"], {})',
      'launch.dataLayerState("page.name", {}, {})',
    ])
      expect(source).toContain(call);
    expect(source).toContain('launch.pageCondition((e) => { var d = document.documentElement; return d.clientWidth > 100 && d.clientHeight > 0; }, {})');
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
    expect(line('promo ready')).toMatch(/^rule "promo ready": partly on the page — .*custom code event: its block runs on the page \(page-code.js block1\)/);
    expect(line('wide window')).toMatch(/^rule "wide window": partly on the page — .*1 condition\(s\) read on the page/);
    expect(line('chrome browser')).toMatch(/^rule "chrome browser": worker/);
    expect(lines.filter((l) => l.startsWith('note: '))).toEqual([]);
    expect(lines.at(-1)).toBe('19 rules entirely in the worker, 3 rules partly on the page, 0 items not imported.');
  });

  it("page-code.js runs the event's block when it first runs; its trigger's calls wait until offtag-triggers.js connects the rule (`event`), then go in order", () => {
    const pageCode = readFileSync(`${OUT}/page-code.js`, 'utf8');
    expect(pageCode).toContain('window.__promoListening = true;');
    const w: Record<string, unknown> = {};
    const listeners: Array<() => void> = [];
    // The block uses `window` and `document` as page globals: run the file where both are the test's.
    const g = globalThis as unknown as { document?: unknown; window?: unknown };
    g.document = { addEventListener: (_t: string, f: () => void) => void listeners.push(f) };
    g.window = w;
    try {
      new Function('window', 'performance', pageCode)(w, { now: () => 0 });
    } finally {
      delete g.document;
      delete g.window;
    }
    // It ran at once: its listener is there, before any rule asked.
    expect(w.__promoListening).toBe(true);
    listeners[0]!();
    const fired: unknown[] = [];
    (w.__offtagLaunch as { event(id: string, trigger: (d?: unknown) => void): void }).event('block1', (d) => fired.push(['fired', d]));
    expect(fired).toEqual([['fired', undefined]]);
    listeners[0]!();
    expect(fired).toHaveLength(2);
  });
});
