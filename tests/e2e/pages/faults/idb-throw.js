self.offtagIdbFault = 'throw';
importScripts(self.location.origin + '/test/faults/idb.js');
