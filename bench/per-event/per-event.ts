/**
 * Section 1 of the bench alone: main-thread CPU per event by the bench's own method A
 * (`sample`, `idleOf`, `idleCorrected` in bench/lib/measure.ts: CDP ThreadTime over a burst of n
 * events of one type from one page task until every beacon arrived, minus the measurement's fixed
 * cost and the page's idle CPU), the variants interleaved round by round, ratios to Offtag from
 * the same run. Shorter than the full bench: for a change's before/after, not for the results file.
 * Beside each figure, the page renderer's whole process per event (every thread: Offtag's worker and
 * sender too; /proc, bench/lib/proc.ts), not idle-corrected.
 * Run: `npx tsx bench/per-event/per-event.ts [--n 250] [--rounds 5] [--variants offtag,main-thread,turbine,alloy,offtag:no-sender]
 * [--no-build]` (dist/ built). `offtag:no-sender`: Offtag's page without `SharedWorker` (the worker sends). Never asserted.
 */
import { EVENTS, idleCorrected, idleOf, median, medianIdle, openPage, sample, warm, type Idle, type OpenPage, type Sample } from '../lib/measure.ts';
import { buildVariants, startWorld, type PageOptions, type Variant } from '../lib/setup.ts';

/** Pages besides the variants': Offtag's with one part changed. */
const ABLATED: Record<string, PageOptions> = {
  'offtag:no-sender': { variant: 'offtag', head: 'delete window.SharedWorker;' },
};
const pageOf = (v: string): PageOptions => ABLATED[v] ?? { variant: v as Variant };

const arg = (name: string, d: string) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? d : process.argv[i + 1];
};
const N = Number(arg('--n', '250'));
const ROUNDS = Number(arg('--rounds', '5'));
const VARS = arg('--variants', 'offtag,main-thread,turbine,alloy').split(',');
// Alloy fires fewer events per burst, as in the full bench (FULL.alloyN).
const nOf = (v: string) => (v === 'alloy' ? Math.round((N * 100) / 250) : N);

if (!process.argv.includes('--no-build')) await buildVariants([]);
const world = await startWorld();
try {
  const pages = {} as Record<string, OpenPage>;
  for (const v of VARS) {
    pages[v] = await openPage(world, pageOf(v));
    await warm(world, pages[v], v === 'alloy' ? 2 : 5);
  }
  const xs: Record<string, Record<string, Sample[]>> = {};
  const idle: Record<string, Idle[]> = {};
  for (let r = 0; r < ROUNDS; r++) {
    for (const v of VARS.map((_, i) => VARS[(i + r) % VARS.length])) {
      (idle[v] ??= []).push(await idleOf(pages[v]));
      for (const id of EVENTS) ((xs[v] ??= {})[id] ??= []).push(await sample(world, pages[v], id, nOf(v)));
    }
    console.log(`round ${r + 1}/${ROUNDS}`);
  }
  const ms = (v: string, id: string) => median(xs[v][id].map((s) => idleCorrected(s, medianIdle(idle[v]), nOf(v))));
  const rend = (v: string, id: string, k: 'rendererMs' | 'workerMs' | 'senderMs' = 'rendererMs') => median(xs[v][id].map((s) => s[k] ?? NaN));
  console.log(`\nPer event (ms), n = ${N}, median of ${ROUNDS} rounds: main thread (CDP ThreadTime, idle-corrected) | whole renderer (/proc; of it worker + sender), × Offtag from this run:`);
  for (const id of EVENTS) {
    const o = VARS.includes('offtag') ? ms('offtag', id) : NaN;
    const ro = VARS.includes('offtag') ? rend('offtag', id) : NaN;
    console.log(
      `  ${id.padEnd(22)} ${VARS.map((v) => `${v} ${ms(v, id).toFixed(3)}${v === 'offtag' ? '' : ` (${(ms(v, id) / o).toFixed(1)}×)`} | ${rend(v, id).toFixed(3)}${v === 'offtag' ? '' : ` (${(rend(v, id) / ro).toFixed(1)}×)`} [${rend(v, id, 'workerMs').toFixed(3)} + ${rend(v, id, 'senderMs').toFixed(3)}]`).join('   ')}`,
    );
  }
  if (VARS.includes('offtag'))
    console.log(`  Offtag's bridge timed itself (offtag.metrics(), snapshot + post + applying batches): ${EVENTS.map((id) => `${id} ${median(xs.offtag[id].map((s) => s.bridgeMs ?? NaN)).toFixed(3)}`).join(', ')} ms per event`);
  for (const v of VARS) await pages[v].close();
} finally {
  await world.close();
}
