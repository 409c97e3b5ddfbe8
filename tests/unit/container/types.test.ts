import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** tests/types/container/tokens-check.ts: a container author's mistakes are type errors (docs/containers.md). */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = `${root}tests/types/container`;

function tsc(project: string): string {
  try {
    execFileSync(`${root}node_modules/.bin/tsc`, ['-p', project], { encoding: 'utf8' });
    return '';
  } catch (err) {
    return String((err as { stdout?: string }).stdout ?? err);
  }
}

describe('defineContainer types', () => {
  it('the good lines compile and every @ts-expect-error line is an error', () => {
    expect(tsc(dir)).toBe('');
  }, 60_000);

  it('without the @ts-expect-error marks, tsc names each mistake', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'offtag-types-'));
    const source = readFileSync(`${dir}/tokens-check.ts`, 'utf8')
      .replace(/\/\/ @ts-expect-error.*$/gm, '')
      .replaceAll("'../../../src/", `'${root}src/`);
    writeFileSync(`${tmp}/check.ts`, source);
    const config = JSON.parse(readFileSync(`${dir}/tsconfig.json`, 'utf8'));
    writeFileSync(`${tmp}/tsconfig.json`, JSON.stringify({ ...config, files: ['check.ts'] }));
    const out = tsc(tmp);
    expect(out).toContain(`'"%titel%"' is not assignable to type '"%titel% names no data element"'`);
    expect(out).toContain(`'"%section% %nope%"' is not assignable to parameter of type '"%nope% names no data element"'`);
    expect(out).toContain(`'prop76' does not exist`);
    expect(out).toContain(`Argument of type '"missing"' is not assignable`);
    expect(out).toContain(`Argument of type '"nope"' is not assignable`);
    // The kit's form: the error is at the event's type, and names the types there are.
    expect(out).toMatch(/check\.ts\(50,37\): error TS2769: No overload matches this call\.\n.*\n +Type '"no-such-event"' is not assignable to type '"click" \| "custom-event" \| "data-element-change" \| "data-layer-push" \| "direct-call" \| "dom-ready" \| "element-exists" \| "element-visible" \| "form-submit" \| "history-change" \| \.\.\. 6 more \.\.\. \| "window-loaded"'/);
    expect(out).toMatch(/check\.ts\(52,48\): error TS2769: .*\n.*\n +Type 'string' is not assignable to type 'number'\./);
    // The array form: each mistake at its own line and column, saying what is expected, as in the kit's form.
    expect(out).toMatch(/check\.ts\(62,37\): error TS2769: .*\n.*\n +Type '"no-such-event"' is not assignable to type '"click" \| "custom-event" \|/);
    expect(out).toMatch(/check\.ts\(64,48\): error TS2769: .*\n.*\n +Type 'string' is not assignable to type 'number'\./);
    expect(out).toMatch(/check\.ts\(66,53\): error TS2769: .*\n.*\n +Object literal may only specify known properties, and 'selecter' does not exist in type '\{ type: "click"; \}/);
    // An engine setting of the wrong type: at the setting, with the type it must be.
    expect(out).toMatch(/check\.ts\(75,5\): error TS2769: .*\n.*\n +Type 'number' is not assignable to type 'string'\./);
    expect(out).toContain(`check.ts(92,35): error TS2345: Argument of type '"sektion"' is not assignable to parameter of type '"country" | "section"'`);
    expect(out).toContain(`Argument of type '"isEqual"' is not assignable to parameter of type 'Operator'`);
    expect(out).toContain(`Property 'get' does not exist on type`);
    // History change and data layer pushes: the event's value as a data element, the events' fields.
    expect(out).toContain(`check.ts(163,22): error TS2345: Argument of type '"detail.product.sku"' is not assignable to parameter of type 'EventToken'`);
    expect(out).toMatch(/check\.ts\(171,57\): error TS2769: .*\n.*\n +Object literal may only specify known properties, and 'url' does not exist in type '\{ type: "history-change"; \}'/);
    expect(out).toMatch(/check\.ts\(173,35\): error TS2769: (.*\n){3} +Property 'global' is missing/);
    expect(out).toMatch(/check\.ts\(175,81\): error TS2769: .*\n.*\n +Type '"tealium"' is not assignable to type 'DataLayerFlavor \| undefined'/);
    expect(out.trim().split('\n').filter((l) => l.includes('error TS'))).toHaveLength(18);
  }, 60_000);
});
