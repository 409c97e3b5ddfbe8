/**
 * Elements made to match a CSS selector, for the corpus pages: a Click or Custom Event rule's
 * `elementSelector` becomes markup the rule's listener can fire on. The selector is read as
 * compound selectors joined by combinators; each compound becomes an element with its tag, id,
 * classes and attributes, descendants and children nested, siblings placed side by side,
 * `:nth-child(n)` given its n − 1 elder siblings. What cannot be built (a pseudo-element, a
 * pseudo-class the builder does not know) is left out and the page checks `matches()` on the
 * element it clicks: an element that does not match is reported, never hidden.
 */

/** One element of a corpus page, rendered by `renderElements`. */
export interface ElementSpec {
  tag: string;
  attrs: Record<string, string>;
  text?: string;
  children: ElementSpec[];
}

/** Markup for `html` and `body` themselves (a selector that starts with `body.home …`). */
export interface RootAttrs {
  html: Record<string, string>;
  body: Record<string, string>;
}

export interface Built {
  /** Elements to put at the top of the body, outermost first. */
  roots: ElementSpec[];
  /** The element the selector targets (inside `roots`, or the body). */
  target: ElementSpec;
  /** Parts of the selector the builder could not make (`:hover`, `::before`); the page checks `matches()`. */
  unbuilt: string[];
}

type Attr = { name: string; op: string; value: string };
interface Compound {
  tag: string;
  id?: string;
  classes: string[];
  attrs: Attr[];
  pseudos: Array<{ name: string; arg?: string }>;
}
type Combinator = ' ' | '>' | '+' | '~';

/** Splits at top-level commas (not inside brackets, parentheses or quotes). */
export function splitList(selector: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let cur = '';
  for (let i = 0; i < selector.length; i++) {
    const ch = selector[i]!;
    if (quote) {
      if (ch === '\\') (cur += ch + (selector[i + 1] ?? '')), i++;
      else {
        if (ch === quote) quote = '';
        cur += ch;
      }
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '[' || ch === '(') depth++;
    else if (ch === ']' || ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out.filter(Boolean);
}

const IDENT = /^-?(?:[A-Za-z_\u00a0-\uffff]|\\.)(?:[\w\u00a0-\uffff-]|\\.)*/;
const unescapeIdent = (s: string) => s.replace(/\\(.)/g, '$1');

/** Parses one complex selector into compounds and the combinators between them; undefined when it is not CSS this reads. */
export function parseComplex(sel: string): { compounds: Compound[]; combinators: Combinator[] } | undefined {
  const compounds: Compound[] = [];
  const combinators: Combinator[] = [];
  let i = 0;
  const s = sel.trim();
  const ws = () => {
    const start = i;
    while (i < s.length && /\s/.test(s[i]!)) i++;
    return i > start;
  };
  while (i < s.length) {
    const c: Compound = { tag: '*', classes: [], attrs: [], pseudos: [] };
    let any = false;
    const tag = /^(\*|[A-Za-z][\w-]*)/.exec(s.slice(i));
    if (tag) {
      c.tag = tag[1]!.toLowerCase();
      i += tag[0].length;
      any = true;
    }
    for (;;) {
      const ch = s[i];
      if (ch === '#' || ch === '.') {
        const m = IDENT.exec(s.slice(i + 1));
        if (!m) return undefined;
        if (ch === '#') c.id = unescapeIdent(m[0]);
        else c.classes.push(unescapeIdent(m[0]));
        i += 1 + m[0].length;
      } else if (ch === '[') {
        const end = closing(s, i, '[', ']');
        if (end < 0) return undefined;
        const m = /^\s*([^\s~|^$*=\]]+)\s*(?:([~|^$*]?=)\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^\s\]]+))\s*([iIsS])?)?\s*$/.exec(s.slice(i + 1, end));
        if (!m) return undefined;
        c.attrs.push({ name: m[1]!, op: m[2] ?? '', value: unescapeIdent(m[3] ?? m[4] ?? m[5] ?? '') });
        i = end + 1;
      } else if (ch === ':') {
        const element = s[i + 1] === ':';
        const m = /^::?([\w-]+)/.exec(s.slice(i));
        if (!m) return undefined;
        i += m[0].length;
        let arg: string | undefined;
        if (s[i] === '(') {
          const end = closing(s, i, '(', ')');
          if (end < 0) return undefined;
          arg = s.slice(i + 1, end).trim();
          i = end + 1;
        }
        c.pseudos.push({ name: (element ? '::' : '') + m[1]!.toLowerCase(), arg });
      } else break;
      any = true;
    }
    if (!any) return undefined;
    compounds.push(c);
    const spaced = ws();
    if (i >= s.length) break;
    const comb = s[i];
    if (comb === '>' || comb === '+' || comb === '~') {
      combinators.push(comb);
      i++;
      ws();
    } else if (spaced) combinators.push(' ');
    else return undefined;
  }
  return compounds.length ? { compounds, combinators } : undefined;
}

