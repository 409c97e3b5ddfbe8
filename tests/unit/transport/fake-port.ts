/**
 * One end of a channel the test reads and writes itself (the transport tests' sender ports):
 * what is posted on it is kept (`sent`), `hear` hands it a message.
 */
import type { SenderAnswer, SenderRequest } from '../../../src/worker-engine/transport/sender.ts';

export function port() {
  const p = {
    sent: [] as unknown[],
    onmessage: null as null | ((e: { data: unknown }) => void),
    postMessage(data: unknown) {
      p.sent.push(structuredClone(data));
    },
    hear(data: SenderRequest | SenderAnswer) {
      p.onmessage!({ data });
    },
  };
  return p;
}
export type FakePort = ReturnType<typeof port>;
export const asPort = (p: FakePort) => p as unknown as MessagePort;
