self.offtagIdbFault = 'missing';
importScripts(self.location.origin + '/test/faults/idb.js');
