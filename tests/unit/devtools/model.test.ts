import { describe, expect, it } from 'vitest';
import { beaconRows, beaconVariables, ruleFirings } from '../../../src/devtools/model.ts';

describe('devtools model', () => {
  it('joins rule firings with their outcome (fired, condition not met, action failed), newest first', () => {
    const rows = ruleFirings([
      { name: 'rule-triggered', data: { rule: 'Page View', event: 'direct-call', seq: 4 } },
      { name: 'rule-completed', data: { rule: 'Page View', fired: true, seq: 4 } },
      { name: 'rule-triggered', data: { rule: 'Real user monitoring', event: 'window-loaded', seq: 5 } },
      { name: 'rule-condition-failed', data: { rule: 'Real user monitoring', fired: false, stoppedAt: 'URL contains /insights', seq: 5 } },
      { name: 'rule-triggered', data: { rule: 'Tag the body', event: 'dom-ready', seq: 6 } },
      { name: 'rule-action-failed', data: { rule: 'Tag the body', fired: true, stoppedAt: 'Custom Code', seq: 6 } },
    ]);
    expect(rows).toEqual([
      { seq: 6, rule: 'Tag the body', event: 'dom-ready', outcome: 'action failed', stoppedAt: 'Custom Code' },
      { seq: 5, rule: 'Real user monitoring', event: 'window-loaded', outcome: 'condition not met', stoppedAt: 'URL contains /insights' },
      { seq: 4, rule: 'Page View', event: 'direct-call', outcome: 'fired', stoppedAt: undefined },
    ]);
  });

  it('lists beacons sent and dropped, decoded', () => {
    const rows = beaconRows([
      { name: 'beacon', data: { fields: { hitType: 't', pageName: 'acme:home:x', events: 'event49', eVar2: 'b', eVar10: 'c', prop1: 'D=v1', params: {} } } },
      { name: 'beacon-dropped', data: { reason: 'consent', message: 'EU compliance was not acknowledged by the user.', hit: { type: 't' } } },
    ]);
    expect(rows.map((r) => [r.kind, r.pageName, r.dropped])).toEqual([
      ['dropped', '', 'EU compliance was not acknowledged by the user.'],
      ['page view', 'acme:home:x', undefined],
    ]);
    expect(beaconVariables(rows[1].fields).map(([k]) => k)).toEqual(['events', 'hitType', 'pageName', 'eVar2', 'eVar10', 'prop1']);
  });

  it('shows a beacon the transport set aside or gave up, with its refusals', () => {
    const rows = beaconRows([
      { name: 'beacon-set-aside', data: { url: 'http://c/b/ss/x', attempts: 3, answered: 3, last: 'HTTP 500' } },
      { name: 'beacon-given-up', data: { url: 'http://c/b/ss/x', attempts: 10, answered: 10, last: 'HTTP 500' } },
    ]);
    expect(rows.map((r) => [r.kind, r.dropped, r.fields.url])).toEqual([
      ['given up', 'given up after 10 refusals (HTTP 500)', 'http://c/b/ss/x'],
      ['set aside', 'set aside after 3 refusals (HTTP 500)', 'http://c/b/ss/x'],
    ]);
  });
});
