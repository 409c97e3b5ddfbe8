/**
 * The core modules turbine gives extension code through `require('@adobe/reactor-…')`, written
 * for Offtag from their documented behaviour: load-script (a promise of an async script tag),
 * cookie (js-cookie 2's API and encoding), query-string (parse and stringify), promise, window,
 * document and object-assign (the browser's own).
 */

/**
 * An async script tag for `url` at the end of the head: resolves with it once it loaded, with
 * undefined when it failed. No Error is made for a failure: Core's external code files only need
 * to know the load ended, and on a page whose files are missing each Error (its stack) cost
 * milliseconds.
 */
export function scriptLoaded(url: string): Promise<HTMLScriptElement | undefined> {
  return new Promise((resolve) => {
    const s = document.createElement('script');
    s.async = true;
    s.src = url;
    s.onload = () => resolve(s);
    s.onerror = () => resolve(undefined);
    document.getElementsByTagName('head')[0]!.appendChild(s);
  });
}

/** `@adobe/reactor-load-script`: resolves with the script element once it loaded; rejects with the loader's words. */
export const loadScript = (url: string): Promise<HTMLScriptElement> => scriptLoaded(url).then((s) => s ?? Promise.reject(new Error('Failed to load script ' + url)));

type Attributes = { expires?: number | Date; path?: string; domain?: string; secure?: boolean; sameSite?: string; [k: string]: unknown };

/** Characters js-cookie writes as they are in a value (and fewer in a name). */
const VALUE_KEEP = /%(23|24|26|2B|3A|3C|3E|3D|2F|3F|40|5B|5D|5E|60|7B|7D|7C)/g;
const NAME_KEEP = /%(23|24|26|2B|5E|60|7C)/g;
const decode = (s: string) => s.replace(/(%[0-9A-Z]{2})+/g, decodeURIComponent);

const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/**
 * A cookie string's values as js-cookie 2's `get` reads them as text (quotes stripped, a cookie it
 * cannot decode skipped): `first`, what `get(name)` answers (it stops at the first cookie of that
 * name); `all`, what `get()` answers (a later cookie of a name overwrites an earlier one).
 */
function jars(text: string): [Record<string, string>, Record<string, string>] {
  const first: Record<string, string> = {};
  const all: Record<string, string> = {};
  for (const part of text ? text.split('; ') : []) {
    const at = part.indexOf('=');
    let value = part.slice(at + 1);
    if (value.charAt(0) == '"') value = value.slice(1, -1);
    try {
      const name = decode(part.slice(0, at));
      all[name] = decode(value);
      if (!has(first, name)) first[name] = all[name]!;
    } catch {
      /* a cookie js-cookie cannot decode is skipped */
    }
  }
  return [first, all];
}

export function cookieApi(defaults: Attributes = {}) {
  /**
   * The cookie string `get` last read and its text values (`jars`). Tags read cookies often (a real
   * library's page called `get` hundreds of times), mostly with nothing written in between:
   * decoding every cookie again each time was most of the page side's own time there. Each call
   * still reads `document.cookie`, so a cookie written by anyone is seen at once.
   */
  let seen: string | undefined;
  let first: Record<string, string> = {};
  let all: Record<string, string> = {};
  const api = {
    defaults,
    set(key: string, value: unknown, attributes?: Attributes): string | undefined {
      const a: Attributes = { path: '/', ...api.defaults, ...attributes };
      if (typeof a.expires == 'number') a.expires = new Date(Date.now() + a.expires * 864e5);
      let text = String(value);
      try {
        const json = JSON.stringify(value);
        if (/^[{[]/.test(json)) text = json;
      } catch {
        /* as text */
      }
      let cookie = encodeURIComponent(String(key)).replace(NAME_KEEP, decodeURIComponent).replace(/[()]/g, escape) + '=' + encodeURIComponent(text).replace(VALUE_KEEP, decodeURIComponent);
      for (const name in a) {
        const v = a[name];
        if (!v) continue;
        cookie += '; ' + name;
        if (v !== true) cookie += '=' + String(v instanceof Date ? v.toUTCString() : v).split(';')[0];
      }
      return (document.cookie = cookie);
    },
    get(key?: string, json?: boolean): unknown {
      const text = document.cookie;
      if (!json) {
        if (text !== seen) [seen, first, all] = [text, ...jars(text)];
        return key ? (has(first, key) ? first[key] : all[key]) : { ...all };
      }
      const jar: Record<string, unknown> = {};
      for (const part of text ? text.split('; ') : []) {
        const at = part.indexOf('=');
        try {
          const name = decode(part.slice(0, at));
          let v: unknown = decode(part.slice(at + 1));
          try {
            v = JSON.parse(v as string);
          } catch {
            /* as text */
          }
          jar[name] = v;
          if (key === name) break;
        } catch {
          /* a cookie js-cookie cannot decode is skipped */
        }
      }
      return key ? jar[key] : jar;
    },
    getJSON: (key?: string) => api.get(key, true),
    remove(key: string, attributes?: Attributes) {
      api.set(key, '', { ...attributes, expires: -1 });
    },
    withConverter: () => cookieApi(),
  };
  return api;
}

/** `@adobe/reactor-query-string`: a query string (a leading `?` or `#` ignored) to an object, repeated names as arrays; and back. */
export const queryString = {
  parse(text: string): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (const pair of String(text ?? '').replace(/^[?#&]/, '').split('&')) {
      if (!pair) continue;
      const at = pair.indexOf('=');
      const d = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
      const k = d(at < 0 ? pair : pair.slice(0, at));
      const v = at < 0 ? '' : d(pair.slice(at + 1));
      const have = out[k];
      out[k] = have === undefined ? v : ([] as string[]).concat(have, v);
    }
    return out;
  },
  stringify(o: Record<string, unknown>): string {
    const e = encodeURIComponent;
    return Object.keys(o ?? {})
      .map((k) => ([] as unknown[]).concat(o[k]).map((v) => (v === undefined ? '' : v === null ? e(k) : e(k) + '=' + e(String(v)))).filter(Boolean).join('&'))
      .filter(Boolean)
      .join('&');
  },
};

/** The modules by the name after `@adobe/reactor-`. */
export function reactorModules(): Record<string, unknown> {
  return {
    cookie: cookieApi(),
    document,
    'load-script': loadScript,
    'object-assign': Object.assign,
    promise: Promise,
    'query-string': queryString,
    window,
  };
}
