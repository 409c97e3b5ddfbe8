/**
 * Cookies as the engine sees them. The page's `document.cookie` comes in every snapshot; the
 * engine's own writes travel back to the page in numbered effect batches. Until a snapshot says
 * the page has applied a batch (`snapshot.applied`), the engine reads its own writes over the
 * snapshot, so two events in quick succession never see stale values.
 */
import type { CookieWrite } from '../../protocol.ts';
import type { CookieJar } from './types.ts';

/** `document.cookie` text for a cookie write (built by the worker shell; the bridge's `_satellite.cookie` writes the same). */
export function cookieString(e: Omit<CookieWrite, 'type'>): string {
  let s = `${e.name}=${e.value}; path=${e.path ?? '/'}`;
  if (e.domain) s += `; domain=${e.domain}`;
  if (e.expires !== undefined) s += `; expires=${new Date(e.expires).toUTCString()}`;
  if (e.sameSite) s += `; SameSite=${e.sameSite}`;
  if (e.secure) s += '; Secure';
  return s;
}

/** `document.cookie` → name → raw value. The first of two same-named cookies wins, as browsers order the more specific path first. */
export function parseCookieString(cookie: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of cookie.split(';')) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? '' : part.slice(0, eq)).trim();
    // Without "=", `eq + 1` is 0: the whole part is the value.
    const value = part.slice(eq + 1).trim();
    if (!name && !value) continue;
    if (!(name in out)) out[name] = value;
  }
  return out;
}

/** decodeURIComponent that never throws: broken %-encoding keeps the raw text. */
export function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

interface PendingWrite {
  value: string | undefined;
  batch: number;
}

export interface OverlayJar extends CookieJar {
  /** Take a new `document.cookie` and forget writes the page has applied. */
  rebase(cookie: string, applied: number): void;
}

/**
 * @param emit receives each write; `currentBatch` tells which batch it will travel in.
 * @param now the engine's clock, to recognise removals (expiry in the past).
 */
export function createCookieJar(
  emit: (w: CookieWrite) => void,
  currentBatch: () => number,
  now: () => number,
): OverlayJar {
  let base: Record<string, string> = {};
  const pending = new Map<string, PendingWrite>();
  return {
    rebase(cookie, applied) {
      base = parseCookieString(cookie);
      for (const [name, w] of pending) if (w.batch <= applied) pending.delete(name);
    },
    get(name) {
      const w = pending.get(name);
      if (w) return w.value;
      return base[name];
    },
    all() {
      const out = { ...base };
      for (const [name, w] of pending) {
        if (w.value === undefined) delete out[name];
        else out[name] = w.value;
      }
      return out;
    },
    set(name, value, options = {}) {
      const removed = options.expires !== undefined && options.expires <= now();
      pending.set(name, { value: removed ? undefined : value, batch: currentBatch() });
      emit({ type: 'cookie', name, value, path: '/', ...options });
    },
    remove(name, options = {}) {
      pending.set(name, { value: undefined, batch: currentBatch() });
      emit({ type: 'cookie', name, value: '', path: options.path ?? '/', domain: options.domain, expires: 0 });
    },
  };
}
