/**
 * The ID-sync page the local ID service serves as `/dest5.html` (VisitorAPI.js 5.5.0: the ID-sync iframe; Adobe's own page
 * is unpublished, so this speaks only the documented side of the protocol). It trusts exactly
 * one parent origin, the one named in its `#` fragment: it tells that origin it can set
 * third-party cookies, accepts `---destpub-combined---` posts only from it, fires the entries'
 * URLs as pixels and records what it saw at `/dest5/record` (and in `window.dest5`, for tests
 * that load it same-origin).
 */
export const DEST5_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>dest5</title></head><body><script>
(function () {
  var CLEAR = '---destpub-clear-dextp---';
  var COMBINED = '---destpub-combined---';
  var parentOrigin = '';
  try { parentOrigin = decodeURIComponent(location.hash.slice(1)); } catch (e) {}
  var state = (window.dest5 = { parentOrigin: parentOrigin, received: [], rejected: [] });
  function record(params) {
    var q = Object.keys(params).map(function (k) { return k + '=' + encodeURIComponent(params[k]); }).join('&');
    if (/^https?:/.test(location.protocol)) fetch('/dest5/record?' + q).catch(function () {});
  }
  window.addEventListener('message', function (e) {
    if (!parentOrigin || e.origin !== parentOrigin) {
      state.rejected.push({ origin: e.origin, data: String(e.data) });
      record({ kind: 'rejected', origin: e.origin });
      return;
    }
    var data = typeof e.data === 'string' ? e.data : '';
    var clear = data.indexOf(CLEAR) === 0;
    if (clear) data = data.slice(CLEAR.length);
    if (data.indexOf(COMBINED) !== 0) return;
    var body = data.slice(COMBINED.length);
    var entries = body ? body.split('%01') : [];
    state.received.push({ clear: clear, entries: entries });
    record({ kind: 'combined', origin: e.origin, clear: String(clear), entries: JSON.stringify(entries) });
    entries.forEach(function (entry) {
      var parts = entry.split('|').map(decodeURIComponent);
      if (parts[0] !== 'ibs' || !parts[3]) return;
      parts[3].split(',').forEach(function (u) {
        if (/^(https?:)?\\/\\//.test(u)) new Image().src = u.indexOf('//') === 0 ? location.protocol + u : u;
      });
    });
  });
  if (parentOrigin && window.parent !== window) {
    window.parent.postMessage('---destpub-to-parent---canSetThirdPartyCookies|true', parentOrigin);
  }
})();
</script></body></html>
`;
