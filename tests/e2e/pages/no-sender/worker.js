// The offtag worker from a folder with no offtag-sender.js beside it: the SharedWorker offtag.js
// starts there never loads, so the worker sends its beacons itself (tests/e2e/transport.spec.ts).
importScripts('/dist/offtag-worker.js');
