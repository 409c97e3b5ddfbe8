/**
 * `offtag replay`'s default output: one line per fixture event (and per run of timers between
 * events) saying what it caused: rules fired, beacons (decoded), other requests, the console
 * messages the page would show, cookies and storage written, frames and scripts. `--json` prints every effect instead.
 */
import type { Effect } from '../../src/protocol.ts';
import { decodeBeacon, summarize } from '../collector/decode.ts';
import type { ReplayStep } from './replay.ts';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}

/** One line for one step: `#2 direct-call "Page View": rule Page View · beacon t acmeprod pageName=… · cookies s_cc`. */
export function summarizeStep(step: ReplayStep): string {
  const parts: string[] = [];
  const of = <T extends Effect['type']>(t: T) => step.effects.filter((e): e is Extract<Effect, { type: T }> => e.type === t);
  const fired = of('monitor')
    .filter((m) => m.name === 'rule-completed' && (m.data as { fired?: boolean }).fired)
    .map((m) => (m.data as { rule: string }).rule);
  if (fired.length) parts.push(`${fired.length === 1 ? 'rule' : 'rules'} ${fired.join(', ')}`);
  for (const r of of('request')) {
    if (r.kind === 'beacon') parts.push(summarize(decodeBeacon(r.url, r.body)).replace(/^\[collector\] /, 'beacon '));
    else parts.push(`${r.kind} ${r.method} ${pathOf(r.url)}`);
  }
  // The container's own console messages (debug-level ones only with `settings.debug`).
  for (const l of of('log')) parts.push(`${l.level}: ${l.message}`);
  const cookies = [...new Set(of('cookie').map((c) => c.name))];
  if (cookies.length) parts.push(`cookies ${cookies.join(', ')}`);
  const storage = [...new Set(of('storage').map((s) => s.key))];
  if (storage.length) parts.push(`sessionStorage ${storage.join(', ')}`);
  for (const f of of('iframe')) parts.push(`iframe ${pathOf(f.src)}`);
  for (const s of of('script')) parts.push(`script ${pathOf(s.src)}${s.partytown ? ' (Partytown)' : ''}`);
  const images = of('image').length;
  if (images) parts.push(plural(images, 'pixel'));
  for (const r of of('reply')) parts.push(`reply ${r.error ? `error ${r.error}` : JSON.stringify(r.value) ?? 'undefined'}`);
  const timers = of('timer').length;
  if (timers) parts.push(plural(timers, 'timer'));
  const head = step.index === undefined ? step.label : `#${step.index} ${step.label}`;
  return `${head}: ${parts.length ? parts.join(' · ') : 'nothing'}`;
}

export function summarizeReplay(steps: ReplayStep[]): string[] {
  return steps.map(summarizeStep);
}
