/** offtag-effects.js: registers the rare effects for offtag.js, which loads this file on demand. */
import { applyRareEffect } from './rare-effects.ts';

(window as unknown as { offtagRareEffects: typeof applyRareEffect }).offtagRareEffects = applyRareEffect;
