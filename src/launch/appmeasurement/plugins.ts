/**
 * The Common Analytics Plugins extension's plugins the corpus initialises (apl, inList,
 * getValOnce, getTimeParting), written from Adobe's plugin documentation. The extension's
 * "initialize" actions hand a plugin to the tracker when the Analytics extension makes it (an
 * augmenter): on `s` or on the window, and each plugin reports its version in `contextData`
 * (`c.apl=4.0` on the wire), when handed over and on each call.
 */
import type { AppMeasurement } from './tracker.ts';

export interface PluginHost {
  /** The event's time (epoch ms). */
  now(): number;
  s(): AppMeasurement | undefined;
}

type Plugin = (host: PluginHost) => { version: string; fn: (...args: any[]) => unknown };

const mark = (host: PluginHost, name: string, version: string) => {
  const s = host.s();
  if (s && s.contextData && typeof s.contextData === 'object') s.contextData[name] = version;
};

/** Whether `value` is an item of `list` (a delimited text or an array); case-insensitive unless `exact` is 1. */
function inList(list: unknown, value: unknown, delimiter?: string, exact?: unknown): boolean {
  if (typeof value !== 'string') return false;
  let items: unknown[];
  if (typeof list === 'string') items = list.split(delimiter || ',');
  else if (list && typeof list === 'object') items = list as unknown[];
  else return false;
  return items.some((item) => (exact == 1 && value === item) || value.toLowerCase() === String(item).toLowerCase());
}

export const PLUGINS: Record<string, Plugin> = {
  inList: (host) => ({
    version: '3.0',
    fn: (list: unknown, value: unknown, delimiter?: string, exact?: unknown) => {
      mark(host, 'inList', '3.0');
      return inList(list, value, delimiter, exact);
    },
  }),
  apl: (host) => ({
    version: '4.0',
    /** Appends each of the comma-separated `values` not in `list` yet; `joiner` 1 or 2 are the legacy forms (1: case-sensitive). */
    fn: (list: unknown, values: unknown, delimiter?: string, joiner?: string | number, exact?: unknown) => {
      mark(host, 'apl', '4.0');
      if (list && typeof list !== 'string') return list;
      if (typeof values !== 'string' || values === '') return list;
      const d = delimiter || ',';
      let j: string | number = joiner || d;
      let cs = exact;
      if (j == 1) {
        j = d;
        cs ||= 1;
      }
      if (j == 2 && cs != 1) j = d;
      let out = (list as string | undefined) ?? '';
      for (const v of values.split(',')) if (!inList(out, v, d, cs)) out = out ? `${out}${j}${v}` : v;
      return out;
    },
  }),
  getValOnce: (host) => ({
    version: '3.0.1',
    /**
     * `value` unless the cookie already holds it (then ''). `expiry` 0 (or none) keeps the cookie for
     * the session; any other makes it last what the published plugin gives it, whatever the number:
     * it hands its cookie writer the period's length in milliseconds, which that writer reads as
     * minutes (60000 × 86400000 ms, about 164 years, for days; 60000 × 60000 ms, about 42 days, with 'm').
     */
    fn: function (this: AppMeasurement, value: unknown, cookie?: string, expiry?: number, period?: string) {
      mark(host, 'getValOnce', '3.0.1');
      const s = host.s() ?? this;
      const name = cookie || 's_gvo';
      if (!value || value === s.c_r(name)) return '';
      s.c_w(name, value, expiry ? new Date(host.now() + 60_000 * (period === 'm' ? 60_000 : 86_400_000)) : 0);
      return value;
    },
  }),
  getTimeParting: (host) => ({
    version: '6.3',
    /** `year=… | month=… | date=… | day=… | time=…` for the time now in `timeZone` (default Etc/GMT). */
    fn: (timeZone?: string) => {
      mark(host, 'getTimeParting', '6.3');
      const parts = Object.fromEntries(
        new Intl.DateTimeFormat('en-US', { timeZone: timeZone || 'Etc/GMT', year: 'numeric', month: 'long', day: 'numeric', weekday: 'long', hour: 'numeric', minute: 'numeric' })
          .formatToParts(new Date(host.now()))
          .map((p) => [p.type, p.value]),
      );
      return `year=${parts.year} | month=${parts.month} | date=${parts.day} | day=${parts.weekday} | time=${parts.hour}:${parts.minute} ${parts.dayPeriod}`;
    },
  }),
};

/** A plugin the extension initialises: its name and where it goes (`analytics`: on `s`; `window`: a page global). */
export interface PluginInit {
  name: string;
  on: 'analytics' | 'window';
}

/** The extension's augmenter: each plugin on `s` or the window, its version in `contextData`. */
export function installPlugins(inits: PluginInit[], s: AppMeasurement, w: Record<string, unknown>, host: PluginHost): void {
  for (const { name, on } of inits) {
    const make = PLUGINS[name];
    if (!make) continue;
    const { version, fn } = make(host);
    (on === 'window' ? w : s)[name] = fn;
    s.contextData[name] = version;
  }
}
