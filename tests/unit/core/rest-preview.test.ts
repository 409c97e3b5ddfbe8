/**
 * Reading the kept preview choice out of `document.cookie` (core/preview.ts `cookieValue`), past
 * what tests/unit/publish/preview.test.ts checks of the decision.
 *
 * Equivalent mutants, with why (core/preview.ts): `cookies ?? ''` made `?? "Stryker was here!"` in
 * `previewOf`, both where `?offtag_env=` ends a preview and where no parameter reads the kept
 * value: that text holds no `offtag_env=` cookie, so it answers as the empty string does.
 */
import { describe, expect, it } from 'vitest';
import { cookieValue, previewOf } from '../../../src/worker-engine/core/preview.ts';

const page = 'https://shop.example.com/p';

describe('the kept preview choice', () => {
  it('is found whatever the space after ";" (none, one, several)', () => {
    expect(previewOf(page, 'a=1;offtag_env=development', 'production')).toEqual({ env: 'development' });
    expect(cookieValue('a=1;   offtag_env=staging; b=2', 'offtag_env')).toBe('staging');
  });

  it('is the cookie of that exact name: a longer name that starts with it is another cookie', () => {
    expect(previewOf(page, 'offtag_env2=staging', 'production')).toEqual({});
    expect(cookieValue('offtag_envx=1; offtag_env=dev', 'offtag_env')).toBe('dev');
    expect(cookieValue('offtag_envx=1', 'offtag_env')).toBeUndefined();
  });
});
