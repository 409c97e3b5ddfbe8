/**
 * The steps of imported Launch rules that run on the page (src/launch/page-steps.ts), in the
 * engine: the worker sends the code as text with its `%tokens%` replaced, the values of the data
 * elements it names and turbine's event; a rule that waits (the property sequences its components)
 * goes on only when the page answers, and stops with turbine's words when the page says the step
 * failed; a rule that does not wait goes on at once.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { defineContainer } from '../../../src/container/index.ts';
import * as launch from '../../../src/launch/index.ts';
import type { EngineInput, LaunchEffect } from '../../../src/protocol.ts';
import { drive, logs, logsOf, SITES, testEnv } from '../harness.ts';

// Custom code's logger prints as turbine's: its rocket and prefix, then the text.
const log = (text: string) => launch.customAction((w) => () => w._satellite.logger.log(text));
const printed = (text: string) => `🚀 [Custom Script] ${text}`;

/** Built in each test, not when the file loads, so that what it runs is each test's (mutation testing sees it). */
const build = () =>
  defineContainer({
  name: 'page steps',
  // Launch's actions are typed for the Adobe services; these rules use none of them.
  services: launch.withPage({ create: () => ({}) as never }),
  dataElements: launch.dataElements({
    'page type': launch.javascriptVariable('digitalData.page.type'),
    cart: launch.javascriptVariable('digitalData.cart'),
  }),
  rules: [
    launch.rule({
      name: 'waits for the page',
      events: [launch.directCall('go')],
      actions: [
        launch.pageCode("document.title = '%page type%';\nwindow.x = _satellite.getVar('cart');", { wait: true, names: ['cart'] }),
        log('after the page step'),
      ],
    }),
    launch.rule({
      name: 'does not wait',
      events: [launch.directCall('fire and forget')],
      actions: [launch.pageHtml('<b>%page type%</b>'), log('at once')],
    }),
    launch.rule({
      name: 'extension action',
      events: [launch.extensionEvent('acme-tags', 'ready', 1)],
      actions: [launch.moduleAction('Send To Acme', 'acme-tags/src/lib/actions/send.js', { item: '%page type%', list: ['%cart%', 'x'], nested: { n: 1 } }, { wait: true }), log('sent')],
    }),
  ],
});
let container: ReturnType<typeof build>;
beforeEach(() => {
  container = build();
});

function engine() {
  const d = drive({ container, services: container.services, env: testEnv(), page: SITES.shop, defaults: () => ({ url: 'https://shop.example.com/p', dataLayer: { page: { type: 'Product' }, cart: { total: 3 } } }) });
  const answer = (id: string, status: number, body = '') => d.engine.dispatch({ type: 'response', id, response: { status, body } } as EngineInput);
  return { ...d, answer };
}
const steps = (effects: readonly { type: string }[]) => effects.filter((e): e is LaunchEffect => e.type === 'launch');

describe('a page step in a rule that waits (the property sequences its components)', () => {
  it('carries the code with its tokens replaced, the values it names and the event; the rule goes on once the page answers', async () => {
    const { fire, answer } = engine();
    const first = await fire('go');
    const [step] = steps(first.effects);
    expect(step).toMatchObject({
      step: { js: "document.title = 'Product';\nwindow.x = _satellite.getVar('cart');" },
      name: 'Custom Code',
      rule: 'waits for the page',
      seq: 1,
      event: { $type: 'core.direct-call', identifier: 'go', $rule: { name: 'waits for the page' } },
      values: { cart: { total: 3 } },
    });
    expect(step!.answer).toMatch(/^page-step-/);
    // The rest of the rule waits for the page.
    expect(logs(first.effects)).not.toContain(printed('after the page step'));
    const later = await answer(step!.answer!, 200);
    expect(logs(later.effects)).toContain(printed('after the page step'));
  });

  it("holds the later rules of the page's one queue too, whatever their event, until the page answers (turbine's queue)", async () => {
    const { fire, answer } = engine();
    const [step] = steps((await fire('go')).effects);
    // A later event's rule waits behind the page step: neither its page step nor its custom code has run.
    const later = await fire('fire and forget');
    expect(steps(later.effects)).toEqual([]);
    expect(logs(later.effects)).not.toContain(printed('at once'));
    const answered = await answer(step!.answer!, 200);
    expect(logs(answered.effects)).toEqual([printed('after the page step'), printed('at once')]);
    expect(steps(answered.effects)).toEqual([expect.objectContaining({ rule: 'does not wait' })]);
  });

  it('stops the rule with turbine\'s words when the page says the step failed', async () => {
    const { fire, answer } = engine();
    const [step] = steps((await fire('go')).effects);
    const later = await answer(step!.answer!, 500, "Cannot set properties of null (setting 'x')");
    expect(logsOf(later, 'error')).toContain('Failed to execute "Custom Code" for "waits for the page" rule. Cannot set properties of null (setting \'x\')');
    expect(logs(later.effects)).not.toContain(printed('after the page step'));
  });

  it("an extension's action: its settings' tokens replaced everywhere, run with its display name; its event is a direct call of its own", async () => {
    const { fire, answer } = engine();
    const first = await fire({ type: 'direct-call', id: 'offtag-launch:acme-tags.ready:1', detail: { widget: 'w1' } });
    const [step] = steps(first.effects);
    expect(step).toMatchObject({
      step: { module: 'acme-tags/src/lib/actions/send.js', settings: { item: 'Product', list: [{ total: 3 }, 'x'], nested: { n: 1 } } },
      name: 'Send To Acme',
      event: { $type: 'acme-tags.ready', widget: 'w1', $rule: { name: 'extension action' } },
    });
    expect(logs((await answer(step!.answer!, 200)).effects)).toContain(printed('sent'));
  });
});

describe('a page step in a rule that does not wait', () => {
  it('is sent, and the rule goes on at once', async () => {
    const { fire } = engine();
    const batch = await fire('fire and forget');
    expect(steps(batch.effects)).toEqual([expect.objectContaining({ step: { html: '<b>Product</b>' }, rule: 'does not wait' })]);
    expect(steps(batch.effects)[0]!.answer).toBeUndefined();
    expect(logs(batch.effects)).toContain(printed('at once'));
  });
});

describe('the devtools feed', () => {
  it('marks the rule as run partly on the page', async () => {
    const { fire } = engine();
    const batch = await fire('fire and forget');
    expect(batch.effects).toContainEqual({ type: 'monitor', name: 'rule-page-part', data: { rule: 'does not wait', block: 'Custom Code', seq: 1 } });
  });
});
