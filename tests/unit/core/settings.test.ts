/**
 * `window.offtagConfig` checked against the defaults (docs/spec-coverage.md D1): every rejection said, the default kept.
 *
 * Equivalent mutant (core/settings.ts): in the page-setting check, `pageSetting(…) !== value` made
 * `false`. For the keys that reach it (brand, dataLayer, workerUrl; environment is checked before),
 * `pageSetting` refuses a string only when it is `''` and the key is not workerUrl, which is exactly
 * the second test of that line, so the first adds no case of its own.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS as ENGINE_DEFAULTS,
  defaultsFor,
  internalFiltersFor,
  originFor,
  reportSuiteFor,
  resolveSettings as resolveFor,
} from '../../../src/worker-engine/core/settings.ts';
import { storefront } from '../../../containers/storefront/container.ts';
import type { StorefrontSettings } from '../../../containers/storefront/settings.ts';

// The storefront's settings: the engine's defaults with the container's over them, one validator.
const DEFAULT_SETTINGS = defaultsFor(storefront) as ReturnType<typeof defaultsFor> & StorefrontSettings;
const resolveSettings = (raw: unknown) => {
  const r = resolveFor(raw, storefront);
  return { ...r, settings: r.settings as typeof DEFAULT_SETTINGS };
};

describe('resolveSettings', () => {
  it('no config (undefined or null) gives the defaults, a copy that changing does not reach the defaults', () => {
    for (const raw of [undefined, null]) {
      const { settings, problems } = resolveSettings(raw);
      expect(problems).toEqual([]);
      expect(settings).toEqual(DEFAULT_SETTINGS);
      settings.rum.allowedTracingUrls.push('https://x.example');
      settings.reportSuites.production = 'changed';
    }
    expect(DEFAULT_SETTINGS.rum.allowedTracingUrls).not.toContain('https://x.example');
    expect(DEFAULT_SETTINGS.reportSuites.production).toBe('acmeprod');
  });

  it('a config that is not an object (an array, a number) is refused whole, with its type', () => {
    expect(resolveSettings([1]).problems).toEqual(['offtagConfig must be an object; got array. Using the default settings.']);
    const n = resolveSettings(5);
    expect(n.problems).toEqual(['offtagConfig must be an object; got number. Using the default settings.']);
    expect(n.settings).toEqual(DEFAULT_SETTINGS);
  });

  it('accepts good values of every kind: strings, booleans, the three environments, nested objects, string arrays', () => {
    for (const environment of ['development', 'staging', 'production']) {
      expect(resolveSettings({ environment }).settings.environment).toBe(environment);
    }
    const { settings, problems } = resolveSettings({
      trackingServer: 'http://127.0.0.1:4175',
      debug: true,
      reportSuites: { staging: 'st' },
      rum: { allowedTracingUrls: ['https://a.example'], proxy: 'https://proxy.example/rum' },
      workerUrl: '',
    });
    expect(problems).toEqual([]);
    expect(settings.trackingServer).toBe('http://127.0.0.1:4175');
    expect(settings.debug).toBe(true);
    expect(settings.reportSuites).toEqual({ production: 'acmeprod', staging: 'st', development: 'acmedev' });
    expect(settings.rum.allowedTracingUrls).toEqual(['https://a.example']);
    expect(settings.rum.proxy).toBe('https://proxy.example/rum');
    expect(settings.rum.site).toBe('datadoghq.com');
  });

  it('a string array is copied, not shared with the page', () => {
    const urls = ['https://a.example'];
    const { settings } = resolveSettings({ rum: { allowedTracingUrls: urls } });
    urls.push('https://b.example');
    expect(settings.rum.allowedTracingUrls).toEqual(['https://a.example']);
  });

  it('says each rejection with the path, what was given and the default kept', () => {
    const { settings, problems } = resolveSettings({
      environment: 7,
      brand: '',
      dataLayer: 'digitalData',
      debug: 'yes',
      reportSuites: 'acme',
      rum: { allowedTracingUrls: ['ok', 3], proxy: 'ftp://x', partytown: null },
      amplitude: { apiKey: 1 },
      nested: { deep: 1 },
    });
    expect(problems).toEqual([
      'offtagConfig.environment must be one of development, staging, production; got 7. Using "production".',
      'offtagConfig.brand must be a non-empty string; got "". Using "acme".',
      'offtagConfig.debug must be a boolean; got string. Using false.',
      'offtagConfig.reportSuites must be an object; got string. Using the default.',
      'offtagConfig.rum.allowedTracingUrls must be an array of strings; got array. Using the default.',
      'offtagConfig.rum.proxy must be an http(s) URL or \'\'; got "ftp://x". Using "".',
      'offtagConfig.rum.partytown must be a boolean; got null. Using false.',
      'offtagConfig.amplitude.apiKey must be a string; got number. Using "".',
      'offtagConfig.nested is not a setting; it is ignored.',
    ]);
    expect(settings).toEqual(DEFAULT_SETTINGS);
  });

  it('an array where an object belongs, and an object where an array belongs, are refused by their type', () => {
    expect(resolveSettings({ rum: [] }).problems).toEqual(['offtagConfig.rum must be an object; got array. Using the default.']);
    expect(resolveSettings({ rum: { allowedTracingUrls: {} } }).problems).toEqual([
      'offtagConfig.rum.allowedTracingUrls must be an array of strings; got object. Using the default.',
    ]);
    expect(resolveSettings({ rum: null }).problems).toEqual(['offtagConfig.rum must be an object; got null. Using the default.']);
  });

  it('rum.proxy takes an http or https URL (any case) or the empty string', () => {
    for (const proxy of ['', 'http://a.example', 'HTTPS://b.example/p']) expect(resolveSettings({ rum: { proxy } }).problems).toEqual([]);
    for (const proxy of ['https://', '//a.example', 'a.example']) expect(resolveSettings({ rum: { proxy } }).problems).toHaveLength(1);
  });
});

describe('settings helpers', () => {
  it('reportSuiteFor picks the suite of the environment', () => {
    const s = resolveSettings({ environment: 'staging' }).settings;
    expect(reportSuiteFor(s)).toBe('acmestage');
  });

  it('internalFiltersFor: the setting with {hostname} the page host, or javascript: and the page host', () => {
    expect(internalFiltersFor(DEFAULT_SETTINGS, 'shop.example.com')).toBe('javascript:,keepstock,shop.example.com');
    expect(internalFiltersFor(ENGINE_DEFAULTS, 'news.example')).toBe('javascript:,news.example');
    expect(internalFiltersFor({ ...DEFAULT_SETTINGS, linkInternalFilters: '' }, 'news.example')).toBe('javascript:,news.example');
    expect(internalFiltersFor({ ...DEFAULT_SETTINGS, linkInternalFilters: 'a.example' }, 'shop.example.com')).toBe('a.example');
  });

  it('originFor: a bare host takes the scheme; a full origin stays, without trailing slashes', () => {
    expect(originFor('metrics.example.com', 'https:')).toBe('https://metrics.example.com');
    expect(originFor('metrics.example.com', 'http:')).toBe('http://metrics.example.com');
    expect(originFor('http://127.0.0.1:4175//', 'https:')).toBe('http://127.0.0.1:4175');
    expect(originFor('HTTPS://a.example', 'http:')).toBe('HTTPS://a.example');
    expect(originFor('xhttps://a.example', 'http:')).toBe('http://xhttps://a.example');
  });
});

describe('a container\'s settings', () => {
  it('the engine\'s defaults name no container; a container adds its own and replaces the engine\'s', () => {
    expect(Object.keys(ENGINE_DEFAULTS)).not.toContain('rum');
    expect(ENGINE_DEFAULTS.reportSuites).toEqual({ production: '', staging: '', development: '' });
    expect(ENGINE_DEFAULTS.currency).toBe('USD');
    expect(ENGINE_DEFAULTS.listDelimiter).toBe(',');
    const own = { settings: { currency: 'EUR', site: { section: 'news' } } };
    expect(defaultsFor(own)).toMatchObject({ currency: 'EUR', site: { section: 'news' }, listDelimiter: ',' });
  });

  it('a page value for a container setting is checked against the container default, by the same rules', () => {
    const own = { settings: { site: { section: 'news', tags: ['a'] } } };
    const { settings, problems } = resolveFor({ site: { section: 3, tags: ['b'], extra: 1 }, currency: 'CHF' }, own);
    expect(problems).toEqual([
      'offtagConfig.site.section must be a string; got number. Using "news".',
      'offtagConfig.site.extra is not a setting; it is ignored.',
    ]);
    expect(settings).toMatchObject({ site: { section: 'news', tags: ['b'] }, currency: 'CHF' });
  });
});

describe('the engine\'s own defaults, as a page without offtagConfig runs them', () => {
  it('the ID service host, the consent cookie, the download types, the ID-sync origin and the log switch', () => {
    const { settings, problems } = resolveFor(undefined);
    expect(problems).toEqual([]);
    expect(settings).toMatchObject({
      idServiceHost: 'dpm.demdex.net',
      trackingConsentCookie: 'sat_track',
      trackingConsentValues: ['true'],
      linkDownloadFileTypes: 'exe,zip,wav,mp3,mov,mpg,avi,wmv,pdf,doc,docx,xls,xlsx,ppt,pptx',
      idSyncOrigin: '',
      debug: false,
      alwaysLog: false,
    });
  });

  it('a container that sets part of a nested default keeps the engine\'s other keys', () => {
    expect(defaultsFor({ settings: { reportSuites: { production: 'prod' } } }).reportSuites).toEqual({ production: 'prod', staging: '', development: '' });
    // A value that is not an object replaces the default whole.
    expect(defaultsFor({ settings: { reportSuites: ['x'] } }).reportSuites).toEqual(['x']);
  });

  it('a page setting the bridge reads (brand, dataLayer, workerUrl) takes any non-empty string; workerUrl also \'\'', () => {
    const { settings, problems } = resolveFor({ brand: 'b', dataLayer: 'dl', workerUrl: '' });
    expect(problems).toEqual([]);
    expect(settings).toMatchObject({ brand: 'b', dataLayer: 'dl', workerUrl: '' });
  });

  it('a container check that refuses a value names the default kept: text as it is, in quotes; anything else as JSON', () => {
    const own = {
      settings: { site: 'the "news" site', limit: 5 },
      settingChecks: { site: (v: unknown) => (v === 'bad' ? 'a known site' : undefined), limit: (v: unknown) => ((v as number) < 0 ? 'at least 0' : undefined) },
    };
    expect(resolveFor({ site: 'bad', limit: -1 }, own).problems).toEqual([
      'offtagConfig.site must be a known site; got "bad". Using "the "news" site".',
      'offtagConfig.limit must be at least 0; got -1. Using 5.',
    ]);
  });
});

describe('names every object has', () => {
  it('toString, hasOwnProperty or __proto__ in offtagConfig are no settings: said and ignored, at any depth', () => {
    const raw = JSON.parse('{"toString":"x","hasOwnProperty":1,"__proto__":{"debug":true},"reportSuites":{"constructor":"y"}}') as unknown;
    const { settings, problems } = resolveFor(raw);
    expect(problems).toEqual([
      'offtagConfig.toString is not a setting; it is ignored.',
      'offtagConfig.hasOwnProperty is not a setting; it is ignored.',
      'offtagConfig.__proto__ is not a setting; it is ignored.',
      'offtagConfig.reportSuites.constructor is not a setting; it is ignored.',
    ]);
    expect(settings).toEqual(ENGINE_DEFAULTS);
    expect(Object.getPrototypeOf(settings)).toBe(Object.prototype);
    expect(Object.keys(settings)).toEqual(Object.keys(ENGINE_DEFAULTS));
  });
});
