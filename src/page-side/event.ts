/**
 * The event Launch code gets (turbine's synthetic event), made of the bridge's event: `$type`
 * (`core.<event>`, an extension's own type for its events), a direct call's `identifier` and
 * `detail`, a page trigger's matched element. One shape for the worker (src/launch) and the page
 * (page reads, steps), so custom code sees the same event wherever it runs.
 */
import type { EngineEvent, TriggerType } from '../protocol.ts';

/** The direct-call ids an imported extension's event sends (src/launch `extensionEvent`): `offtag-launch:<extension>.<event>:<n>`. */
export const EXTENSION_EVENT = 'offtag-launch:';

/** Core's event types for the bridge's page triggers. */
const TRIGGER_TYPES: Record<TriggerType, string> = {
  click: 'click',
  'custom-event': 'custom-event',
  'form-submit': 'submit',
  'element-visible': 'enters-viewport',
  'scroll-depth': 'scroll-depth',
  timer: 'time-on-page',
  'history-change': 'history-change',
  'element-exists': 'element-exists',
  hover: 'hover',
  'media-time-played': 'media-time-played',
  'data-layer-push': 'data-layer-push',
};

export function turbineEvent(e: EngineEvent, element?: unknown): Record<string, unknown> {
  if (e.type == 'direct-call') {
    if (!e.id.indexOf(EXTENSION_EVENT)) {
      // An extension's event: what its module gave the trigger, with its type.
      const detail = e.detail && typeof e.detail == 'object' ? (e.detail as Record<string, unknown>) : {};
      return { ...detail, $type: e.id.slice(EXTENSION_EVENT.length, e.id.lastIndexOf(':')) };
    }
    return { $type: 'core.direct-call', identifier: e.id, detail: e.detail };
  }
  const type = e.type == 'trigger' ? TRIGGER_TYPES[e.on] : e.type;
  return element ? { $type: 'core.' + type, element } : { $type: 'core.' + type };
}
