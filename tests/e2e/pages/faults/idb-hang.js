self.offtagIdbFault = 'hang';
importScripts(self.location.origin + '/test/faults/idb.js');
