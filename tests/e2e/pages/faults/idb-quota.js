self.offtagIdbFault = 'quota';
importScripts(self.location.origin + '/test/faults/idb.js');
