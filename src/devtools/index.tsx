/**
 * offtag-devtools.js: the overlay, loaded only on demand (a script tag, a bookmarklet or the demo's
 * button; nothing in offtag.js loads it). It reads the bridge's metrics and asks the worker,
 * through its Comlink API, for data element values, the devtools feed and the beacon queue.
 * `offtag.devtoolsApi` is that API, for tools and tests.
 */
import { createRoot } from 'react-dom/client';
import { wrap, type Remote } from 'comlink';
import type { WorkerApi } from '../protocol.ts';
import { Overlay, type OverlaySource } from './Overlay.tsx';
import { CSS } from './styles.ts';

interface OfftagGlobal {
  metrics: OverlaySource['metrics'];
  apiPort: MessagePort;
  devtoolsOpen?: boolean;
  devtoolsApi?: Remote<WorkerApi>;
}

function open(): void {
  const o = (window as unknown as { offtag?: OfftagGlobal }).offtag;
  if (!o) {
    console.error('Offtag devtools: offtag.js is not on this page.');
    return;
  }
  if (o.devtoolsOpen) return;
  o.devtoolsOpen = true;
  const api = (o.devtoolsApi ??= wrap<WorkerApi>(o.apiPort));
  const host = document.createElement('div');
  host.id = 'offtag-devtools';
  const shadow = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = CSS;
  const mount = document.createElement('div');
  shadow.append(style, mount);
  document.body.appendChild(host);
  const root = createRoot(mount);
  const source: OverlaySource = {
    metrics: () => o.metrics(),
    monitor: () => api.monitor(),
    values: () => api.values(),
    pendingBeacons: () => api.pendingBeacons(),
    session: () => api.session(),
  };
  root.render(
    <Overlay
      source={source}
      onClose={() => {
        root.unmount();
        host.remove();
        o.devtoolsOpen = false;
      }}
    />,
  );
}

open();
