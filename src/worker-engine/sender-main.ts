/** offtag-sender.js: the origin's beacon sender, a SharedWorker (transport/sender.ts, docs/delivery.md "The sender"). */
import { fetchStatus, servePort } from './transport/sender.ts';

(self as unknown as { onconnect: (e: MessageEvent) => void }).onconnect = (e) => servePort(e.ports[0]!, fetchStatus);
