/**
 * Beacon decoding for the collector and `offtag decode '<url>'` (the decoder itself is the one the
 * worker's devtools feed uses, so a beacon reads the same everywhere).
 */
import { decodeBeacon, type DecodedBeacon } from '../../src/worker-engine/analytics/beacon-decode.ts';

export { decodeBeacon, type DecodedBeacon };

const USAGE = "usage: offtag decode [--json] '<beacon url>' [post body]   (a table of named fields; --json: every field as JSON)";

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

/** The named fields, in reading order: label, query parameter, field of DecodedBeacon. */
const NAMED_ROWS: [string, string, keyof DecodedBeacon][] = [
  ['pageName', 'pageName', 'pageName'],
  ['page URL', 'g', 'pageURL'],
  ['referrer', 'r', 'referrer'],
  ['channel', 'ch', 'channel'],
  ['server', 'server', 'server'],
  ['pageType', 'pageType', 'pageType'],
  ['events', 'events', 'events'],
  ['products', 'products', 'products'],
  ['purchaseID', 'purchaseID', 'purchaseID'],
  ['campaign', 'v0', 'campaign'],
  ['link type', 'pe', 'linkType'],
  ['link name', 'pev2', 'linkName'],
  ['link URL', 'pev1', 'linkUrl'],
  ['currency', 'cc', 'currencyCode'],
  ['visitor id (ECID)', 'mid', 'mid'],
  ['analytics id', 'aid', 'aid'],
  ['audience location', 'aamlh', 'aamlh'],
  ['audience blob', 'aamb', 'aamb'],
  ['org id', 'mcorgid', 'mcorgid'],
  ['supplemental data id', 'sdid', 'sdid'],
  ['fallback id', 'fid', 'fid'],
  ['local time', 't', 'time'],
];
const LINK_TYPES = { o: 'custom (lnk_o)', d: 'download (lnk_d)', e: 'exit (lnk_e)' } as const;
/** Parameters the table already shows (named, numbered, nested, the markers); the rest are listed as technical. */
const SHOWN = new Set(['AQB', 'AQE', '-g', ...NAMED_ROWS.map(([, p]) => p)]);

function flatten(o: Record<string, unknown>, prefix: string, rows: [string, string][]): void {
  for (const [k, v] of Object.entries(o)) {
    if (typeof v === 'object' && v !== null) flatten(v as Record<string, unknown>, `${prefix}${k}.`, rows);
    else rows.push([`${prefix}${k}`, String(v)]);
  }
}

/** A readable table of a beacon's named fields: what `offtag decode` prints by default. */
export function formatBeacon(b: DecodedBeacon): string {
  const rows: [string, string, string][] = [];
  rows.push(['hit', b.hitType === 'tl' ? 'pe' : '', b.hitType === 'tl' ? `link, ${LINK_TYPES[b.linkType ?? 'o']}` : 'page view']);
  rows.push(['report suite', 'path', b.rsid]);
  for (const [label, param, field] of NAMED_ROWS) {
    if (field === 'linkType') continue;
    const v = b[field];
    if (typeof v === 'string' && v !== '') rows.push([label, param, v]);
  }
  const numbered = Object.keys(b)
    .map((k) => /^(eVar|prop|list|hier)(\d+)$/.exec(k))
    .filter((m): m is RegExpExecArray => m !== null)
    .sort((x, y) => ['eVar', 'prop', 'list', 'hier'].indexOf(x[1]!) - ['eVar', 'prop', 'list', 'hier'].indexOf(y[1]!) || Number(x[2]) - Number(y[2]));
  const PREFIX: Record<string, string> = { eVar: 'v', prop: 'c', list: 'l', hier: 'h' };
  for (const m of numbered) rows.push([m[0], `${PREFIX[m[1]!]}${m[2]}`, (b as unknown as Record<string, string>)[m[0]]!]);
  const nested: [string, string][] = [];
  flatten(b.contextData, '', nested);
  for (const [k, v] of nested) rows.push([`c.${k}`, '', v]);
  const ids: [string, string][] = [];
  flatten(b.customerIds, '', ids);
  for (const [k, v] of ids) rows.push([`cid.${k}`, '', v]);

  const w1 = Math.max(...rows.map((r) => r[0].length), 'field'.length);
  const w2 = Math.max(...rows.map((r) => r[1].length), 'param'.length);
  const line = (a: string, p: string, v: string) => `${a.padEnd(w1)}  ${p.padEnd(w2)}  ${v}`;
  const out = [
    `${b.hitType === 'tl' ? 'link' : 'page view'} beacon · ${b.rsid} · ${b.method} · ${b.version} · ${b.sid}`,
    '',
    line('field', 'param', 'value'),
    line('-'.repeat(w1), '-'.repeat(w2), '-----'),
    ...rows.map((r) => line(...r)),
  ];
  const technical = Object.entries(b.params).filter(
    ([k]) => !SHOWN.has(k) && !/^[cvlh]\d+$/.test(k) && !k.startsWith('c.') && !k.startsWith('cid.'),
  );
  if (technical.length) out.push('', `technical: ${technical.map(([k, v]) => `${k}=${v}`).join(' ')}`);
  out.push('', "(offtag decode --json '<url>' prints every field as JSON)");
  return out.join('\n');
}

/** `offtag decode [--json] '<url>' [body]`: prints the beacon as a table (or JSON); returns the exit code. */
export function decodeCommand(argv: string[], out: (text: string) => void = (t) => process.stdout.write(t + '\n'), err: (text: string) => void = (t) => process.stderr.write(t + '\n')): number {
  const json = argv.includes('--json');
  const [url, body] = argv.filter((a) => a !== '--json');
  if (!url || url === '--help' || url === '-h') {
    err(USAGE);
    return url ? 0 : 2;
  }
  const decoded = decodeBeacon(url.trim(), body);
  // Only AppMeasurement's path names a report suite: any other URL, with or without a query, is not a beacon.
  if (!/\/b\/ss\/[^/?]+/.test(url) || !decoded.rsid) {
    err(`not an analytics beacon (expected …/b/ss/<rsid>/…?AQB=1…): ${url}`);
    return 1;
  }
  out(json ? JSON.stringify(decoded, null, 2) : formatBeacon(decoded));
  return 0;
}
