/**
 * Writing code into the page as Launch's Core custom code action does (its facts, Offtag's code):
 * everything goes at the end of the body, once there is a body (looked for every 20 ms); markup is
 * written node by node and its scripts run in order — an inline script at once, a `src` script
 * loaded before the next node is written — and what a script writes with `document.write` goes in
 * right after it. Each script is a script of its own: sloppy unless it says otherwise, the page's
 * globals, nothing of offtag.js in its scope.
 */

/** Runs `f` with the body once there is one (Core's custom code waits for it, looking every 20 ms). */
export function whenBody(f: (body: HTMLElement) => void): void {
  if (document.body) f(document.body);
  else setTimeout(() => whenBody(f), 20);
}

const RUNS = /^((text|application)\/(x-)?(java|ecma)script|module)$/i;

/** A script element that runs, for `text` or a parsed (inert) script: same attributes, same code, the nonce. */
function runnable(from: { text: string; attributes?: NamedNodeMap }, nonce?: string): HTMLScriptElement {
  const s = document.createElement('script');
  for (const a of Array.from(from.attributes ?? [])) s.setAttribute(a.name, a.value);
  if (nonce) s.nonce = nonce;
  s.text = from.text;
  return s;
}

/**
 * Puts `s` where `old` is (or at the end of `parent`) and resolves once it has run: at once for
 * inline code, on load or error for `src`. `document.write` calls meanwhile write after it.
 */
function place(s: HTMLScriptElement, parent: Node, old: Node | null, nonce?: string): Promise<void> {
  return new Promise((done) => {
    const d = document as Document & Record<'write' | 'writeln', (...t: string[]) => void>;
    const own = { write: d.write, writeln: d.writeln };
    let written = '';
    d.write = (...t: string[]) => void (written += t.join(''));
    d.writeln = (...t: string[]) => void (written += t.join('') + '\n');
    const after = () => {
      d.write = own.write;
      d.writeln = own.writeln;
      if (!written) return done();
      const mark = document.createComment('');
      s.parentNode ? s.parentNode.insertBefore(mark, s.nextSibling) : parent.appendChild(mark);
      void writeBefore(written, mark, nonce).then(() => (mark.remove(), done()));
    };
    const waits = s.src && RUNS.test(s.type || 'text/javascript');
    if (waits) s.onload = s.onerror = after;
    if (old) old.parentNode!.replaceChild(s, old);
    else parent.appendChild(s);
    if (!waits) after();
  });
}

/** Writes `html` before `mark` (in its parent), node by node, running each node's scripts before the next. */
async function writeBefore(html: string, mark: Node, nonce?: string): Promise<void> {
  const t = document.createElement('template');
  t.innerHTML = html;
  // A template parses as a page with scripting off: a noscript's content would be live markup (its
  // pixel loaded). The page, scripting on, keeps it as text.
  for (const n of Array.from(t.content.querySelectorAll('noscript'))) n.textContent = n.innerHTML;
  for (const node of Array.from(t.content.childNodes)) {
    mark.parentNode!.insertBefore(node, mark);
    const scripts = node.nodeName == 'SCRIPT' ? [node as HTMLScriptElement] : Array.from((node as Element).querySelectorAll?.('script') ?? []);
    for (const old of scripts) await place(runnable(old, nonce), old.parentNode!, old, nonce);
  }
}

/** Core's HTML custom code: `html` written at the end of the body; resolves once its scripts have run. */
export function writeHtml(html: string, nonce?: string): Promise<void> {
  return new Promise((done) =>
    whenBody((body) => {
      const mark = body.appendChild(document.createComment(''));
      void writeBefore(html, mark, nonce).then(() => (mark.remove(), done()));
    }),
  );
}

/** Core's JavaScript custom code: `code` as a script of its own at the end of the body (errors are the page's, as with Core). */
export function writeScript(code: string, nonce?: string): void {
  whenBody((body) => void place(runnable({ text: code }, nonce), body, null, nonce));
}
