/**
 * offtag-devtools.js: the overlay, loaded only on demand (a script tag, a bookmarklet or the demo's
 * button; nothing in offtag.js loads it). It reads the bridge's metrics and asks the worker,
 * through its Comlink API, for data element values, the devtools feed and the beacon queue.
 * `offtag.devtoolsApi` is that API, for tools and tests.
 */
import { createRoot } from 'react-dom/client';
import { wrap, type Remote } from 'comlink';
import type { WorkerApi } from '../protocol.ts';
import { Overlay, type Dock, type OverlaySource } from './Overlay.tsx';
import { CSS } from './styles.ts';

interface OfftagGlobal {
  metrics: OverlaySource['metrics'];
  base?: string;
  apiPort: MessagePort;
  devtoolsOpen?: boolean;
  devtoolsApi?: Remote<WorkerApi>;
  /** Opens the overlay again after it was closed (the script runs once per page). */
  openDevtools?: (dock?: Dock) => void;
}

/** Which side the overlay docks to: the script tag's `data-dock`, then the tab's last choice, else right. */
const DOCK_KEY = 'offtag_devtools_dock';
function initialDock(asked?: string | null): Dock {
  let kept: string | null = null;
  try {
    kept = sessionStorage.getItem(DOCK_KEY);
  } catch {
    /* storage refused: the default */
  }
  const d = asked ?? kept;
  return d === 'left' ? 'left' : 'right';
}
function keepDock(dock: Dock): void {
  try {
    sessionStorage.setItem(DOCK_KEY, dock);
  } catch {
    /* storage refused: the choice lasts this overlay only */
  }
}

function open(asked?: string | null): void {
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
    base: o.base,
    stage: (window as unknown as { _satellite?: { environment?: { stage?: string } } })._satellite?.environment?.stage,
  };
  root.render(
    <Overlay
      source={source}
      dock={initialDock(asked)}
      onDock={keepDock}
      onClose={() => {
        root.unmount();
        host.remove();
        o.devtoolsOpen = false;
      }}
    />,
  );
}

const tag = document.currentScript as HTMLScriptElement | null;
const o = (window as unknown as { offtag?: OfftagGlobal }).offtag;
if (o) o.openDevtools = (dock) => open(dock);
open(tag?.dataset.dock);
