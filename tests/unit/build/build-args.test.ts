import { describe, expect, it } from 'vitest';
import { buildConstants, containerMissing, environmentSettings, sessionKeysOf, parseBuildArgs, workerEntry } from '../../../tools/build/build.ts';
import { news } from '../../../containers/news/container.ts';

/** `offtag build`'s arguments and what it writes into the bundles (docs/containers.md, "Build it"). */
describe('offtag build', () => {
  it('defaults to the storefront for production into dist/, with the demo', () => {
    expect(parseBuildArgs([])).toEqual({ container: 'containers/storefront/container.ts', env: 'production', out: 'dist', demo: true });
    expect(parseBuildArgs(['--container', 'containers/news/container.ts', '--env', 'staging', '--out', 'dist/news'])).toEqual({
      container: 'containers/news/container.ts',
      env: 'staging',
      out: 'dist/news',
      demo: false,
    });
  });

  it("a container file that is not there is one line: outside the checkout, the default's says to give --container", () => {
    expect(containerMissing('containers/storefront/container.ts', true)).toBeUndefined();
    expect(containerMissing('/nowhere/containers/storefront/container.ts', true)).toBe(
      "offtag build: give the container: --container <file> (without it the build looks for /nowhere/containers/storefront/container.ts, the storefront of Offtag's own checkout).",
    );
    expect(containerMissing('tags/contianer.ts', false)).toBe('offtag build: the container tags/contianer.ts does not exist.');
  });

  it('bad arguments are one line', () => {
    expect(parseBuildArgs(['--env', 'prod'])).toBe('offtag build: --env must be one of development, staging, production; got "prod".');
    expect(parseBuildArgs(['--out'])).toMatch(/^offtag build: --out needs a value\. usage: /);
    expect(parseBuildArgs(['--minify'])).toMatch(/^offtag build: unknown argument "--minify"\. usage: /);
  });

  it('development turns debug messages on; every environment sets the environment setting', () => {
    expect(environmentSettings('development')).toEqual({ environment: 'development', debug: true });
    expect(environmentSettings('staging')).toEqual({ environment: 'staging' });
    expect(environmentSettings('production')).toEqual({ environment: 'production' });
  });

  it("writes the container's page defaults, session keys and build info into the bundles", () => {
    const c = buildConstants(news, 'staging', '2026-01-02T03:04:05Z');
    expect(JSON.parse(c.__OFFTAG_PAGE_DEFAULTS__)).toEqual({ brand: 'news', dataLayer: 'newsData', environment: 'staging', workerUrl: '' });
    const keysFor = (src: string) => new Function(`return ${src}`)() as (brand: string) => string[];
    expect(keysFor(c.__OFFTAG_SESSION_KEYS__)('news')).toEqual(['com.adobe.reactor.dataElements.campaign']);
    expect(keysFor(sessionKeysOf(['{brand}UserData', 'x{brand}y{brand}', 'plain']))('acme')).toEqual(['acmeUserData', 'xacmeyacme', 'plain']);
    expect(JSON.parse(c.__OFFTAG_BUILD_INFO__)).toEqual({
      buildDate: '2026-01-02T03:04:05Z',
      turbineBuildDate: '2026-01-02T03:04:05Z',
      turbineVersion: 'offtag',
      environment: 'staging',
      minified: true,
      containerName: 'news',
      containerVersion: '0.3.0',
    });
  });

  it("the worker's entry imports the container and starts the shell with the environment's settings", () => {
    const entry = workerEntry('/x/containers/news/container.ts', 'development');
    expect(entry).toContain('import * as mod from "/x/containers/news/container.ts";');
    expect(entry).toContain('{"environment":"development","debug":true}');
    expect(entry).toContain('startWorker({ container, beacons: createBeaconSink });');
  });
});
