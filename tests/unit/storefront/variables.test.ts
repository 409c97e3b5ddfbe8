/**
 * The analytics variable mapping (docs/spec-coverage.md D5) by what it does: the hits the storefront
 * sends through it on a rich page, checked against the values the same event published; and its
 * compile-time ranges (docs/spec-coverage.md §9).
 * The `@ts-expect-error` lines are checked by `tsc --noEmit`: if a name outside the ranges ever
 * compiled, the directive itself would be the error.
 */
import { describe, expect, it } from 'vitest';
import {
  LINK_TRACK_EVENTS,
  LINK_TRACK_VARS,
  LINK_VARIABLES,
  MODAL_VIEW_VARIABLES,
  PAGE_VIEW_VARIABLES,
  type VariableMapping,
} from '../../../containers/storefront/variables.ts';
import { dataElements } from '../../../containers/storefront/data-elements.ts';
import { queryKeyOf } from '../../../src/worker-engine/analytics/variables.ts';
import { replaceTokens } from '../../../src/worker-engine/core/tokens.ts';
import type { Snapshot } from '../../../src/protocol.ts';
import { cookieString, getVar, harness } from '../harness.ts';
import { COOKIES, DATA_LAYER } from './fixtures.ts';

/** The token names replaceTokens looks up in a string (it asks `has` for each). */
function tokenNames(text: string): string[] {
  const names: string[] = [];
  replaceTokens(text, { has: (n) => (names.push(n), false), get: () => undefined });
  return names;
}

describe('variable ranges (compile time)', () => {
  it('accepts the edges of every range', () => {
    const edges = { prop1: 'D=v1', prop75: 'D=v1', eVar1: 'D=v1', eVar250: 'D=v1', hier1: 'D=v1', hier5: 'D=v1', list1: 'D=v1', list3: 'D=v1' } satisfies VariableMapping;
    expect(Object.keys(edges).every((name) => queryKeyOf(name) !== undefined)).toBe(true);
  });
  it('rejects names outside the ranges', () => {
    // @ts-expect-error prop76 is outside props 1–75
    const prop76 = { prop76: 'D=v1' } satisfies VariableMapping;
    // @ts-expect-error eVar251 is outside eVars 1–250
    const eVar251 = { eVar251: 'D=v1' } satisfies VariableMapping;
    // @ts-expect-error hier6 is outside hierarchies 1–5
    const hier6 = { hier6: 'D=v1' } satisfies VariableMapping;
    // @ts-expect-error list4 is outside lists 1–3
    const list4 = { list4: 'D=v1' } satisfies VariableMapping;
    // @ts-expect-error prop0 does not exist
    const prop0 = { prop0: 'D=v1' } satisfies VariableMapping;
    // @ts-expect-error a token must name a data element of the container
    const typo = { eVar1: '%login sate%' } satisfies VariableMapping;
    for (const mapping of [prop76, eVar251, hier6, list4, prop0]) {
      expect(Object.keys(mapping).every((name) => queryKeyOf(name) === undefined)).toBe(true);
    }
    expect(typo.eVar1).toBe('%login sate%');
  });
});

/** The element a `%token%` source names, or undefined for a `D=` copy. */
const elementOf = (source: string): string | undefined => /^%(.+)%$/.exec(source)?.[1];

/**
 * What a hit carries for a mapping, by what the table does rather than what it says: each
 * variable whose element has a value on the page carries that value (as `_satellite.getVar` gives
 * it on a fresh page, so elements that count visits read as they did for the hit), a variable whose
 * element has none is left out, and a `D=` copy goes as is.
 */
async function expectedVars(mapping: Record<string, string | undefined>, page: Partial<Snapshot>): Promise<Record<string, string>> {
  const vars: Record<string, string> = {};
  for (const [name, source] of Object.entries(mapping)) {
    const element = elementOf(source!);
    if (element === undefined) {
      vars[name] = source!;
      continue;
    }
    const { value } = await getVar(harness(), element, page);
    if (value !== undefined && value !== null && value !== '') vars[name] = String(value);
  }
  return vars;
}

describe('the page view mapping (docs/spec-coverage.md D5), by what it sends', () => {
  it('every token names a data element and every name is an AppMeasurement variable', () => {
    expect(tokenNames('%page name%|%user%')).toEqual(['page name', 'user']);
    for (const mapping of [PAGE_VIEW_VARIABLES, MODAL_VIEW_VARIABLES, LINK_VARIABLES]) {
      for (const [name, source] of Object.entries(mapping)) {
        expect(queryKeyOf(name), name).toBeDefined();
        for (const token of tokenNames(source as string)) expect(Object.keys(dataElements)).toContain(token);
      }
    }
  });
  it("a Page View's hit carries each mapped variable with its element's value, and nothing else", async () => {
    const h = harness();
    const page = { dataLayer: DATA_LAYER, cookie: cookieString({ sat_track: 'true', ...COOKIES }) };
    await h.fire('Page View', page);
    const [hit] = h.rec.hits;
    expect(hit!.type).toBe('t');
    expect(hit!.vars).toEqual(await expectedVars(PAGE_VIEW_VARIABLES, page));
    // The page is rich enough that the check means something: most variables have a value.
    expect(Object.keys(hit!.vars).length).toBeGreaterThan(Object.keys(PAGE_VIEW_VARIABLES).length / 2);
  });
  it('a D= copy names a variable the same hit carries (the collection server copies it)', () => {
    const sent = new Set(Object.keys(PAGE_VIEW_VARIABLES).flatMap((name) => [name, queryKeyOf(name)]));
    for (const source of Object.values(PAGE_VIEW_VARIABLES)) {
      if (source.startsWith('D=')) expect(sent, source).toContain(source.slice(2));
    }
  });
  it('a modal view sends what a page view sends on the same page, but its page name is the modal\'s', async () => {
    const page = { dataLayer: DATA_LAYER, cookie: cookieString({ sat_track: 'true' }) };
    const views = harness();
    await views.fire('Page View', page);
    const modals = harness();
    await modals.fire('Content: Modal View', page);
    const [view] = views.rec.hits;
    const [modal] = modals.rec.hits;
    expect(modal!.vars.pageName).toBe((await getVar(harness(), 'modal page name', page)).value);
    expect(modal!.vars.pageName).not.toBe(view!.vars.pageName);
    expect({ ...modal!.vars, pageName: view!.vars.pageName }).toEqual(view!.vars);
  });
});

describe('link beacons', () => {
  it("carry the page view's values of the variables they name in linkTrackVars, and only the login event", async () => {
    const page = { dataLayer: DATA_LAYER, cookie: cookieString({ sat_track: 'true' }) };
    const views = harness();
    await views.fire('Page View', page);
    const links = harness();
    await links.fire('Element Interactions', page);
    const [view] = views.rec.hits;
    const [link] = links.rec.hits;
    expect(link).toMatchObject({ type: 'tl', linkType: 'o', linkTrackEvents: LINK_TRACK_EVENTS.join(',') });
    const named = link!.linkTrackVars!.split(',');
    expect(named).toEqual([...LINK_TRACK_VARS]);
    // Each variable it sends is one it names, with the page view's value.
    for (const [name, value] of Object.entries(link!.vars)) {
      expect(named).toContain(name);
      expect(value, name).toBe(view!.vars[name]);
    }
    // It sends fewer variables than the page view, and at least the page name.
    expect(Object.keys(link!.vars).length).toBeLessThan(Object.keys(view!.vars).length);
    expect(link!.vars.pageName).toBe(view!.vars.pageName);
  });
});
