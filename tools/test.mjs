// `npm test`: type check, build, unit and browser tests (Vitest), end-to-end tests (Playwright)
// the delivery fault suite's quick subset (tools/faults), and the bench's quick smoke run, then
// one closing line: "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const bin = (name) => `node_modules/.bin/${name}`;
const results = 'test-results';
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

let passed = 0;
let failed = 0;
let broken = false;

function step(title, cmd, args, env = {}) {
  console.log(`\n── ${title}: ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) {
    console.error(`── ${title} failed (exit ${r.status ?? r.signal})`);
    broken = true;
  }
  return r.status === 0;
}

const only = process.argv.slice(2);
const want = (name) => only.length === 0 || only.includes(name);

if (!step('Chromium', 'node', ['tools/ensure-chromium.mjs'])) process.exit(1);
if (want('typecheck')) {
  if (step('type check', bin('tsc'), ['--noEmit', '-p', '.'])) passed++;
  else failed++;
}
if (!step('build', 'node', ['tools/build.mjs'])) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
if (want('vitest')) {
  step('unit and browser tests', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${results}/vitest.json`]);
  if (existsSync(`${results}/vitest.json`)) {
    const v = JSON.parse(readFileSync(`${results}/vitest.json`, 'utf8'));
    passed += v.numPassedTests;
    failed += v.numFailedTests;
  }
}
if (want('e2e')) {
  step('end-to-end tests', bin('playwright'), ['test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_FILE: `${results}/e2e.json`,
  });
  if (existsSync(`${results}/e2e.json`)) {
    const p = JSON.parse(readFileSync(`${results}/e2e.json`, 'utf8'));
    passed += p.stats.expected + p.stats.flaky;
    failed += p.stats.unexpected;
  }
}
if (want('faults')) {
  // Every fault line must lose nothing and duplicate nothing (docs/delivery.md).
  if (step('delivery faults (quick)', bin('tsx'), ['tools/faults/run.ts', '--quick'])) passed++;
  else failed++;
}
if (want('bench') && existsSync('bench/run.mjs')) {
  if (step('bench smoke run', 'node', ['bench/run.mjs', '--quick'])) passed++;
  else failed++;
}
if (broken && failed === 0) failed = 1;
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
