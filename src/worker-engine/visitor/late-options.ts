/**
 * The visitor-ID service built on its first use, so that a container can give it configuration
 * computed on the first event (the Launch ECID extension's variables, whose `%data element%`
 * tokens Launch expands when it creates the `Visitor` instance at library load). Until then it
 * holds the container's fixed options; `configure` adds to them while the service is not built.
 * Nothing here does I/O: the service it builds does all through `ctx`, as before.
 */
import type { EngineContext } from '../core/types.ts';
import type { VisitorService } from '../services.ts';
import { createVisitorService, type VisitorOptions } from './service.ts';

export function createLateVisitorService(ctx: EngineContext, fixed: VisitorOptions = {}): VisitorService {
  let options: VisitorOptions = fixed;
  let built: VisitorService | undefined;
  const svc = () => (built ??= createVisitorService(ctx, options));
  return {
    get orgId() {
      return svc().orgId;
    },
    configure(more: VisitorOptions): boolean {
      if (built) return false;
      options = { ...options, ...more };
      return true;
    },
    start: () => svc().start(),
    getVisitorValues: () => svc().getVisitorValues(),
    isApproved: (category) => svc().isApproved(category),
    getCustomerIDs: () => svc().getCustomerIDs(),
    getSupplementalDataID: (consumer, noGenerate) => svc().getSupplementalDataID(consumer, noGenerate),
    call: (method, args) => svc().call(method, args),
    onFrameMessage: (frameId, origin, data) => svc().onFrameMessage(frameId, origin, data),
  };
}
