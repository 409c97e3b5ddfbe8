/**
 * The page's `adobe.optIn` calls (VisitorAPI.js 5.5.0: opt-in), as the `Visitor` facade forwards them
 * (`optIn.<method>`), on the service's opt-in state.
 */
import type { OptIn } from './opt-in.ts';

export type VisitorCallResult = { value?: unknown; callbacks?: unknown[][] };

/** The answer to `optIn.<method>`; `undefined` when `method` is not an opt-in call. */
export function optInCall(optIn: OptIn, method: string, args: unknown[]): VisitorCallResult | Promise<VisitorCallResult> | undefined {
  switch (method) {
    case 'optIn.approve':
      optIn.approve(args[0], args[1] === true);
      return {};
    case 'optIn.deny':
      optIn.deny(args[0], args[1] === true);
      return {};
    case 'optIn.approveAll':
      optIn.approveAll();
      return {};
    case 'optIn.denyAll':
      optIn.denyAll();
      return {};
    case 'optIn.complete':
      optIn.complete();
      return {};
    case 'optIn.fetchPermissions':
      // One reply per call: a subscription (`autoSubscribe`) delivers its first answer only.
      return new Promise((resolve) => optIn.fetchPermissions((permissions) => resolve({ value: permissions, callbacks: [[permissions]] })));
    case 'optIn.isApproved':
      return { value: optIn.isApproved(args[0]) };
    case 'optIn.isPreApproved':
      return { value: optIn.isPreApproved(args[0]) };
    case 'optIn.status':
      return { value: optIn.status };
    case 'optIn.permissions':
      return { value: optIn.permissions() };
  }
  return undefined;
}
