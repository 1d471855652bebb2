// What each benchmark scheme means for the player page and the Node client.
import { schemeInfo, type SchemeName } from '@pcc-stream/protocol';
import type { ControllerParams, Scenario, Scheme } from './scenario.ts';
import { splitAids } from './aids.ts';
import { isExternalScheme } from './external-schemes.ts';

export interface SchemeTransport {
  /** The player's `transport` URL parameter and the fetch CLI's --transport; `external` for a peer that brings
   *  its own sender and receiver (external-schemes.ts), which neither the player nor the fetch CLI runs. */
  transport: 'datagram' | 'quic-stream' | 'tcp' | 'external';
  /** The congestion controller: a WASM controller (datagram), quinn's (quic-stream) or the kernel's (tcp). */
  cc: string;
}

/** The scenario's controller parameter overrides for this scheme ({} for none, and for non-datagram schemes). */
export function controllerParamsFor(scenario: Scenario, scheme: Scheme): Record<string, number> {
  // An aided scheme (vivace+prefetch) runs its plain scheme's controller with the same parameters.
  return scenario.controllerParams[splitAids(scheme).base as keyof ControllerParams] ?? {};
}

export function schemeTransport(scheme: Scheme): SchemeTransport {
  if (isExternalScheme(scheme)) return { transport: 'external', cc: scheme };
  const { transport, cc } = schemeInfo(splitAids(scheme).base as SchemeName);
  return { transport, cc };
}
