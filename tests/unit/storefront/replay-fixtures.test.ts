/**
 * The storefront fixtures of tests/fixtures/storefront, run in Node through the replay tool with
 * the real services (visitor, tracker). Each fixture's effects (minus the devtools feed) must
 * match its `.golden.jsonl` line for line. The test never writes a golden: `npm run goldens`
 * does, after an intended change. The beacons are also checked field by field, so a golden is
 * never the only proof of a mapping.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Effect } from '../../../src/protocol.ts';
import { goldenLines, goldenPath } from '../../../tools/replay/goldens.ts';
import { replay, type Fixture } from '../../../tools/replay/replay.ts';

const DIR = join(import.meta.dirname, '../../fixtures/storefront');
const FIXTURES = readdirSync(DIR).filter((f) => f.endsWith('.json'));

async function run(file: string) {
  const fixture = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as Fixture;
  const result = await replay(fixture);
  const effects = result.effects.filter((e) => e.type !== 'monitor');
  return { result, effects, lines: effects.map((e) => JSON.stringify(e)) };
}

/** Beacon query parameters, in order. */
function beacons(effects: Effect[]): Array<Record<string, string>> {
  return effects
    .filter((e): e is Extract<Effect, { type: 'request' }> => e.type === 'request' && e.kind === 'beacon')
    .map((e) => Object.fromEntries(new URL(e.url).searchParams));
}

describe.each(FIXTURES)('fixture %s', (file) => {
  it('matches its golden output', async () => {
    const golden = goldenPath(file);
    if (!existsSync(golden)) expect.fail(`${golden} is missing: write it with "npm run goldens" and read it before committing.`);
    const lines = await goldenLines(JSON.parse(readFileSync(join(DIR, file), 'utf8')) as Fixture);
    expect(lines).toEqual(readFileSync(golden, 'utf8').trimEnd().split('\n'));
  });
});

describe('storefront beacons through the real tracker', () => {
  it('a logged-in page view, an impression and an interaction', async () => {
    const { effects } = await run('page-view-logged-in.json');
    const [view, impression, interaction] = beacons(effects);
    expect(view).toMatchObject({
      pageName: 'acme:educational content:order management',
      ch: 'Safety',
      server: 'www.keepstock.example',
      cc: 'USD',
      h1: 'acme|educational content|order management',
      v1: 'Full Logged In',
      v4: '0812345:SAP-99',
      v11: 'gcom mweb',
      v15: 'acme:home:home',
      v16: 'New',
      v17: '1',
      v18: 'First Visit',
      v19: 'New Visitor',
      v20: '1ABC2',
      c1: 'D=v1',
      c2: 'D=pageName',
      l1: 'imp-hero,imp-footer',
      l2: 'spring-sale',
      events: 'event49',
    });
    for (const [link, name] of [
      [impression, 'imp-hero,imp-footer'],
      [interaction, 'btn-reorder'],
    ] as const) {
      expect(link).toMatchObject({ pe: 'lnk_o', pev2: name, v1: 'Full Logged In', v4: '0812345:SAP-99', events: 'event49', cc: 'USD' });
      expect(Object.keys(link!).filter((k) => /^(v(?!1$|4$)\d+|c\d+|h\d+|ch|server)$/.test(k))).toEqual([]);
    }
  });
  it('no beacon before tracking consent, then the defaults of spec-coverage.md §8', async () => {
    const { effects } = await run('anonymous-consent-later.json');
    expect(effects).toContainEqual({ type: 'log', level: 'error', message: 'EU compliance was not acknowledged by the user.' });
    const sent = beacons(effects);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ pageName: 'acme::not set in pdl', ch: 'acme', v1: 'Not Logged In', v4: 'Unknown User', v5: 'anon', v6: 'Not Set in PDL' });
    expect(sent[0]).not.toHaveProperty('events');
    // The plugins ran for the first time with consent: nothing was counted before it.
    expect(sent[0]).toMatchObject({ v16: 'New', v17: '1', v18: 'First Visit', v19: 'New Visitor' });
    expect(effects).toContainEqual({ type: 'log', level: 'log', message: '"Page view" does not match any direct call identifiers.' });
  });
  it('a modal view is a page view named after the modal', async () => {
    const { effects } = await run('modal-view.json');
    const [view, modal] = beacons(effects);
    expect(view).toMatchObject({ pageName: 'acme:add to list:product detail', events: 'event49', v1: 'Soft Logged In', v4: '0999:Unassigned' });
    expect(modal).toMatchObject({ pageName: 'acme:add to list - modal:add-to-list-dialog-w', events: 'event49' });
    expect(modal).not.toHaveProperty('pe');
  });
  it('RUM loads on an insights page in production, and not otherwise', async () => {
    const loaded = (await run('rum-insights.json')).effects.filter((e) => e.type === 'script');
    expect(loaded).toHaveLength(1);
    expect(loaded[0]).toMatchObject({ id: 'offtag-rum', init: { fn: 'DD_RUM.init' }, then: { delay: 1000 } });
    expect((await run('rum-declined.json')).effects.filter((e) => e.type === 'script')).toEqual([]);
  });
});
