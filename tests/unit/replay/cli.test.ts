import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const FIXTURE = 'tests/fixtures/storefront/page-view-logged-in.json';
const GOLDEN = 'tests/fixtures/storefront/page-view-logged-in.golden.jsonl';
const run = (...args: string[]) => execFileSync('node', ['tools/offtag.mjs', ...args], { encoding: 'utf8' });

describe('npx offtag', () => {
  it('replay --json prints one JSON line per effect, the same lines every run, as the library does', () => {
    const first = run('replay', '--json', FIXTURE);
    const second = run('replay', '--json', FIXTURE);
    expect(first).toBe(second);
    // The golden leaves out the devtools feed (`monitor` effects); everything else is the same.
    const withoutMonitor = first.split('\n').filter((l) => l && !l.startsWith('{"type":"monitor"'));
    expect(withoutMonitor).toEqual(readFileSync(GOLDEN, 'utf8').trimEnd().split('\n'));
    for (const line of first.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    expect(first).toContain('"kind":"beacon"');
  }, 30_000);

  it('replay says what is wrong with a missing fixture', () => {
    expect(() => execFileSync('node', ['tools/offtag.mjs', 'replay', 'no-such.json'], { stdio: 'pipe' })).toThrow(/cannot read no-such.json/);
  }, 30_000);

  it('decode --json turns a beacon URL into named fields', () => {
    const url =
      'https://metrics.example.com/b/ss/acmeprod/1/JS-2.27.0/s12345?AQB=1&ndh=1&pf=1&t=15%2F0%2F2026%2010%3A30%3A0%204%200&pageName=acme%3Ahome%3Ax&v1=Full%20Logged%20In&c1=D%3Dv1&events=event49&AQE=1';
    const out = JSON.parse(run('decode', '--json', url));
    expect(out).toMatchObject({ rsid: 'acmeprod', pageName: 'acme:home:x', eVar1: 'Full Logged In', prop1: 'D=v1', events: 'event49' });
  }, 30_000);
});
