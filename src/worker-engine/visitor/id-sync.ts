/**
 * ID syncs (VisitorAPI.js 5.5.0: the ID-sync iframe): the hidden `dest5.html` iframe, the postMessage protocol with the
 * origin checked both ways, and the `MCSYNCS` / `MCSYNCSOP` lists of syncs already fired.
 */
import { DEFAULT_ID_SYNC_BY_URL_TTL_MINUTES, MAX_SYNC_COOKIE_LENGTH } from './constants.ts';
import type { IbsEntry } from './id-response.ts';
import { encodeText } from '../core/well-formed.ts';

export const DESTPUB_COMBINED = '---destpub-combined---';
export const DESTPUB_CLEAR = '---destpub-clear-dextp---';
export const DESTPUB_TO_PARENT = '---destpub-to-parent---';
/** Joins the entries of one combined post (the encoded U+0001). */
export const ENTRY_SEPARATOR = '%01';
export const ID_SYNC_IFRAME_TITLE = 'Adobe ID Syncing iFrame';
export const ID_SYNC_IFRAME_SANDBOX = 'allow-scripts allow-same-origin';

/** `https://<subdomain>.demdex.net`, unless the `idSyncOrigin` setting points elsewhere (docs/spec-coverage.md D7). */
export function idSyncOrigin(setting: string, subdomain: string): string {
  return setting ? setting.replace(/\/+$/, '') : `https://${subdomain}.demdex.net`;
}

/** The iframe's address; its fragment tells the iframe which parent origin to trust. */
export function dest5Url(frameOrigin: string, containerId: number, pageOrigin: string): string {
  return `${frameOrigin}/dest5.html?d_nsid=${containerId}#${encodeText(pageOrigin)}`;
}

export function idSyncFrameId(subdomain: string, containerId: number): string {
  return `destination_publishing_iframe_${subdomain}_${containerId}`;
}

/** A subdomain the library would attach the iframe for: a plain DNS label. */
export function isRealSubdomain(subdomain: string | undefined): subdomain is string {
  return typeof subdomain === 'string' && /^[a-z0-9-]+$/i.test(subdomain);
}

/** `ibs|<id>|<tag>|<url,url>|<ttl>|||<fireURLSync>`, every part URI-encoded. */
export function ibsMessage(e: IbsEntry): string {
  return ['ibs', e.id, e.tag, e.url.join(','), String(e.ttl), '', '', String(e.fireURLSync)]
    .map(encodeText)
    .join('|');
}

/** One post carrying every entry; prefixed to clear the iframe's state after a region change. */
export function combinedMessage(entries: string[], clearFirst: boolean): string {
  return (clearFirst ? DESTPUB_CLEAR : '') + DESTPUB_COMBINED + entries.join(ENTRY_SEPARATOR);
}

/**
 * The iframe's answer, `---destpub-to-parent---canSetThirdPartyCookies|true|false`, accepted
 * only from the iframe's own origin; anything else is undefined.
 */
export function readFrameMessage(
  data: unknown,
  origin: string,
  frameOrigin: string,
): { canSetThirdPartyCookies: boolean } | undefined {
  if (origin !== frameOrigin || typeof data !== 'string' || !data.startsWith(DESTPUB_TO_PARENT)) return undefined;
  const [key, value] = data.slice(DESTPUB_TO_PARENT.length).split('|');
  if (key !== 'canSetThirdPartyCookies') return undefined;
  return { canSetThirdPartyCookies: value === 'true' };
}

export interface SyncRecord {
  id: string;
  /** Day number (`ceil(ms/86400000)`) the sync stops counting. */
  expiryDay: number;
}

export function parseSyncList(value: string | undefined): SyncRecord[] {
  if (!value) return [];
  const out: SyncRecord[] = [];
  for (const part of value.split('*')) {
    const m = /^(.+)-(\d+)$/.exec(part);
    if (m) out.push({ id: m[1] as string, expiryDay: Number(m[2]) });
  }
  return out;
}

export function serializeSyncList(list: SyncRecord[]): string {
  return list.map((r) => `${r.id}-${r.expiryDay}`).join('*');
}

/** Drops expired entries, then the earliest-expiring ones while the list is over 649 characters. */
export function pruneSyncList(list: SyncRecord[], today: number, maxLength = MAX_SYNC_COOKIE_LENGTH): SyncRecord[] {
  const kept = list.filter((r) => r.expiryDay >= today);
  while (kept.length && serializeSyncList(kept).length > maxLength) {
    let earliest = 0;
    for (let i = 1; i < kept.length; i++) if ((kept[i] as SyncRecord).expiryDay < (kept[earliest] as SyncRecord).expiryDay) earliest = i;
    kept.splice(earliest, 1);
  }
  return kept;
}

export function isSynced(list: SyncRecord[], id: string, today: number): boolean {
  return list.some((r) => r.id === id && r.expiryDay >= today);
}

/** Adds (or renews) a sync: it counts for `ceil(ttl minutes / 1440)` days from today. */
export function recordSync(list: SyncRecord[], id: string, ttlMinutes: number, today: number): SyncRecord[] {
  const rest = list.filter((r) => r.id !== id);
  rest.push({ id, expiryDay: today + Math.ceil(ttlMinutes / 1440) });
  return pruneSyncList(rest, today);
}

export interface IdSyncByUrlConfig {
  dpid?: unknown;
  url?: unknown;
  dpuuid?: unknown;
  minutesToLive?: unknown;
}

export const ID_SYNC_QUEUED = 'Successfully queued';
export const ID_SYNC_ERRORS = {
  disabled: 'Error: id syncs have been disabled',
  noDpid: 'Error: config.dpid is empty',
  noUrl: 'Error: config.url is empty',
  badTtl: 'Error: config.minutesToLive needs to be a positive number',
} as const;

/** `idSyncByURL`: the entry to post, or the library's error text. */
export function idSyncByUrlMessage(cfg: IdSyncByUrlConfig, disabled: boolean): { message: string } | { error: string } {
  if (disabled) return { error: ID_SYNC_ERRORS.disabled };
  if (cfg.dpid === undefined || cfg.dpid === null || cfg.dpid === '') return { error: ID_SYNC_ERRORS.noDpid };
  if (typeof cfg.url !== 'string' || cfg.url === '') return { error: ID_SYNC_ERRORS.noUrl };
  const ttl = cfg.minutesToLive === undefined ? DEFAULT_ID_SYNC_BY_URL_TTL_MINUTES : Number(cfg.minutesToLive);
  if (!Number.isFinite(ttl) || ttl <= 0) return { error: ID_SYNC_ERRORS.badTtl };
  const dpid = String(cfg.dpid);
  const dpuuid = cfg.dpuuid === undefined || cfg.dpuuid === null ? '' : String(cfg.dpuuid);
  const url = cfg.url.replace(/^https?:/i, '');
  const message = ['ibs', dpid, 'img', url, String(ttl), '', `,${dpid},${dpuuid}`].map(encodeText).join('|');
  return { message };
}

/** `idSyncByDataSource` targets the ID service's own `ibs:` endpoint. */
export function idSyncByDataSourceUrl(dpid: string, dpuuid: string): string {
  return `//dpm.demdex.net/ibs:dpid=${dpid}&dpuuid=${dpuuid}`;
}
