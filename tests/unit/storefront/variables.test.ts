/**
 * The analytics variable mapping (DECISIONS.md §5) and its compile-time ranges (SPEC.md §9).
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

describe('PAGE_VIEW_VARIABLES', () => {
  it('maps the variables of spec-coverage.md D5', () => {
    expect(PAGE_VIEW_VARIABLES).toEqual({
      pageName: '%page name%',
      channel: '%line of business%',
      server: '%hostname%',
      hier1: '%hierarchy%',
      eVar1: '%login state%',
      eVar2: '%account number%',
      eVar3: '%SAP account id%',
      eVar4: '%customer combination key%',
      eVar5: '%community type%',
      eVar6: '%RML state%',
      eVar7: '%organization id%',
      eVar8: '%user identifier%',
      eVar9: '%client profile id%',
      eVar10: '%sales group%',
      eVar11: '%platform id%',
      eVar12: '%language%',
      eVar13: '%template%',
      eVar14: '%content title%',
      eVar15: '%previous page name%',
      eVar16: '%new/repeat%',
      eVar17: '%visit number%',
      eVar18: '%days since last visit%',
      eVar19: '%time since last visit%',
      eVar20: '%product SKU%',
      prop1: 'D=v1',
      prop2: 'D=pageName',
      list1: '%element impression ids%',
      list2: '%internal campaign impressions%',
      events: '%login event%',
    });
  });
  it('every token names a data element and every name is an AppMeasurement variable', () => {
    expect(tokenNames('%page name%|%user%')).toEqual(['page name', 'user']);
    for (const mapping of [PAGE_VIEW_VARIABLES, MODAL_VIEW_VARIABLES, LINK_VARIABLES]) {
      for (const [name, source] of Object.entries(mapping)) {
        expect(queryKeyOf(name), name).toBeDefined();
        for (const token of tokenNames(source as string)) expect(Object.keys(dataElements)).toContain(token);
      }
    }
  });
  it('the modal view differs only in its page name', () => {
    expect({ ...MODAL_VIEW_VARIABLES, pageName: PAGE_VIEW_VARIABLES.pageName }).toEqual(PAGE_VIEW_VARIABLES);
    expect(MODAL_VIEW_VARIABLES.pageName).toBe('%modal page name%');
  });
});

describe('link beacons', () => {
  it('carry pageName, eVar1, eVar4, list1, list2 and events, filtered to event49', () => {
    expect(LINK_TRACK_VARS.join(',')).toBe('pageName,eVar1,eVar4,list1,list2,events');
    expect(LINK_TRACK_EVENTS.join(',')).toBe('event49');
    expect(Object.keys(LINK_VARIABLES)).toEqual([...LINK_TRACK_VARS]);
  });
});
