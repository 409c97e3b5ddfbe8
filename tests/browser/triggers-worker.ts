// The worker of tests/browser/triggers.test.ts: the real worker shell around a container whose
// rules use every page trigger; each rule says, in a log the page gets, that it ran and what it read.
import { startWorker } from '../../src/worker-engine/worker-shell.ts';
import type { Container, Rule, RuleContext } from '../../src/worker-engine/core/types.ts';

type N = 'cart size';
type Ctx = RuleContext<N, object>;
const say = (name: string, text: (c: Ctx) => unknown = () => '') => [{ name: 'say', fn: (c: Ctx) => c.log('log', `ran ${name}${String(text(c)) ? ' ' + String(text(c)) : ''}`) }];
const rule = (name: string, events: Rule<N, object>['events'], text?: (c: Ctx) => unknown): Rule<N, object> => ({ name, events, actions: say(name, text) });

const container: Container<N, object> = {
  name: 'triggers-test',
  sessionKeys: [],
  // The engine's messages are what these tests read: printed without debug on.
  settings: { alwaysLog: true },
  dataElements: { 'cart size': { type: 'data-layer', path: 'cart.size' } },
  rules: [
    rule('done', [{ type: 'direct-call', id: 'done' }]),
    rule('buy', [{ type: 'click', selector: '.buy' }], (c) => c.replaceTokens('%this.id% %target.tagName% %this.getAttribute(data-sku)%')),
    rule('card', [{ type: 'click', selector: '.card' }], (c) => c.replaceTokens('%this.id%')),
    rule('cart add', [{ type: 'custom-event', name: 'cart:add' }], (c) => c.replaceTokens('%event.detail.sku% %this.id%')),
    rule('doc ping', [{ type: 'custom-event', name: 'ping', target: 'document' }]),
    rule('signup', [{ type: 'form-submit', selector: 'form.signup' }], (c) => c.replaceTokens('%this.id%')),
    rule('promo', [{ type: 'element-visible', selector: '.promo' }], (c) => c.replaceTokens('%this.id%')),
    rule('p2 every', [{ type: 'element-visible', selector: '#p2', everyEntry: true }]),
    rule('half', [{ type: 'scroll-depth', percent: 50 }]),
    rule('tick', [{ type: 'timer', ms: 20, limit: 3 }], (c) => c.replaceTokens('%event.count%')),
    rule('sentinel', [{ type: 'timer', ms: 400 }]),
    rule('cart changed', [{ type: 'data-element-change', name: 'cart size' }], (c) => c.replaceTokens('%event.previous%>%cart size%')),
    // A wrong trigger: said once by the worker, the rest stands.
    rule('wrong', [{ type: 'scroll-depth', percent: 0 }]),
  ],
};

startWorker({
  container,
  services: () => ({}),
  batchHoldMs: 5_000,
  beacons: () => ({ send: () => {} }),
});
