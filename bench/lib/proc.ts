/**
 * A Chromium renderer's CPU from /proc, by thread (Linux): the main thread, the whole process,
 * its dedicated and shared workers (docs/bench.md, "Page load": which thread is which).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The processes under `root` (the browser's zygotes and their children). */
export function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d)))
    try {
      const st = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parent.set(Number(pid), Number(st.slice(st.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* ended */
    }
  const out = [root];
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, pp] of parent) if (out.includes(pp) && !out.includes(pid)) out.push(pid), (grew = true);
  }
  return out;
}

/**
 * One renderer process's CPU (ns), from `/proc/<pid>/task/<tid>/schedstat`: its main thread, the
 * whole process (every live thread), and the worker threads by name. The main thread is the one
 * whose tid is the pid: Chromium names its threads (`CrRendererMain`, `DedicatedWorker`,
 * `SharedWorker th…`, `Compositor`, `Chrome_ChildIOThread`, …) with prctl, but not the process's
 * first thread, which would rename the process; so the main thread's comm stays `chromium`, and a
 * Chrome trace of the same renderer (bench/load/load.ts `loadCdp`'s /proc figure beside ThreadTime) names
 * that tid `CrRendererMain`. `--no-sandbox` (chromium.ts): no PID namespace, so these are the
 * system's pids.
 */
export interface RendererCpu {
  main: number;
  all: number;
  /** `DedicatedWorker` threads: Offtag's worker (and any other dedicated worker of the page). */
  dedicated: number;
  /** `SharedWorker th…` threads: Offtag's sender, which Chromium runs in the page's own renderer when it can. */
  shared: number;
}

export function cpuOf(pid: number): RendererCpu {
  const ns = (tid: string) => Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  const out: RendererCpu = { main: ns(String(pid)), all: 0, dedicated: 0, shared: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`))
    try {
      const t = ns(tid);
      out.all += t;
      const comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8');
      if (comm.startsWith('DedicatedWorker')) out.dedicated += t;
      if (comm.startsWith('SharedWorker')) out.shared += t;
    } catch {
      /* the thread ended (its time is lost to the whole-process sum) */
    }
  return out;
}

/** The CPU of each of the browser's renderer processes (its page renderers, not headless Chromium's own WebUI one), by pid. */
export function rendererCpu(browser: number): Map<number, RendererCpu> {
  const out = new Map<number, RendererCpu>();
  for (const pid of descendants(browser)) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('--type=renderer') || cmd.includes('--top-chrome-webui')) continue;
      out.set(pid, cpuOf(pid));
    } catch {
      /* the process ended */
    }
  }
  return out;
}

/** The page's renderer: the one whose main thread ran longest between `a` and `b` (the others are Chromium's spare renderer and out-of-process frames). */
export function pageRenderer(a: Map<number, RendererCpu> | undefined, b: Map<number, RendererCpu>): [number, RendererCpu] | undefined {
  const zero: RendererCpu = { main: 0, all: 0, dedicated: 0, shared: 0 };
  const d = [...b].map(([pid, x]): [number, RendererCpu] => {
    const y = a?.get(pid) ?? zero;
    return [pid, { main: x.main - y.main, all: x.all - y.all, dedicated: x.dedicated - y.dedicated, shared: x.shared - y.shared }];
  });
  return d.sort((p, q) => q[1].main - p[1].main)[0];
}
