// Bytes on the wire per byte delivered (issue 17's overhead target): the IP bytes linkem's downlink delivered
// (its summary's departedBytes, every header included: IP, UDP, QUIC, AEAD and our DATA header, or TCP and TLS;
// retransmissions, probes and session setup too) over the application bytes the receiver got in the same run
// (bulk: the fetch client's body bytes; browser: what the players received). The one place this figure is
// computed: the bench runner and the fidelity suite both call it. Browser runs count the wire only up to the instant
// the players' byte counts stand for (mediaCountedAtEpochMs, departedBytesUntil): media keeps crossing the link after
// a count was taken (the player's worker counts every 250 ms, and the report is read later still), and those bytes
// are in no count. Every scheme's figure is cut the same way, whichever transport counted its bytes.
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { mmLogLines, mmLogStartEpochMs } from '../linkem/src/driver/index.ts';

/** `departedDownBytes / deliveredBytes`, or null when nothing was delivered. */
export function wireBytesPerMediaByte(departedDownBytes: number, deliveredBytes: number): number | null {
  if (!(deliveredBytes > 0) || !Number.isFinite(departedDownBytes)) return null;
  return departedDownBytes / deliveredBytes;
}

/** IP bytes per TCP payload byte of a bulk HTTP transfer over the link (1,448-byte segments with timestamps in
 *  1,500-byte packets): how the page relay's payload count becomes the wire bytes it cost. An estimate; the page is
 *  ~1 MB beside tens of MB of media. */
export const TCP_WIRE_BYTES_PER_PAYLOAD_BYTE = 1500 / 1448;

/** What the link log's sizes add to each IP packet: mahimahi's framing (bench/linkem/src/fwd/mmlog.h). */
export const LINK_LOG_FRAMING_BYTES = 4;

/**
 * The IP bytes linkem's downlink log shows departed at or before `untilEpochMs`. The log's `# init timestamp:` header
 * is its wall-clock origin (epoch ms); a departure line is `<ms since then> - <IP bytes + 4> <queue delay ms>`. NaN
 * when the log has no such header (then wireBytesPerMediaByte gives null rather than a figure over another window).
 */
export function departedBytesUntil(linkLogPath: string, untilEpochMs: number): number {
  const text = readFileSync(linkLogPath, 'utf8');
  const untilMs = untilEpochMs - mmLogStartEpochMs(text);
  if (Number.isNaN(untilMs)) return Number.NaN;
  let bytes = 0;
  for (const line of mmLogLines(text)) {
    const f = line.split(' ');
    if (f[1] !== '-') continue;
    if (Number(f[0]) > untilMs) break;
    bytes += Number(f[2]) - LINK_LOG_FRAMING_BYTES;
  }
  return bytes;
}

/** A player's received-byte count and the wall-clock instant (epoch ms) it was counted at (its SessionReport). */
export interface CountedBytes {
  bytesReceived: number;
  bytesReceivedAtEpochMs: number;
}

/** The instant (epoch ms) the players' summed counts stand for: the mean of their stamps (each worker counts at its
 *  own moment, within 250 ms of the others; at steady rates the sum of the counts is the sum at the mean instant).
 *  NaN when a count has no stamp (then the figure is null, not one over another window). */
export function mediaCountedAtEpochMs(counts: readonly CountedBytes[]): number {
  if (counts.length === 0) return Number.NaN;
  const stamps = counts.map((c) => c.bytesReceivedAtEpochMs);
  if (!stamps.every((t) => Number.isFinite(t) && t > 0)) return Number.NaN;
  return stamps.reduce((a, b) => a + b, 0) / stamps.length;
}

/**
 * A browser run's wire bytes per media byte: the link's IP bytes up to the instant the players' counts stand for,
 * less the page's own (`pageBytes` of payload the relay carried, as TCP/IP wire bytes), over the bytes they counted.
 */
export function browserWireBytesPerMediaByte(linkLogPath: string, counts: readonly CountedBytes[], pageBytes: number): number | null {
  const departed = departedBytesUntil(linkLogPath, mediaCountedAtEpochMs(counts));
  return wireBytesPerMediaByte(departed - pageBytes * TCP_WIRE_BYTES_PER_PAYLOAD_BYTE, counts.reduce((sum, c) => sum + c.bytesReceived, 0));
}

/** The link log's wall-clock origin (epoch ms) from its header, reading only the file's first 4 KB; NaN without it. */
export function readLinkLogStartEpochMs(linkLogPath: string): number {
  let fd: number;
  try {
    fd = openSync(linkLogPath, 'r');
  } catch {
    return Number.NaN;
  }
  try {
    const head = Buffer.alloc(4096);
    return mmLogStartEpochMs(head.subarray(0, readSync(fd, head, 0, head.length, 0)).toString('utf8'));
  } finally {
    closeSync(fd);
  }
}
