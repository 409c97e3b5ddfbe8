/** The store's privacy choices: the cookies the container reads for consent, and what each does. */
import { setTargetingOff, setTracking, useStore } from './store.ts';

export function Privacy() {
  const { tracking, targetingOff } = useStore();
  return (
    <section className="card privacy" id="privacy">
      <h2>Privacy choices</h2>
      <label className="check">
        <input type="checkbox" id="consent-tracking" checked={tracking} onChange={(e) => setTracking(e.target.checked)} />
        <span>
          <strong>Analytics tracking</strong> (cookie <code>sat_track={tracking ? 'true' : 'false'}</code>). On, the container sends
          page-view and link beacons. Off, it sends and keeps nothing: each event only logs{' '}
          <em>EU compliance was not acknowledged by the user.</em> in the console. The demo starts with it on;
          a real store asks first.
        </span>
      </label>
      <label className="check">
        <input type="checkbox" id="consent-targeting" checked={targetingOff} onChange={(e) => setTargetingOff(e.target.checked)} />
        <span>
          <strong>Opt out of targeting cookies</strong> (OneTrust group <code>C0007:0</code> in <code>OptanonConsent</code>). The
          container then keeps Datadog RUM off in the insights area; analytics is not affected.
        </span>
      </label>
    </section>
  );
}
