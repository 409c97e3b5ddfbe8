/**
 * Where a custom code block can run. It runs in the worker when every name it uses is its own
 * (declared in it), a plain JavaScript built-in, or one of what the worker gives custom code:
 * `_satellite.getVar`, `_satellite.cookie`, `_satellite.logger`, `_satellite.environment` and
 * `sessionStorage`'s items. Anything else (`document`, `window`, `this` as the element, a page
 * global, `_satellite.track`) keeps it on the page. The scan is conservative: what it cannot
 * read (a template literal) counts as needing the page.
 */

const BUILT_INS = new Set(
  ('Math JSON String Number Boolean Array Object Date RegExp Error TypeError RangeError parseInt parseFloat isNaN isFinite ' +
    'encodeURIComponent decodeURIComponent encodeURI decodeURI undefined NaN Infinity Map Set Symbol Promise').split(' '),
);
const KEYWORDS = new Set(
  ('var let const function return if else for while do break continue switch case default throw try catch finally new ' +
    'typeof instanceof in of delete void null true false this with yield async await class extends super debugger').split(' '),
);
const SATELLITE_MEMBERS = new Set(['getVar', 'cookie', 'logger', 'environment']);
const STORAGE_MEMBERS = new Set(['getItem', 'setItem', 'removeItem']);

export interface Placement {
  where: 'worker' | 'page';
  /** Why it stays on the page. */
  reason?: string;
  /** It writes (cookies or storage): read only by the rules that need it. */
  sideEffects: boolean;
  /** sessionStorage keys it names with a string literal. */
  sessionKeys: string[];
  /** It reads the data layer global directly (`digitalData.…` or `window.digitalData.…`): the whole layer travels. */
  readsDataLayer?: boolean;
}

interface Token {
  kind: 'id' | 'punct' | 'string' | 'regex' | 'number';
  text: string;
}

function tokenize(src: string): Token[] | string {
  const out: Token[] = [];
  let i = 0;
  const regexAllowed = () => {
    const last = out[out.length - 1];
    if (!last) return true;
    if (last.kind === 'punct') return !/^[)\]}]$/.test(last.text);
    return last.kind === 'id' && /^(return|typeof|case|do|else|in|of|new|delete|void|throw)$/.test(last.text);
  };
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) i++;
    else if (src.startsWith('//', i)) i = src.indexOf('\n', i) === -1 ? src.length : src.indexOf('\n', i);
    else if (src.startsWith('/*', i)) i = src.indexOf('*/', i) === -1 ? src.length : src.indexOf('*/', i) + 2;
    else if (c === '`') return 'a template literal, which the import does not analyse';
    else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < src.length && src[j] !== c) j += src[j] === '\\' ? 2 : 1;
      out.push({ kind: 'string', text: src.slice(i + 1, j) });
      i = j + 1;
    } else if (c === '/' && regexAllowed()) {
      let j = i + 1;
      let inClass = false;
      while (j < src.length && (inClass || src[j] !== '/')) {
        if (src[j] === '\\') j++;
        else if (src[j] === '[') inClass = true;
        else if (src[j] === ']') inClass = false;
        j++;
      }
      j++;
      while (/[a-z]/.test(src[j] ?? '')) j++;
      out.push({ kind: 'regex', text: src.slice(i, j) });
      i = j;
    } else if (/[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][\w$]*/.exec(src.slice(i))![0];
      out.push({ kind: 'id', text: m });
      i += m.length;
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9][\w.]*/.exec(src.slice(i))![0];
      out.push({ kind: 'number', text: m });
      i += m.length;
    } else {
      const m = /^(=>|===|!==|==|!=|<=|>=|&&|\|\||\+\+|--|\.\.\.|[^\s])/.exec(src.slice(i))![0];
      out.push({ kind: 'punct', text: m });
      i += m.length;
    }
  }
  return out;
}