function closing(s: string, from: number, open: string, close: string): number {
  let depth = 0;
  let quote = '';
  for (let i = from; i < s.length; i++) {
    const ch = s[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === open) depth++;
    else if (ch === close && --depth === 0) return i;
  }
  return -1;
}

/** A value for one attribute that meets every condition on it (`^=`, `$=`, `*=`, `=` …). */
function attrValue(conds: Attr[], tag: string, name: string): string {
  const exact = conds.find((a) => a.op === '=' || a.op === '~=' || a.op === '|=');
  if (exact) return exact.value;
  const prefix = conds.filter((a) => a.op === '^=').map((a) => a.value).sort((a, b) => b.length - a.length)[0] ?? '';
  const suffix = conds.filter((a) => a.op === '$=').map((a) => a.value).sort((a, b) => b.length - a.length)[0] ?? '';
  const middle = conds.filter((a) => a.op === '*=').map((a) => a.value).filter((v) => !prefix.includes(v) && !suffix.includes(v));
  const value = prefix + middle.join('') + suffix;
  if (value) return value;
  // Present only: a value a site would have.
  if (name === 'href' && (tag === 'a' || tag === 'area')) return '#corpus';
  return name === 'class' || name === 'id' ? 'corpus' : '';
}

/** The tag a compound becomes: its own, or an element that takes the attributes it names. */
function tagOf(c: Compound): string {
  if (c.tag !== '*') return c.tag;
  if (c.attrs.some((a) => a.name === 'href')) return 'a';
  return 'div';
}

/** Pseudo-classes the builder honours by building, or that match any element it makes. */
const MATCH_ANY = new Set(['first-child', 'first-of-type', 'link', 'any-link', 'enabled', 'visible', 'scope', 'is', 'where']);

function build(c: Compound, unbuilt: string[]): { el: ElementSpec; elder: number } {
  const tag = tagOf(c);
  const attrs: Record<string, string> = {};
  const byName = new Map<string, Attr[]>();
  for (const a of c.attrs) byName.set(a.name, [...(byName.get(a.name) ?? []), a]);
  for (const [name, conds] of byName) {
    if (name === 'class') {
      const v = attrValue(conds, tag, name);
      c.classes.push(...v.split(/\s+/).filter(Boolean));
    } else attrs[name] = attrValue(conds, tag, name);
  }
  if (c.id !== undefined) attrs.id = c.id;
  if (c.classes.length) attrs.class = [...new Set(c.classes)].join(' ');
  // Links keep the page: an anchor without a target of its own points inside the page.
  if ((tag === 'a' || tag === 'area') && !('href' in attrs)) attrs.href = '#corpus';
  let elder = 0;
  for (const p of c.pseudos) {
    const n = p.arg !== undefined ? nthValue(p.arg) : undefined;
    if ((p.name === 'nth-child' || p.name === 'nth-of-type') && n !== undefined) elder = Math.max(elder, n - 1);
    else if (p.name === 'checked') attrs.checked = '';
    else if (p.name === 'disabled') attrs.disabled = '';
    else if (!MATCH_ANY.has(p.name)) unbuilt.push(`:${p.name}${p.arg !== undefined ? `(${p.arg})` : ''}`);
  }
  return { el: { tag, attrs, children: [] }, elder };
}

