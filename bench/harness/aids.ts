// Delivery aids a benchmark scheme may run with: help that is not congestion control, so the honest comparison gives
// it to the TCP baselines too (issue 18, "Honest comparison"). An aided scheme is named `<scheme>+<aid>`
// (`vivace+prefetch`, `tcp-cubic+prefetch`): its own row in every table beside the plain scheme, the same controller.
import { fail, ok, parseScheme, type Result, type SchemeName } from '@pcc-stream/protocol';

export const AIDS = [
  {
    name: 'prefetch',
    /** The player page's URL parameter that turns it on. */
    playerParam: 'prefetch',
    description: 'client-side early request of a prefix of the next segment (CMCD nor), sized to hide the request gap (rate x time to first byte), none while the buffer is at its target (player/src/transport/prefetching-fetcher.ts)',
    /** The player marks these requests (PROTOCOL.md §2.6), so the origin counts the bytes it sent for cancelled ones. */
    originCountsWaste: true,
  },
  {
    name: 'stream',
    playerParam: 'stream',
    description: 'continuous stream: the rendition\'s segments from the first one dash.js asks for to the last as one response, no request between segments, as the thesis\'s tunnelling proxy (§5.2) (player/src/transport/continuous-stream-fetcher.ts, server/src/media/continuous-stream.ts)',
    originCountsWaste: false,
  },
] as const;

export type AidName = (typeof AIDS)[number]['name'];
export type AidedSchemeName = `${SchemeName}+${AidName}`;

const AID_NAMES: readonly string[] = AIDS.map((a) => a.name);

/** Splits `vivace+prefetch` into the registry's scheme and its aids; a name without `+` has none. */
export function splitAids(name: string): { base: string; aids: AidName[] } {
  const [base, ...aids] = name.split('+');
  return { base: base!, aids: aids as AidName[] };
}

/** Resolves a user's aided scheme name (`cubic@tcp+prefetch` too) to its canonical form, or explains what is wrong. */
export function parseAidedScheme(text: string): Result<AidedSchemeName> {
  const { base, aids } = splitAids(text.trim());
  const scheme = parseScheme(base);
  if (!scheme.ok) return scheme;
  if (aids.length !== 1 || !AID_NAMES.includes(aids[0]!)) {
    return fail('invalid-field', `${JSON.stringify(text)}: an aided scheme is <scheme>+<aid> with one aid of: ${AID_NAMES.join(', ')}`);
  }
  return ok(`${scheme.value.name}+${aids[0]!}` as AidedSchemeName);
}

export function isAidedScheme(name: string): name is AidedSchemeName {
  return name.includes('+') && parseAidedScheme(name).ok;
}

/** Whether the origin counts the bytes it sent for a scheme's cancelled aid requests (AIDS originCountsWaste). */
export function originCountsAidWaste(name: string): boolean {
  return splitAids(name).aids.some((aid) => AIDS.find((a) => a.name === aid)?.originCountsWaste === true);
}

/** The player page's URL parameters for a scheme's aids (none for a plain scheme). */
export function aidPlayerParams(name: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const aid of splitAids(name).aids) {
    const known = AIDS.find((a) => a.name === aid);
    if (known) params[known.playerParam] = '1';
  }
  return params;
}
