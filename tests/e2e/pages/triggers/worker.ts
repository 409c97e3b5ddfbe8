// The worker of tests/e2e/triggers.spec.ts (built by the test, served in place of
// /test/triggers/offtag-worker.js): the real worker shell around a container whose rules use the
// page triggers; each rule logs to the page's console that it ran.
import { startWorker } from '../../../../src/worker-engine/worker-shell.ts';
import type { Container, Rule, RuleContext } from '../../../../src/worker-engine/core/types.ts';

type N = 'cart size';
const rule = (name: string, events: Rule<N, object>['events'], text = ''): Rule<N, object> => ({
  name,
  events,
  actions: [{ name: 'say', fn: (c: RuleContext<N, object>) => c.log('log', `ran ${name}${text && ' ' + String(c.replaceTokens(text))}`) }],
});

const container: Container<N, object> = {
  name: 'triggers-e2e',
  sessionKeys: [],
  // The rules' messages are what the test reads: printed without debug on.
  settings: { alwaysLog: true },
  dataElements: { 'cart size': { type: 'data-layer', path: 'cart.size' } },
  rules: [
    rule('buy', [{ type: 'click', selector: '.buy' }], '%this.getAttribute(data-sku)%'),
    rule('cart add', [{ type: 'custom-event', name: 'cart:add' }], '%event.detail.sku%'),
    rule('signup', [{ type: 'form-submit', selector: 'form.signup' }], '%this.id%'),
    rule('promo', [{ type: 'element-visible', selector: '#promo' }]),
    rule('bottom', [{ type: 'scroll-depth', percent: 90 }]),
    rule('tick', [{ type: 'timer', ms: 50, limit: 2 }], '%event.count%'),
    rule('cart changed', [{ type: 'data-element-change', name: 'cart size' }], '%cart size%'),
  ],
};

startWorker({ container, services: () => ({}), beacons: () => ({ send: () => {} }) });
