/** The corpus runner's main-thread attribution (bench/corpus/attribute.ts): whose code each profile sample is. */
import { describe, expect, it } from 'vitest';
import { pageCodeStart, partOf, selfTime, type CpuProfile } from '../../../bench/corpus/attribute.ts';
import { PAGE_CODE_COMMENT, wrapBridge } from '../../../tools/build/page-reads.ts';

const frame = (url: string, lineNumber = 0, functionName = 'f') => ({ url, lineNumber, functionName });

describe('corpus attribution', () => {
  it("finds where offtag.js's page code begins, as the build writes it", () => {
    const js = wrapBridge('a();\nb();', '{x: function () {}}');
    const line = pageCodeStart(js);
    expect(js.split('\n')[line]).toBe(PAGE_CODE_COMMENT);
    expect(line).toBe(4);
    expect(pageCodeStart('(()=>{})();')).toBe(Infinity);
  });

  it('names each side\'s code', () => {
    const o = (url: string, line = 0) => partOf('offtag', frame(url, line), 4);
    expect(o('https://shop.example/dist/offtag.js', 2)).toBe('offtag');
    expect(o('https://shop.example/dist/offtag.js', 4)).toBe('tag code on the page');
    expect(o('https://shop.example/dist/offtag-effects.js')).toBe('offtag');
    expect(o('https://assets.adobedtm.com/x/RC0abc-source.min.js')).toBe('tag code on the page');
    expect(o('https://assets.adobedtm.com/offtag-corpus/launch-06a0e58d.min.js')).toBe('site');
    expect(o('https://shop.example/')).toBe('site');
    const t = (url: string) => partOf('turbine', frame(url), 4);
    expect(t('https://assets.adobedtm.com/offtag-corpus/launch-06a0e58d.min.js')).toBe('turbine');
    expect(t('https://assets.adobedtm.com/x/AppMeasurement.min.js')).toBe('turbine');
    expect(t('https://assets.adobedtm.com/x/RC0abc-source.min.js')).toBe('tag code on the page');
    expect(t('https://shop.example/driver.js')).toBe('site');
    expect(partOf('turbine', frame('', 0, '(garbage collector)'), 0)).toBe('browser');
    expect(partOf('turbine', frame('', 0, '(idle)'), 0)).toBeUndefined();
  });

  it('sums self time: each sample lasts until the next; a built-in counts as its caller', () => {
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('', 0, '(root)'), children: [2, 3, 4] },
        { id: 2, callFrame: frame('https://s/offtag.js', 1) },
        { id: 3, callFrame: frame('https://s/offtag.js', 9), children: [5] },
        { id: 4, callFrame: frame('', 0, '(idle)') },
        // A built-in the page code called: the page code's.
        { id: 5, callFrame: frame('', 0, 'appendChild') },
      ],
      samples: [2, 3, 3, 4, 5, 2],
      timeDeltas: [50, 1000, 2000, 3000, 400, 500],
    };
    const got = selfTime(profile, (f) => partOf('offtag', f, 4));
    expect(got).toEqual({ offtag: 1, turbine: 0, 'tag code on the page': 5.5, site: 0, browser: 0 });
  });

  it("an inline script offtag.js inserted (custom code it writes into the page) is the library's code; under turbine, turbine's; a built-in it calls, the same", () => {
    const inline = (id: number, children?: number[]) => ({ id, callFrame: { ...frame('', 0, ''), scriptId: '31' }, ...(children ? { children } : {}) });
    const builtin = (id: number, name: string, children?: number[]) => ({ id, callFrame: { ...frame('', 0, name), scriptId: '0' }, ...(children ? { children } : {}) });
    const profile = (url: string): CpuProfile => ({
      nodes: [
        { id: 1, callFrame: frame('', 0, '(root)'), children: [2] },
        { id: 2, callFrame: frame(url, 1), children: [3] },
        builtin(3, 'appendChild', [4]),
        inline(4, [5]),
        builtin(5, 'querySelector'),
      ],
      samples: [2, 3, 4, 5, 2],
      timeDeltas: [0, 1000, 2000, 3000, 4000],
    });
    expect(selfTime(profile('https://s/offtag.js'), (f) => partOf('offtag', f, 4))).toEqual({ offtag: 3, turbine: 0, 'tag code on the page': 7, site: 0, browser: 0 });
    expect(selfTime(profile('https://assets.adobedtm.com/offtag-corpus/launch-1.min.js'), (f) => partOf('turbine', f, 4))).toEqual({ offtag: 0, turbine: 10, 'tag code on the page': 0, site: 0, browser: 0 });
  });
});
