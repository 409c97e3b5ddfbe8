/** offtag-triggers.js: registers the page triggers for offtag-effects.js, which loads this file when the worker's `listen` effect asks (docs/triggers.md). */
import { installTriggers } from './triggers.ts';

(window as unknown as { offtagTriggers: typeof installTriggers }).offtagTriggers = installTriggers;
