/**
 * Preview (docs/publishing.md, "Preview"): one browser runs another environment's version on a
 * page whose embed is production's. `?offtag_env=<env>` on any page asks for it and keeps the
 * choice in a first-party session cookie, `offtag_env`; `?offtag_env=` (empty) ends it. The
 * decision is the worker's, from the snapshot offtag.js sends at hello (its URL and cookies): the
 * script tag reads nothing more at start-up and carries no byte for it, so other visitors pay nothing.
 */
import type { Environment } from './settings.ts';

export const PREVIEW_KEY = 'offtag_env';
const ENVIRONMENTS: readonly string[] = ['development', 'staging', 'production'];

export interface PreviewDecision {
  /** A `document.cookie` string to write: the choice kept, or ended. */
  cookie?: string;
  /** The environment to run instead of this one. */
  env?: Environment;
  /** Said on the page's console (a value that names no environment). */
  warning?: string;
}

/** The `document.cookie` string that keeps a preview of `env` for this browser's session; without `env`, the one that ends it. */
export const previewCookie = (env?: string) => (env ? `${PREVIEW_KEY}=${env}; path=/; SameSite=Lax` : `${PREVIEW_KEY}=; path=/; max-age=0; SameSite=Lax`);
const keep = (env: string) => previewCookie(env);
const end = previewCookie();

export function cookieValue(cookies: string, name: string): string | undefined {
  for (const part of cookies.split(/;\s*/)) if (part.startsWith(name + '=')) return part.slice(name.length + 1);
  return undefined;
}

/** What a page of environment `own` does, given its URL and its cookies at hello. */
export function previewOf(url: string | undefined, cookies: string | undefined, own: string): PreviewDecision {
  let asked: string | null = null;
  try {
    asked = url ? new URL(url).searchParams.get(PREVIEW_KEY) : null;
  } catch {
    /* not a URL: no parameter */
  }
  if (asked === '') return cookieValue(cookies ?? '', PREVIEW_KEY) !== undefined ? { cookie: end } : {};
  if (asked !== null) {
    if (!ENVIRONMENTS.includes(asked))
      return { warning: `Offtag: ?${PREVIEW_KEY}=${asked} names no environment (${ENVIRONMENTS.join(', ')}); this page runs ${own}.` };
    return { cookie: keep(asked), ...(asked !== own ? { env: asked as Environment } : {}) };
  }
  const kept = cookieValue(cookies ?? '', PREVIEW_KEY);
  // A kept value that names no environment is left alone: only the parameter sets it.
  return kept && kept !== own && ENVIRONMENTS.includes(kept) ? { env: kept as Environment } : {};
}
