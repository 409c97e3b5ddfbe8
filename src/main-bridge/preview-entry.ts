/** offtag-preview.js: preview's page side, for offtag-effects.js, which loads this file only in a browser that previews another environment (docs/publishing.md, "Preview"). */
import type { EngineInput } from '../protocol.ts';
import { preview, previewDone } from './preview.ts';
import type { RareEffect, RareHooks } from './rare-effects.ts';

/** `frameMessage` is offtag.js's `post`, which posts any input. */
const run = (e: Extract<RareEffect, { type: 'preview' | 'preview-done' }>, hooks: RareHooks) =>
  e.type == 'preview' ? preview(e.env, e.own, hooks.base, hooks.frameMessage as (input: EngineInput) => void) : previewDone(e.calls, e.orphans);

(window as unknown as { offtagPreview: typeof run }).offtagPreview = run;
