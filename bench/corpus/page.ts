/**
 * The corpus page for one side. The document is the same for turbine, Offtag and the page without
 * tags: the data layer (set only where the browser has no global of that name), the driver
 * (driver.js), the elements the steps act on; only the tag's script tags differ — the library
 * itself under turbine, `offtag.js` (which loads its worker, its sender and `page-code.js`) under
 * Offtag, nothing for the baseline. A library a site's bundle carries: the whole bundle under
 * turbine, and under Offtag the bundle without the library (the import's site-bundle.js, served
 * where the bundle was) with offtag.js right after it, as the site would ship them.
 */
import { readFileSync } from 'node:fs';
import { bodyHtml, rootAttrs, type PagePlan } from './plan.ts';

export type Side = 'turbine' | 'offtag' | 'none';

export interface PageOptions {
  side: Side;
  /** The library's URL (turbine) or offtag.js's (Offtag). */
  script?: string;
  /** Offtag: the site bundle's URL, when the library came in one (its script tag goes first). */
  siteBundle?: string;
  /**
   * Offtag: the build is a development one, which has debug messages on; the page turns them off
   * (`offtagConfig.debug`), so both consoles run with Launch's debug switch off, as turbine's page does.
   */
  quiet?: boolean;
  /** Run every step after the load, then fetch `/__corpus/done` (the cost runs). */
  auto?: boolean;
  stepLimitMs: number;
  tailMs?: number;
}

const DRIVER = readFileSync(new URL('./driver.js', import.meta.url), 'utf8');

/** `</script>` cannot appear inside an inline script. */
const inline = (js: string) => js.replace(/<\/script/gi, '<\\/script');

export function pageHtml(plan: PagePlan, o: PageOptions): string {
  const config = { side: o.side, steps: plan.steps, auto: !!o.auto, stepLimitMs: o.stepLimitMs, tailMs: o.tailMs ?? 1000 };
  const dataLayer = `(function (g) { for (var k in g) if (!(k in window)) window[k] = g[k]; })(${JSON.stringify(plan.globals)});`;
  const quiet = o.side === 'offtag' && o.quiet ? '\n<script>window.offtagConfig = { debug: false };</script>' : '';
  const tag = o.side === 'none' || !o.script ? '' : `${o.siteBundle ? `\n<script src="${o.siteBundle}"></script>` : ''}${quiet}\n<script src="${o.script}"></script>`;
  return `<!doctype html>
<html${rootAttrs(plan.root.html)}><head><meta charset="utf-8"><title>${plan.title}</title>
<script>${inline(dataLayer)}</script>
<script>window.__corpusConfig = ${inline(JSON.stringify(config))};
${inline(DRIVER)}</script>${tag}
</head><body${rootAttrs(plan.root.body)}>${bodyHtml(plan)}</body></html>
`;
}
