// The origin's beacon sender beside the fault workers (offtag.js starts it from the worker file's
// folder), so `npm run faults` breaks IndexedDB with the sender in place, as on a real site.
importScripts('/dist/offtag-sender.js');
