/**
 * The ID syncs a reply asks for (VisitorAPI.js 5.5.0: the ID-sync iframe): the `dest5.html` iframe and the messages posted to
 * it, the on-page (first-party) syncs and their `MCSYNCS`/`MCSYNCSOP` day lists, `idSyncByURL`,
 * and the iframe's answer. The message formats are `id-sync.ts`'s.
 */
import type { EngineContext } from '../core/types.ts';
import { dayNumber } from './amcv-cookie.ts';
import type { AmcvState } from './amcv-state.ts';
import type { IbsEntry, IdReply } from './id-response.ts';
import {
  combinedMessage,
  dest5Url,
  ibsMessage,
  idSyncByUrlMessage,
  idSyncFrameId,
  idSyncOrigin,
  ID_SYNC_IFRAME_SANDBOX,
  ID_SYNC_IFRAME_TITLE,
  ID_SYNC_QUEUED,
  isRealSubdomain,
  isSynced,
  parseSyncList,
  readFrameMessage,
  recordSync,
  serializeSyncList,
  type IdSyncByUrlConfig,
} from './id-sync.ts';

export interface IdSyncs {
  /** The syncs of a usable reply; `regionChanged` clears the iframe's list first. */
  run(reply: IdReply, regionChanged: boolean): void;
  /** `idSyncByURL`: posted now, or queued until a reply names the iframe's subdomain; the library's answer text. */
  byUrl(cfg: IdSyncByUrlConfig): string;
  /** A message from a frame: the ID-sync iframe's third-party-cookie verdict. */
  onFrameMessage(frameId: string, origin: string, data: unknown): void;
}

interface SyncFrame {
  id: string;
  origin: string;
  /** Entries the page fires itself when the iframe says it cannot set third-party cookies. */
  firstParty: IbsEntry[];
}

export function createIdSyncs(ctx: EngineContext, amcv: AmcvState, opts: { containerId: number; disabled: boolean }): IdSyncs {
  let frame: SyncFrame | undefined;
  const sentPayloads = new Set<string>();
  let clearFirst = false;
  let lastSubdomain: string | undefined;
  const queued: string[] = [];

  function fireFirstParty(entries: IbsEntry[], listName: 'MCSYNCS' | 'MCSYNCSOP'): void {
    const today = dayNumber(ctx.env.now());
    let list = parseSyncList(amcv.stored(listName));
    for (const e of entries) {
      if (isSynced(list, e.id, today)) continue;
      for (const u of e.url) ctx.emit({ type: 'image', src: u.startsWith('//') ? (ctx.page.secure ? 'https:' : 'http:') + u : u });
      list = recordSync(list, e.id, e.ttl, today);
    }
    // An unchanged list leaves the cookie as it is: persist() writes only what changed.
    amcv.set(listName, serializeSyncList(list));
    amcv.persist();
  }

  function post(messages: string[], subdomain: string): void {
    if (!messages.length) return;
    const message = combinedMessage(messages, clearFirst);
    clearFirst = false;
    if (frame) {
      ctx.emit({ type: 'post-message', frameId: frame.id, message, targetOrigin: frame.origin });
      return;
    }
    const origin = idSyncOrigin(ctx.settings.idSyncOrigin, subdomain);
    const id = idSyncFrameId(subdomain, opts.containerId);
    frame = { id, origin, firstParty: [] };
    ctx.emit({
      type: 'iframe',
      id,
      name: `${id}_name`,
      src: dest5Url(origin, opts.containerId, ctx.page.origin),
      title: ID_SYNC_IFRAME_TITLE,
      sandbox: ID_SYNC_IFRAME_SANDBOX,
      targetOrigin: origin,
      messages: [message],
    });
  }

  return {
    run(reply, regionChanged) {
      if (regionChanged) clearFirst = true;
      if (opts.disabled || !reply.ibs.length || !isRealSubdomain(reply.subdomain)) return;
      lastSubdomain = reply.subdomain;
      fireFirstParty(reply.ibs.filter((e) => e.syncOnPage), 'MCSYNCSOP');
      const framed = reply.ibs.filter((e) => !e.syncOnPage);
      const messages = queued.splice(0);
      for (const e of framed) {
        const m = ibsMessage(e);
        if (sentPayloads.has(m)) continue;
        sentPayloads.add(m);
        messages.push(m);
      }
      post(messages, reply.subdomain);
      if (frame) frame.firstParty.push(...framed.filter((e) => e.fireURLSync));
    },
    byUrl(cfg) {
      const r = idSyncByUrlMessage(cfg, opts.disabled);
      if ('error' in r) return r.error;
      if (lastSubdomain) post([r.message], lastSubdomain);
      else queued.push(r.message);
      return ID_SYNC_QUEUED;
    },
    onFrameMessage(frameId, origin, data) {
      if (!frame || frameId !== frame.id) return;
      const msg = readFrameMessage(data, origin, frame.origin);
      if (!msg) {
        ctx.log('debug', `ID sync: ignored a message from ${origin}.`);
        return;
      }
      ctx.monitor('visitor-id-sync', { canSetThirdPartyCookies: msg.canSetThirdPartyCookies });
      if (!msg.canSetThirdPartyCookies) fireFirstParty(frame.firstParty.splice(0), 'MCSYNCS');
    },
  };
}
