// The one registry of congestion-control schemes: every controller pcc-stream can run, on the transport it runs on.
// Data only (no WASM load), so protocol, server, player, bench and scripts all import their names from here.
// A scheme is one controller on one transport; its canonical name is the controller's for our WASM controllers
// (datagram transport), `quic-<cc>` for quinn's and `tcp-<cc>` for the kernel's. Adding a controller is one entry
// below (plus, for a WASM controller, its C file and its line in controller-wasm/src/registry.c).
import { fail, ok, type Result } from './errors.ts';

/** Where a scheme's bytes travel: QUIC datagrams paced by a WASM controller, a QUIC stream under quinn's congestion
 *  control, or HTTPS over kernel TCP. */
export const SCHEME_TRANSPORTS = ['datagram', 'quic-stream', 'tcp'] as const;
export type SchemeTransport = (typeof SCHEME_TRANSPORTS)[number];

export interface SchemeInfo {
  /** Canonical name: what bench scenarios, results, tables and the player's compare view say. */
  readonly name: string;
  readonly transport: SchemeTransport;
  /** The controller's own name where it is chosen: the session URL's `cc` (datagram, quic-stream), the TCP origin's
   *  `?cc=` and TCP_CONGESTION (tcp). */
  readonly cc: string;
  readonly description: string;
  /** Compared by a benchmark scenario that names no schemes (`fixed` needs a rate; quinn's NewReno is offered, not
   *  compared). */
  readonly benchmarked: boolean;
}

export const SCHEMES = [
  { name: 'vivace', transport: 'datagram', cc: 'vivace', description: 'PCC Vivace, latency-aware utility (PCC thesis ch. 4, eq. 4.1)', benchmarked: true },
  { name: 'vivace-loss', transport: 'datagram', cc: 'vivace-loss', description: 'PCC Vivace with the loss-only utility and the kernel paper\'s moving state', benchmarked: true },
  { name: 'vivace-video', transport: 'datagram', cc: 'vivace-video', description: 'PCC Vivace whose utility hears the player (CMCD): throughput first at a low buffer, low latency and smooth pacing at a healthy one', benchmarked: true },
  { name: 'allegro', transport: 'datagram', cc: 'allegro', description: 'PCC Allegro, loss-based utility (PCC thesis ch. 2-3)', benchmarked: true },
  { name: 'allegro-latency', transport: 'datagram', cc: 'allegro-latency', description: 'PCC Allegro with the latency-aware utility (PCC thesis §3.4.4; the Allegro-Latency of its Figs 4.8-4.10 and 5.1-5.2)', benchmarked: false },
  { name: 'pcp', transport: 'datagram', cc: 'pcp', description: 'PCP, probe-based rate control (PCP paper)', benchmarked: true },
  { name: 'cubic', transport: 'datagram', cc: 'cubic', description: 'our CUBIC in WASM, paced over datagrams', benchmarked: true },
  { name: 'bbr', transport: 'datagram', cc: 'bbr', description: 'our BBR in WASM, paced over datagrams', benchmarked: true },
  { name: 'fixed', transport: 'datagram', cc: 'fixed', description: 'constant rate (parameter rate_bps), for receive-rate checks', benchmarked: false },
  { name: 'quic-cubic', transport: 'quic-stream', cc: 'cubic', description: 'quinn\'s CUBIC on a QUIC stream', benchmarked: true },
  { name: 'quic-bbr', transport: 'quic-stream', cc: 'bbr', description: 'quinn\'s BBR on a QUIC stream', benchmarked: true },
  { name: 'quic-newreno', transport: 'quic-stream', cc: 'newreno', description: 'quinn\'s NewReno on a QUIC stream', benchmarked: false },
  { name: 'tcp-cubic', transport: 'tcp', cc: 'cubic', description: 'the Linux kernel\'s TCP CUBIC over HTTPS', benchmarked: true },
  { name: 'tcp-bbr', transport: 'tcp', cc: 'bbr', description: 'the Linux kernel\'s TCP BBR over HTTPS', benchmarked: true },
] as const satisfies readonly SchemeInfo[];

