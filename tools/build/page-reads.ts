/**
 * The container's page reads, written into offtag.js by `offtag build` as the Vite define
 * `__OFFTAG_PAGE_READS__` (docs/containers.md, "Page reads"): `0` for a container without any,
 * so the bridge's code for them is dropped and offtag.js does not grow; else one function
 * `(event, problems) => ({ d: {...}, c: {...} })` that offtag.js calls when it takes an event's
 * snapshot. Each read runs in its own try: one that throws is left out and named in `problems`
 * (the worker words it), the others and the event go on. A page condition is read only for the
 * events its rule may run on. No Node import: the browser tests evaluate the generated code.
 */
import type { PageRead } from '../../src/worker-engine/core/page-reads.ts';
import { conditionKey } from '../../src/worker-engine/core/page-reads.ts';
import type { Container, RuleEventSpec } from '../../src/worker-engine/core/types.ts';

const q = (v: unknown) => JSON.stringify(v);

/** The page reads of a container, by group and key, as `pageValue` looks them up. */
export interface PageReadList {
  elements: Array<{ key: string; read: PageRead }>;
  conditions: Array<{ key: string; read: PageRead; events: RuleEventSpec[]; rule: string }>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any container, whatever its names, services and settings
export function pageReadsIn(container: Container<any, any, any>): PageReadList {
  const elements = Object.entries(container.dataElements as Record<string, { page?: PageRead }>)
    .filter(([, de]) => de.page)
    .map(([key, de]) => ({ key, read: de.page! }));
  const conditions: PageReadList['conditions'] = [];
  for (const rule of container.rules as Array<{ name: string; events: RuleEventSpec[]; conditions?: Array<{ page?: PageRead }> }>)
    (rule.conditions ?? []).forEach((c, i) => {
      if (c.page) conditions.push({ key: conditionKey(rule.name, i), read: c.page, events: rule.events, rule: rule.name });
    });
  return { elements, conditions };
}

/** A function's source as an expression offtag.js can hold, or why it cannot be written. */
export function codeSource(code: unknown): { source: string } | { problem: string } {
  if (typeof code !== 'function') return { problem: 'is not a function' };
  const source = Function.prototype.toString.call(code);
  if (/\{\s*\[native code\]\s*\}\s*$/.test(source)) return { problem: 'is a built-in or bound function, whose source cannot be written into offtag.js' };
  try {
    // Compiled, not run: the function itself is only created.
    if (typeof new Function(`return (${source});`)() !== 'function') throw new Error();
  } catch {
    return { problem: 'cannot be written into offtag.js as source text (write it as an arrow function or a function expression, not a method)' };
  }
  return { source };
}

/** The expression of one read: a function of the event `e`. */
function readExpression(read: PageRead): string {
  switch (read.from) {
    case 'local-storage':
      return `()=>l(${q(read.key)})`;
    case 'title':
      return '()=>document.title';
    case 'global':
      return `()=>v(${q(read.path.replace(/\[(\d+)\]/g, '.$1').split('.'))})`;
    case 'dom':
      return `()=>a(${q(read.selector)},${q(read.property)})`;
    case 'code': {
      const c = codeSource(read.code);
      if ('problem' in c) throw new Error(c.problem);
      return `(${c.source})`;
    }
  }
}

/** When a page condition is read: for the events its rule's event specs can match (`1`: every event). */
function eventTest(events: RuleEventSpec[]): string {
  const tests = new Set<string>();
  for (const spec of events) {
    if (spec.type === 'data-element-change') return '1'; // the worker's own event, found on any event's snapshot
    if (spec.type === 'direct-call') tests.add(`e.type=="direct-call"&&e.id==${q(spec.id)}`);
    else if (spec.type === 'click' && !('selector' in spec)) tests.add('e.type=="click"');
    // Page Bottom runs on its own event, or on DOM Ready's (or Window Loaded's) when the page never called it (core/events.ts).
    else if (spec.type === 'page-bottom') ['page-bottom', 'dom-ready', 'window-loaded'].forEach((t) => tests.add(`e.type==${q(t)}`));
    else if (['library-loaded', 'dom-ready', 'window-loaded'].includes(spec.type)) tests.add(`e.type==${q(spec.type)}`);
    else tests.add('e.type=="trigger"');
  }
  return [...tests].map((t) => `(${t})`).join('||') || '0';
}

/** Problems of the container's page reads (code that cannot be written into offtag.js), one line each. */
export function pageReadProblems(list: PageReadList, file: string): string[] {
  const out: string[] = [];
  for (const { key, read } of list.elements) {
    if (read.from !== 'code') continue;
    const c = codeSource(read.code);
    if ('problem' in c) out.push(`${file}: data element "${key}": its page code ${c.problem}`);
  }
  for (const { key, read, rule } of list.conditions) {
    if (read.from !== 'code') continue;
    const c = codeSource(read.code);
    if ('problem' in c) out.push(`${file}: rule "${rule}", page condition ${Number(key.slice(key.lastIndexOf('#') + 1)) + 1}: its page code ${c.problem}`);
  }
  return out;
}

/**
 * The define's text: `0`, or the function offtag.js calls with the event and the snapshot's
 * problems (and, for `getVar`, a data element's name: only its read). Helpers: `r` runs one read into group `g` under key `k`; `l` reads localStorage (null
 * when it cannot, as Launch's Core extension); `a` reads a DOM attribute (Core's DOM Attribute);
 * `v` follows a path of keys from `window` (Core's JavaScript Variable).
 */
export function pageReadsDefine(list: PageReadList): string {
  if (!list.elements.length && !list.conditions.length) return '0';
  const lines = [
    ...list.elements.map(({ key, read }) => `r("d",${q(key)},${readExpression(read)});`),
    ...list.conditions.map(({ key, read, events }) => `if(${eventTest(events)})r("c",${q(key)},${readExpression(read)});`),
  ];
  // `b`: a read that sends an event (`_satellite.track` in page code) gets no page reads for that
  // inner event, rather than reading again without end.
  // `n`: one data element's read only (an imported container's `_satellite.getVar`, src/main-bridge/launch-satellite.ts).
  return [
    '((b)=>(e,p,h,n)=>{',
    'if(b)return{};b=1;try{',
    'const o={},',
    'r=(g,k,f)=>{if(n&&(g<"d"||k!=n))return;try{const v=f(e,h);(o[g]||(o[g]={}))[k]=v}catch(x){p.push({kind:"page",g,k,detail:x instanceof Error?x.name+": "+x.message:x&&typeof x=="object"?"a thrown object":String(x)})}},',
    'l=k=>{try{return localStorage.getItem(k)}catch(x){return null}},',
    'a=(s,n)=>{const t=document.querySelector(s);if(t)return n=="text"?t.innerText||t.textContent:n in t?t[n]:t.getAttribute(n)},',
    'v=s=>s.reduce((o,k)=>o==null?void 0:o[k],window);',
    ...lines,
    'return o}finally{b=0}})(0)',
  ].join('\n');
}