/** The smallest positive n an `an+b` argument (or `odd`, `even`, a number) matches. */
export function nthValue(arg: string): number | undefined {
  const a = arg.replace(/\s+/g, '').toLowerCase();
  if (a === 'odd') return 1;
  if (a === 'even') return 2;
  if (/^[+]?\d+$/.test(a)) return Number(a) || undefined;
  const m = /^([+-]?\d*)n([+-]\d+)?$/.exec(a);
  if (!m) return undefined;
  const step = m[1] === '' || m[1] === '+' ? 1 : m[1] === '-' ? -1 : Number(m[1]);
  const off = Number(m[2] ?? 0);
  for (let k = 0; k < 1000; k++) {
    const v = step * k + off;
    if (v >= 1) return v;
    if (step <= 0 && k > 0) break;
  }
  return undefined;
}

/** Elder siblings a `:nth-child(n)` element needs, of its own tag for `:nth-of-type`. */
const elders = (el: ElementSpec, n: number): ElementSpec[] => Array.from({ length: n }, () => ({ tag: el.tag === 'td' || el.tag === 'li' || el.tag === 'option' ? el.tag : 'span', attrs: {}, children: [] }));

/**
 * Markup that matches `selector` (its first alternative that parses), or undefined when none
 * does. `html` and `body` compounds put their attributes on the root elements (`roots`).
 */
export function elementsFor(selector: string, root: RootAttrs): Built | undefined {
  for (const alt of splitList(selector)) {
    const parsed = parseComplex(alt);
    if (!parsed) continue;
    const unbuilt: string[] = [];
    const { compounds, combinators } = parsed;
    // `html` / `body` at the start: their attributes go on the page's own elements.
    let k = 0;
    let docRoot = false;
    while (k < compounds.length && (compounds[k]!.tag === 'html' || compounds[k]!.tag === 'body')) {
      const c = compounds[k]!;
      const { el } = build(c, unbuilt);
      const into = c.tag === 'html' ? root.html : root.body;
      for (const [n, v] of Object.entries(el.attrs)) into[n] = n === 'class' && into.class ? [...new Set([...into.class.split(' '), ...v.split(' ')])].join(' ') : v;
      docRoot = true;
      k++;
    }
    const bodyTarget: ElementSpec = { tag: 'body', attrs: root.body, children: [] };
    if (k === compounds.length) return { roots: [], target: bodyTarget, unbuilt };
    // Each compound's element, and where it goes: inside the one before (' ', '>') or beside it ('+', '~').
    const roots: ElementSpec[] = [];
    let parentList = roots;
    let prev: ElementSpec | undefined;
    let target!: ElementSpec;
    for (let j = k; j < compounds.length; j++) {
      const { el, elder } = build(compounds[j]!, unbuilt);
      const comb = j > k ? combinators[j - 1]! : undefined;
      if (comb === ' ' || comb === '>') parentList = prev!.children;
      // A compound that needs elder siblings at the top of the body gets a parent of its own (the body has other children).
      if (elder && parentList === roots && !docRoot) {
        const holder: ElementSpec = { tag: 'div', attrs: {}, children: [] };
        roots.push(holder);
        parentList = holder.children;
      }
      parentList.push(...elders(el, elder), el);
      prev = el;
      target = el;
    }
    return { roots, target, unbuilt };
  }
  return undefined;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const VOID = new Set(['input', 'img', 'br', 'hr', 'meta', 'link', 'area', 'source', 'wbr', 'col', 'embed', 'track', 'param', 'base']);

export const renderAttrs = (attrs: Record<string, string>) => Object.entries(attrs).map(([n, v]) => ` ${n.replace(/[^\w:.-]/g, '')}="${escapeHtml(v)}"`).join('');

/** HTML for elements; `data-corpus` marks the ones the page's steps act on. */
export function renderElements(els: ElementSpec[]): string {
  return els
    .map((e) => (VOID.has(e.tag) ? `<${e.tag}${renderAttrs(e.attrs)}>` : `<${e.tag}${renderAttrs(e.attrs)}>${e.text !== undefined ? escapeHtml(e.text) : ''}${renderElements(e.children)}</${e.tag}>`))
    .join('');
}
