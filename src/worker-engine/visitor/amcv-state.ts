/**
 * The visitor's `AMCV_<org>` cookie as the service holds it: its fields in memory, whether they
 * still count (expiry, the `AMCVS_` session cookie, the digest), the first read (with the ids an
 * earlier library or a link left behind) and the write back (VisitorAPI.js 5.5.0: cookies, URL hand-off).
 */
import type { EngineContext } from '../core/types.ts';
import {
  amcvCookieName,
  amcvsCookieName,
  decodeAmcv,
  encodeAmcv,
  expiryFor,
  isFieldExpired,
  type AmcvField,
  type AmcvFields,
} from './amcv-cookie.ts';
import { AMCV_COOKIE_LIFETIME_SECONDS } from './constants.ts';
import { isValidVisitorId } from './id-response.ts';
import { idsFromUrl } from './url-handoff.ts';

export interface AmcvState {
  /** A field while it counts (not expired, its session and digest alive). */
  live(name: string): AmcvField | undefined;
  /** A live field's value. */
  value(name: string): string | undefined;
  /** A field's stored value, whether it counts or not. */
  stored(name: string): string | undefined;
  /** Sets a field, living `ttlSeconds` from now (forever without), bound to the session when `session`. */
  set(name: string, value: string, ttlSeconds?: number, session?: boolean): void;
  /** Makes a field expire now (it stays in the cookie). */
  expire(name: string): void;
  delete(name: string): void;
  /** Reads the cookie; without one, the MID of `s_ecid` and the AID of `s_vi`. */
  load(): void;
  /** Takes the ids a link handed over (`adobe_mc`): only missing ones, or all with `overwrite`. */
  applyHandOff(overwrite: boolean): void;
  /** Writes the cookie (and `AMCVS_` once a session field exists) when it changed. */
  persist(): void;
}

/**
 * How the AMCV cookie is written (VisitorAPI's `cookieDomain` and `cookieLifetime`): the domain
 * (default: the one the bridge detected), and its lifetime in seconds (default two years),
 * `SESSION` (a session cookie) or `NONE` (not written).
 */
export interface AmcvCookieOptions {
  domain?: string;
  lifetime?: number | 'SESSION' | 'NONE';
}

/** `readsAnalyticsCookie`: the library has a tracking server, so it takes an MCAID from `s_vi`. */
export function createAmcvState(ctx: EngineContext, orgId: string, digest: number, readsAnalyticsCookie = false, cookie: AmcvCookieOptions = {}): AmcvState {
  const now = () => ctx.env.now();
  const name = amcvCookieName(orgId);
  const sessionName = amcvsCookieName(orgId);
  let fields: AmcvFields = new Map();
  let digestMatches = true;
  let sessionAlive = false;

  const live = (key: string): AmcvField | undefined => {
    const f = fields.get(key);
    return f && !isFieldExpired(f, now(), { sessionAlive, digestMatches }) ? f : undefined;
  };
  const set = (key: string, v: string, ttlSeconds?: number, session = false) => {
    const f: AmcvField = { value: v };
    if (ttlSeconds !== undefined) f.expiry = expiryFor(now(), ttlSeconds);
    if (session) {
      f.session = true;
      sessionAlive = true;
    }
    fields.set(key, f);
  };
  const sessionWritePending = () => sessionAlive && ctx.cookies.get(sessionName) === undefined;

  return {
    live,
    value: (key) => live(key)?.value,
    stored: (key) => fields.get(key)?.value,
    set,
    expire(key) {
      const f = fields.get(key);
      if (f) f.expiry = Math.floor(now() / 1000);
    },
    delete: (key) => void fields.delete(key),
    load() {
      const raw = ctx.cookies.get(name);
      sessionAlive = ctx.cookies.get(sessionName) !== undefined;
      if (raw) {
        const decoded = decodeAmcv(raw);
        fields = decoded.fields;
        digestMatches = decoded.digest === digest;
        if (!digestMatches) fields.delete('MCCIDH');
        // A tampered id is dropped so that the service asks for a real one.
        for (const key of ['MCMID', 'MCAID']) {
          const v = fields.get(key)?.value;
          if (v !== 'NONE' && !isValidVisitorId(v)) fields.delete(key);
        }
        return;
      }
      const handedOver = idsFromUrl(ctx.snapshot().url, orgId, now());
      const ecid = ctx.cookies.get('s_ecid');
      if (ecid && !handedOver?.MCMID) {
        const mid = decodeAmcv(ecid).fields.get('MCMID')?.value;
        if (isValidVisitorId(mid)) set('MCMID', mid);
      }
      const vi = !readsAnalyticsCookie ? null : /v1\|([0-9A-Fa-f-]+)\[/.exec(ctx.cookies.get('s_vi') ?? '');
      if (vi?.[1]) set('MCAID', vi[1]);
    },
    applyHandOff(overwrite) {
      const ids = idsFromUrl(ctx.snapshot().url, orgId, now());
      if (!ids) return;
      for (const key of ['MCMID', 'MCAID'] as const) {
        const v = ids[key];
        if (v && (overwrite || !live(key)?.value)) set(key, v);
      }
      // An accepted hand-off expires the blob, as VisitorAPI does: the landing page asks AAM again.
      const blob = fields.get('MCAAMB');
      if (blob) blob.expiry = Math.floor(now() / 1000);
    },
    persist() {
      if (!ctx.page.cookiesEnabled || cookie.lifetime === 'NONE') return;
      const domain = cookie.domain || ctx.page.cookieDomain;
      const encoded = encodeAmcv(fields, digest);
      // A page view that changed nothing leaves the cookie (and its expiry) as it was.
      if (ctx.cookies.get(name) === encoded && !sessionWritePending()) return;
      const lifetime = typeof cookie.lifetime === 'number' ? cookie.lifetime : AMCV_COOKIE_LIFETIME_SECONDS;
      ctx.cookies.set(name, encoded, { ...(cookie.lifetime === 'SESSION' ? {} : { expires: now() + lifetime * 1000 }), path: '/', domain });
      if (sessionWritePending()) ctx.cookies.set(sessionName, '1', { path: '/', domain });
    },
  };
}
