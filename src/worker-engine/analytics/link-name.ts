/**
 * The name ActivityMap gives a clicked link (`a.activitymap.link`), as AppMeasurement 2.27.0's
 * ActivityMap module picks it (docs/analytics.md, "Click rules learned from AppMeasurement.js"):
 *
 * 1. the link's `data-s-object-id` (its `dataset.sObjectId`), then its `s-object-id` attribute
 *    (never an attribute named `s_objectID`);
 * 2. `s_objectID` as the link's `onclick` source sets it (`s_objectID='promo'`), else
 *    `window.s_objectID` when the click happened;
 * 3. the link's text;
 * 4. else the `alt`, else the `title`, of the first element in document order (the link itself
 *    included) that has one, or an image's `src`; scripts, styles, `<link>`s and canvases are skipped.
 *
 * The bridge sends the link's `outerHTML` (main-bridge/clicks.ts); this reads the serialization
 * Chromium writes: every attribute as `name="value"` with `&`, `"`, U+00A0 (and `<`, `>`) escaped.
 */
import type { LinkClick } from '../../protocol.ts';

/** AppMeasurement trims, collapses white space and keeps 254 characters of a name. */
export const LINK_NAME_MAX = 254;

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', nbsp: '\u00a0', lt: '<', gt: '>', '#39': "'" };
const decode = (s: string) => s.replace(/&(amp|quot|nbsp|lt|gt|#39);/g, (_, e: string) => ENTITIES[e]!);

/** A start tag: its name and its attribute text (quoted values may hold `>`). */
const START_TAG = /<([A-Za-z][^\s/>]*)((?:\s+[^\s"'>/=]+(?:="[^"]*")?)*)\s*\/?>/g;
const ATTRIBUTE = /([^\s"'>/=]+)(?:="([^"]*)")?/g;
/**
 * What the library's walk never enters: comments, raw-text elements, `<link>`s and canvases with
 * their content. A tag name ends at white space or `>` (a custom element such as `<link-icon>` is read).
 */
const SKIPPED = /<!--[\s\S]*?-->|<(script|style|canvas)(?=[\s/>])(?:[^>"]|"[^"]*")*>[\s\S]*?<\/\1\s*>|<link(?=[\s/>])(?:[^>"]|"[^"]*")*>/gi;

export interface StartTag {
  name: string;
  attrs: Record<string, string>;
}

/** The start tags of a serialized element, in document order, outside what the walk skips. */
export function startTags(html: string): StartTag[] {
  const out: StartTag[] = [];
  for (const m of html.replace(SKIPPED, '').matchAll(START_TAG)) {
    const attrs: Record<string, string> = {};
    for (const a of m[2]!.matchAll(ATTRIBUTE)) attrs[a[1]!.toLowerCase()] ??= decode(a[2] ?? '');
    out.push({ name: m[1]!.toUpperCase(), attrs });
  }
  return out;
}

/** The library's whitespace rule: trimmed, runs of white space made one space, 254 characters. */
export function collapseName(s: string | undefined): string {
  return (s ?? '').replace(/\s+/g, ' ').trim().substring(0, LINK_NAME_MAX);
}

/**
 * `s_objectID` as an `onclick` source sets it: the text between the first quote after the name and
 * its closing quote, backslashes dropped (an escaped quote does not close it). '' when there is none.
 */
export function objectIdFromOnclick(source: string | undefined): string {
  const at = source?.indexOf('s_objectID') ?? -1;
  if (at < 0) return '';
  const m = /['"]/.exec(source!.slice(at + 's_objectID'.length));
  if (!m) return '';
  const quote = m[0];
  let out = '';
  let escaped = false;
  for (let i = at + 's_objectID'.length + m.index + 1; i < source!.length; i++) {
    const c = source![i]!;
    if (!escaped && c === quote) break;
    if (c === '\\') escaped = true;
    else {
      out += c;
      escaped = false;
    }
  }
  return out;
}

/**
 * `window.s_objectID` as the bridge sends it (`String(...)`): the library's default `0`, and values
 * that were never set (`undefined`, `null`, `false`, empty), name no object.
 */
export function objectIdOf(sent: unknown): string | undefined {
  return typeof sent !== 'string' || ['', '0', 'undefined', 'null', 'false'].includes(sent) ? undefined : sent;
}

/** The alt, else title, of the first element with one (the link included), or an image's src. */
export function shownName(tags: StartTag[]): string | undefined {
  for (const { name, attrs } of tags) {
    const v = attrs.alt || attrs.title || (name === 'IMG' ? attrs.src : '');
    if (v) return v;
  }
  return undefined;
}

/** The link's own attributes, read from its serialization (none for a click recorded without it). */
export function linkAttributes(link: LinkClick): Record<string, string> {
  return (link.html ? startTags(link.html)[0]?.attrs : undefined) ?? {};
}

/** AppMeasurement skips links whose onclick calls the tracker itself (`.tl(` or `.trackLink(`). */
export function callsTracker(link: LinkClick): boolean {
  return link.hasTlCall === true || /\.(tl|trackLink)\(/.test(linkAttributes(link).onclick ?? '');
}

/** The ActivityMap link name of a click ('' when the library finds none and records no ActivityMap). */
export function linkName(link: LinkClick): string {
  if (!link.html) return collapseName(link.text); // a click recorded before the bridge sent the link's HTML
  const tags = startTags(link.html);
  const attrs = tags[0]?.attrs ?? {};
  return (
    collapseName(attrs['data-s-object-id'] || attrs['s-object-id'] || objectIdFromOnclick(attrs.onclick) || objectIdOf(link.objectId)) ||
    collapseName(link.text) ||
    collapseName(shownName(tags))
  );
}
