// `npm run faults`: the offtag worker with IndexedDB broken on purpose (tools/faults/run.ts).
// The blob worker loads this file (offtagConfig.workerUrl), which reads its mode from
// self.offtagIdbFault (set by the per-mode file that imports it) and then loads the real worker.
(function () {
  var mode = self.offtagIdbFault;
  if (mode === 'missing') {
    Object.defineProperty(self, 'indexedDB', { value: undefined, configurable: true });
  } else if (mode === 'hang') {
    // indexedDB.open that never answers (no success, no error, no blocked).
    indexedDB.open = function () { return {}; };
  } else if (mode === 'throw') {
    indexedDB.open = function () { throw new DOMException('The user denied permission to access the database.', 'InvalidStateError'); };
  } else if (mode === 'quota') {
    // A quota error on every write once the page has lived 3 s (beacons already stored by then).
    var born = Date.now();
    var put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function () {
      if (Date.now() - born > 3000) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.apply(this, arguments);
    };
  }
})();
importScripts(self.location.origin + '/dist/offtag-worker.js');
