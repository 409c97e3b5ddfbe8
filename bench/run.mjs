#!/usr/bin/env node
// `node bench/run.mjs [--quick]`: Offtag's main-thread cost side by side with the same engine on
// the main thread, Adobe's tag runtime and Adobe's Web SDK (see docs/bench.md). Needs dist/ built
// (`npm run bench` builds it first). --quick is the CI smoke test: it checks the bench works and
// writes to bench/results/quick/; it never checks a number.
import { tsImport } from 'tsx/esm/api';

const quick = process.argv.includes('--quick');
const { runBench, FULL, QUICK } = await tsImport('./bench.ts', import.meta.url);
if (process.argv.includes('--render')) {
  // Re-writes latest.md and chart.svg from latest.json (no measuring): for report wording changes.
  const { readFile, writeFile } = await import('node:fs/promises');
  const { renderChart, renderHeadline, renderMarkdown } = await tsImport('./lib/report.ts', import.meta.url);
  const { writeHeadline } = await tsImport('./bench.ts', import.meta.url);
  const dir = new URL(quick ? './results/quick/' : './results/', import.meta.url);
  const r = JSON.parse(await readFile(new URL('latest.json', dir), 'utf8'));
  await writeFile(new URL('latest.md', dir), renderMarkdown(r));
  await writeFile(new URL('chart.svg', dir), renderChart(r));
  if (!quick) await writeHeadline(renderHeadline(r));
  console.log(`[bench] re-rendered ${dir.pathname}latest.md and chart.svg${quick ? '' : ' and the README headline'} from latest.json`);
  process.exit(0);
}
try {
  const { outDir, markdown } = await runBench(quick ? QUICK : FULL);
  console.log('\n' + markdown);
  console.log(`[bench] wrote ${outDir}/latest.md, latest.json, chart.svg`);
} catch (err) {
  console.error('[bench] failed:', err instanceof Error ? err.stack : err);
  process.exitCode = 1;
}
