/**
 * The overlay's publishing line (docs/publishing.md, "Preview"): which environment and version
 * this page runs, what each environment runs, and the preview switch. The build's folder is in
 * `offtag.base` (`<dir>/<build>/`); the folder's state, `<dir>/offtag-publish.json`, names the
 * version each environment runs and its build. Pure, but for `readPublishState`.
 */
import { cookieValue, PREVIEW_KEY, previewCookie } from '../worker-engine/core/preview.ts';

export const PREVIEW_ENVIRONMENTS = ['development', 'staging', 'production'] as const;

/** The part of `offtag-publish.json` the overlay reads (tools/publish/store.ts `PublishState`). */
export interface PublishStateView {
  environments: Partial<Record<string, { version: string; build: string }>>;
}

export interface PublishView {
  /** The environment this page's offtag.js is built for (`_satellite.environment.stage`). */
  env: string;
  /** The published build this page runs (its folder's name), when it is one. */
  build?: string;
  /** The version that build belongs to, when the folder's state names it. */
  version?: string;
  /** The environment this browser previews (its `offtag_env` cookie), if any. */
  preview?: string;
  /** What each published environment runs. */
  live: Array<{ env: string; version: string }>;
}

const BUILD = /\/([0-9a-z]{7,25})\/$/;

export function publishView(base: string, stage: string, cookies: string, state?: PublishStateView): PublishView {
  const build = BUILD.exec(base)?.[1];
  const live = PREVIEW_ENVIRONMENTS.flatMap((env) => {
    const at = state?.environments[env];
    return at ? [{ env, version: at.version }] : [];
  });
  const version = build ? Object.values(state?.environments ?? {}).find((at) => at?.build === build)?.version : undefined;
  const kept = cookieValue(cookies, PREVIEW_KEY);
  return { env: stage, ...(build ? { build } : {}), ...(version ? { version } : {}), ...(kept ? { preview: kept } : {}), live };
}

/** `<dir>/offtag-publish.json` beside the build's folder; undefined when it cannot be read (not published, or another origin without CORS). */
export async function readPublishState(base: string): Promise<PublishStateView | undefined> {
  if (!BUILD.test(base)) return undefined;
  try {
    const r = await fetch(new URL('../offtag-publish.json', base), { cache: 'no-cache' });
    return r.ok ? ((await r.json()) as PublishStateView) : undefined;
  } catch {
    return undefined;
  }
}

/** Previews `env` in this browser (or ends the preview) and reloads: the worker of the next page reads the cookie. */
export function switchPreview(env: string | undefined, doc: Document = document): void {
  doc.cookie = previewCookie(env);
  doc.location.reload();
}
