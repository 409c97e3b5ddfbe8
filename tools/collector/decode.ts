/**
 * Beacon decoding for the collector and `offtag decode '<url>'` (the decoder itself is the one the
 * worker's devtools feed uses, so a beacon reads the same everywhere).
 */
import { decodeBeacon, type DecodedBeacon } from '../../src/worker-engine/analytics/beacon-decode.ts';

export { decodeBeacon, type DecodedBeacon };

const USAGE = "usage: offtag decode '<beacon url>' [post body]";

/** One readable line per beacon: `[collector] t acmeprod pageName=… events=…`. */
export function summarize(b: DecodedBeacon): string {
  const parts = [`[collector] ${b.hitType} ${b.rsid}`];
  if (b.hitType === 'tl') parts.push(`lnk_${b.linkType ?? 'o'}`);
  const show: [string, string | undefined][] = [
    ['linkName', b.linkName],
    ['linkUrl', b.linkUrl],
    ['pageName', b.pageName],
    ['events', b.events],
  ];
  for (const [k, v] of show) if (v) parts.push(`${k}=${v}`);
  const vars = Object.keys(b).filter((k) => /^(eVar|prop|list|hier)\d+$/.test(k));
  if (vars.length) parts.push(`vars=${vars.length}`);
  if (b.method === 'POST') parts.push('(POST)');
  return parts.join(' ');
}

/** `offtag decode '<url>' [body]`: prints the decoded beacon as JSON; returns the exit code. */
export function decodeCommand(argv: string[], out: (text: string) => void = (t) => process.stdout.write(t + '\n'), err: (text: string) => void = (t) => process.stderr.write(t + '\n')): number {
  const [url, body] = argv;
  if (!url || url === '--help' || url === '-h') {
    err(USAGE);
    return url ? 0 : 2;
  }
  const decoded = decodeBeacon(url.trim(), body);
  if (!decoded.rsid && decoded.raw.length === 0) {
    err(`not an analytics beacon (expected …/b/ss/<rsid>/…?AQB=1…): ${url}`);
    return 1;
  }
  out(JSON.stringify(decoded, null, 2));
  return 0;
}