/** The names a block declares: `var`/`let`/`const` lists, functions and their parameters, `catch (e)`. */
function declared(tokens: Token[]): Set<string> {
  const names = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind !== 'id') continue;
    if (t.text === 'var' || t.text === 'let' || t.text === 'const') {
      // The first name, and each name after a comma at the same depth, up to the statement's end.
      let depth = 0;
      let expectName = true;
      for (let j = i + 1; j < tokens.length; j++) {
        const u = tokens[j]!;
        if (u.text === '(' || u.text === '[' || u.text === '{') depth++;
        else if (u.text === ')' || u.text === ']' || u.text === '}') {
          if (depth === 0) break;
          depth--;
        } else if (depth === 0 && u.text === ';') break;
        else if (depth === 0 && u.text === ',') expectName = true;
        else if (expectName && u.kind === 'id') {
          names.add(u.text);
          expectName = false;
        } else expectName = false;
      }
    } else if (t.text === 'function' || t.text === 'catch') {
      let j = i + 1;
      if (tokens[j]?.kind === 'id') names.add(tokens[j++]!.text);
      if (tokens[j]?.text === '(') for (j++; j < tokens.length && tokens[j]!.text !== ')'; j++) if (tokens[j]!.kind === 'id') names.add(tokens[j]!.text);
    } else if (tokens[i + 1]?.text === '=>') names.add(t.text);
  }
  // Parameters of arrow functions written with parentheses.
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.text !== '=>' || tokens[i - 1]?.text !== ')') continue;
    for (let j = i - 2; j >= 0 && tokens[j]!.text !== '('; j--) if (tokens[j]!.kind === 'id') names.add(tokens[j]!.text);
  }
  return names;
}

/**
 * Where `source` (a custom code block, as function source or body) can run. `params`: names it is
 * given. `dataLayer`: the data layer global, which worker code may read (its snapshot copy), as
 * `digitalData.…` or `window.digitalData.…`, but not assign to.
 */
export function place(source: string, params: string[] = [], dataLayer?: string): Placement {
  const sideEffects = /\.(setItem|removeItem|set|remove)\s*\(/.test(source);
  const sessionKeys = [...source.matchAll(/sessionStorage\.(?:getItem|setItem|removeItem)\(\s*(['"])([^'"]+)\1/g)].map((m) => m[2]!);
  const tokens = tokenize(source);
  if (typeof tokens === 'string') return { where: 'page', reason: tokens, sideEffects, sessionKeys };
  const own = declared(tokens);
  for (const p of params) own.add(p);
  let readsDataLayer = false;
  if (dataLayer && new RegExp(`\\b${dataLayer}\\b(\\s*(\\.\\s*[\\w$]+|\\[[^\\]]*\\]))*\\s*(=[^=]|\\+\\+|--|\\+=|-=)`).test(source)) {
    return { where: 'page', reason: `it writes into \`${dataLayer}\`, the page's data layer`, sideEffects, sessionKeys };
  }
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind !== 'id') continue;
    const prev = tokens[i - 1]?.text;
    const next = tokens[i + 1]?.text;
    if (prev === '.') continue;
    if (next === ':' && (prev === '{' || prev === ',')) continue; // an object key
    if (t.text === 'this') return { where: 'page', reason: 'it uses `this` (the element of the event)', sideEffects, sessionKeys };
    if (KEYWORDS.has(t.text) || BUILT_INS.has(t.text) || own.has(t.text)) continue;
    const member = next === '.' ? tokens[i + 2]?.text : undefined;
    if (dataLayer && (t.text === dataLayer || (t.text === 'window' && member === dataLayer)) && !own.has(dataLayer)) {
      readsDataLayer = true;
      continue;
    }
    if (t.text === '_satellite' && member && SATELLITE_MEMBERS.has(member)) continue;
    if (t.text === 'sessionStorage' && member && STORAGE_MEMBERS.has(member)) continue;
    const what = member ? `${t.text}.${member}` : t.text;
    return { where: 'page', reason: `it uses \`${what}\`, which only the page has`, sideEffects, sessionKeys };
  }
  return { where: 'worker', sideEffects, sessionKeys, ...(readsDataLayer ? { readsDataLayer } : {}) };
}