/** One entry of SCHEMES, with its literal name, transport and cc. */
export type RegisteredScheme = (typeof SCHEMES)[number];
export type SchemeName = RegisteredScheme['name'];
export type SchemeOn<T extends SchemeTransport> = Extract<RegisteredScheme, { transport: T }>;
/** A WASM controller's name (what controller-wasm/src/registry.c registers). */
export type WasmControllerName = SchemeOn<'datagram'>['cc'];
export type QuicControllerName = SchemeOn<'quic-stream'>['cc'];
export type TcpControllerName = SchemeOn<'tcp'>['cc'];

/** The default scheme of the origin and the player. */
export const DEFAULT_SCHEME: SchemeName = 'vivace';

/** The shortest honest comparison: the default PCC scheme beside the kernel's default TCP (smoke runs, fault cases
 *  that compare one PCC run with kernel TCP). */
export const PCC_VS_KERNEL_TCP: readonly SchemeName[] = [DEFAULT_SCHEME, 'tcp-cubic'];

/** The schemes on one transport, in registry order. */
export function schemesOn<T extends SchemeTransport>(transport: T): ReadonlyArray<SchemeOn<T>> {
  return SCHEMES.filter((s): s is SchemeOn<T> => s.transport === transport);
}

/** The controller names one transport accepts (`cc=`), in registry order. */
export function controllersOn<T extends SchemeTransport>(transport: T): ReadonlyArray<SchemeOn<T>['cc']> {
  // TypeScript cannot index a generic Extract<> by 'cc'; every element is a SchemeOn<T>, so its cc is one of them.
  return schemesOn(transport).map((s) => s.cc as SchemeOn<T>['cc']);
}

export const SCHEME_NAMES: readonly SchemeName[] = SCHEMES.map((s) => s.name);
/** The schemes a benchmark scenario compares when it names none, in registry order. */
export const BENCHMARKED_SCHEMES: readonly SchemeName[] = SCHEMES.filter((s) => s.benchmarked).map((s) => s.name);
/** Our WASM controllers (datagram transport). */
export const WASM_CONTROLLERS: readonly WasmControllerName[] = controllersOn('datagram');
/** quinn's controllers (quic-stream transport). */
export const QUIC_CONTROLLERS: readonly QuicControllerName[] = controllersOn('quic-stream');
/** The kernel's controllers the TCP baseline offers (tcp transport). */
export const TCP_CONTROLLERS: readonly TcpControllerName[] = controllersOn('tcp');

export function isSchemeName(name: string): name is SchemeName {
  return (SCHEME_NAMES as readonly string[]).includes(name);
}

export function isSchemeTransport(name: string): name is SchemeTransport {
  return (SCHEME_TRANSPORTS as readonly string[]).includes(name);
}

export function schemeInfo(name: SchemeName): RegisteredScheme {
  const found = SCHEMES.find((s) => s.name === name);
  if (!found) throw new RangeError(`unknown scheme ${name}`);
  return found;
}

/** The scheme running `cc` on `transport` (the session URL's and the player's `transport=…&cc=…`). */
export function schemeFor(transport: string, cc: string): Result<RegisteredScheme> {
  if (!isSchemeTransport(transport)) return fail('invalid-field', `transport=${JSON.stringify(transport)} is not one of ${SCHEME_TRANSPORTS.join(', ')}`);
  const found = SCHEMES.find((s) => s.transport === transport && s.cc === cc);
  if (!found) return fail('invalid-field', `cc=${cc} is not a controller for transport=${transport}; use one of: ${controllersOn(transport).join(', ')}`);
  return ok(found);
}

/**
 * Resolves a scheme name as a user may write it: the canonical name (`tcp-cubic`, `quic-bbr`, `vivace`), or the alias
 * `<cc>@<transport>` the player's compare view accepts (`cubic@tcp`, `bbr@quic-stream`, `vivace@datagram`).
 */
export function parseScheme(text: string): Result<RegisteredScheme> {
  const name = text.trim();
  if (isSchemeName(name)) return ok(schemeInfo(name));
  const at = name.indexOf('@');
  if (at > 0) return schemeFor(name.slice(at + 1), name.slice(0, at));
  return fail('invalid-field', `unknown scheme ${JSON.stringify(text)} (known: ${SCHEME_NAMES.join(', ')}; also <cc>@<transport>, e.g. cubic@tcp)`);
}

/** Every accepted spelling of a scheme: its canonical name first, then its aliases. */
export function schemeSpellings(scheme: SchemeInfo): string[] {
  return [scheme.name, `${scheme.cc}@${scheme.transport}`];
}
