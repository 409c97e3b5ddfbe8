import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../tools/cli.ts';
import { parseServeArgs } from '../../../tools/dev-server.ts';

/** The `offtag` command's output formats (the package test runs the installed command itself). */
const FIXTURE = new URL('../../fixtures/storefront/page-view-logged-in.json', import.meta.url);

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((t) => ((out += String(t)), true));
  vi.spyOn(console, 'error').mockImplementation((t) => void (err += `${t}\n`));
  const code = await main(argv);
  vi.restoreAllMocks();
  return { code, out, err };
}

afterEach(() => vi.restoreAllMocks());

describe('offtag replay', () => {
  it('prints one summary line per event by default', async () => {
    const { code, out } = await run(['replay', FIXTURE.pathname]);
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    const events = JSON.parse(readFileSync(FIXTURE, 'utf8')).events as unknown[];
    expect(lines).toHaveLength(events.length);
    expect(lines[0]).toMatch(/^#1 library-loaded: rule Visitor service · id-service GET https:\/\/dpm\.demdex\.net\/id · cookies AMCV_/);
    expect(lines[1]).toMatch(
      /^#2 direct-call "Page View": rule Page View · beacon t acmeprod pageName=acme:educational content:order management events=event49 vars=25 · cookies s_nr30, /,
    );
    expect(lines[3]).toBe(
      '#4 direct-call "Element Interactions": rule Element Interactions · beacon tl acmeprod lnk_o linkName=btn-reorder pageName=acme:educational content:order management events=event49 vars=4',
    );
  });


  it('a missing file is one line and exit code 2', async () => {
    const { code, err } = await run(['replay', '/nonexistent/fixture.json']);
    expect(code).toBe(2);
    expect(err.trimEnd().split('\n')).toHaveLength(1);
    expect(err).toMatch(/^offtag replay: cannot read \/nonexistent\/fixture\.json: /);
  });
});

describe('offtag serve options', () => {
  it('--port moves all five servers; each can be set on its own; --host', () => {
    expect(parseServeArgs(['--port', '8080', '--collector-port=9000', '--host', '0.0.0.0', '--quiet'])).toEqual({
      quiet: true,
      host: '0.0.0.0',
      base: { page: 8080, scripts: 8081, collector: 9000, idService: 8083, rum: 8084 },
    });
  });
  it('a bad option is one line', () => {
    expect(() => parseServeArgs(['--port', 'abc'])).toThrow('offtag serve: --port must be a port number (1-65535); got abc');
    expect(() => parseServeArgs(['--prot', '1'])).toThrow('offtag serve: unknown option --prot');
    expect(() => parseServeArgs(['--port', '8080', '--rum-port', '8081'])).toThrow(/two servers cannot share a port/);
  });
});

describe('a command that needs a development tool', () => {
  it('names the package to add in one line (the installed CLI bundles only what replay, decode and serve use)', async () => {
    const { missingPackage } = await import('../../../tools/cli.ts');
    const err = (message: string, code = 'ERR_MODULE_NOT_FOUND') => Object.assign(new Error(message), { code });
    expect(missingPackage(err("Cannot find package 'vite' imported from /x/dist/cli/build.mjs"))).toBe('vite');
    expect(missingPackage(err("Cannot find module '@adobe/reactor-turbine-schemas/schemas/container.json'", 'MODULE_NOT_FOUND'))).toBe('@adobe/reactor-turbine-schemas');
    expect(missingPackage(err("Cannot find module './x.ts'"))).toBeUndefined();
    expect(missingPackage(new Error('other'))).toBeUndefined();
  });
});
