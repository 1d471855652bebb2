// CMSD etp and rtt for the kernel-TCP baselines (issue 18, honest comparison): the same quantities the datagram origin
// sends from its controller (its pacing rate and smoothed RTT), read from the kernel's TCP_INFO for the connection; and
// the bytes the kernel sent while a response was open, as the datagram origin counts a cancelled request's bytes.
import { getTcpInfo, type TcpInfo } from '@pcc-stream/quic';
import type { CmsdDynamic } from '@pcc-stream/protocol';

/** The ceiling of the TCP etp: our controllers' own highest rate (controller.c's max_rate_bps default), so both
 *  transports hand dash.js estimates on one scale; on loopback the kernel's window rate reads 150+ Gbit/s, which
 *  blended into dash.js's samples made its CMCD mtp exceed what the origin accepts. */
export const TCP_ETP_CEILING_BPS = 10e9;

/** The rate the kernel sender lets itself send at: its pacing rate (BBR paces at gain x bandwidth) capped by the
 *  window's rate cwnd x mss / srtt (CUBIC is window-limited; the kernel's pacing rate for it is 1.2-2 x that).
 *  Null before the connection has an RTT sample. */
export function tcpSendRateBps(info: TcpInfo): number | null {
  if (!(info.srttUs > 0) || !(info.sndCwndPackets > 0) || !(info.sndMssBytes > 0)) return null;
  const windowBps = (info.sndCwndPackets * info.sndMssBytes * 8 * 1e6) / info.srttUs;
  const rateBps = info.pacingRateBps !== undefined && info.pacingRateBps > 0 ? Math.min(info.pacingRateBps, windowBps) : windowBps;
  return Math.min(rateBps, TCP_ETP_CEILING_BPS);
}

/** CMSD-Dynamic etp (kbit/s) and rtt (ms) for the TCP connection on `fd`; empty when the kernel cannot say. */
export function tcpCmsdEstimate(fd: number): Pick<CmsdDynamic, 'etpKbps' | 'rttMs'> {
  let info: TcpInfo;
  try {
    info = getTcpInfo(fd);
  } catch {
    return {}; // the socket closed under us: no estimate, the response goes out without one
  }
  const rateBps = tcpSendRateBps(info);
  return {
    ...(rateBps !== null ? { etpKbps: Math.round(rateBps / 1000) } : {}),
    ...(info.srttUs > 0 ? { rttMs: Math.round(info.srttUs / 1000) } : {}),
  };
}

/** How often trackBytesSent reads TCP_INFO: a cancelled response's bytes miss at most this long of sending. */
export const BYTES_SENT_SAMPLE_MS = 10;

export interface BytesSentTracker {
  /** Bytes sent since the tracker started, at the latest sample; null when the kernel cannot say. */
  sent(): number | null;
  /** Calls `then` once, at the first sample that shows at least `bytes` sent (at once if it already has, or if the
   *  kernel cannot say); never after stop(). */
  whenSent(bytes: number, then: () => void): void;
  /** Takes a last sample, stops sampling and returns sent() (0 when the kernel cannot say). */
  stop(): number;
}

/** The bytes the kernel sent on the connection on `fd` (TCP_INFO bytes_sent: retransmissions and the response's
 *  header included) from now on. Sampled every BYTES_SENT_SAMPLE_MS, because a peer that cancels by closing the
 *  connection leaves no fd to ask at the end: the last sample stands. The kernel cannot say without an fd, or without
 *  tcpi_bytes_sent (before Linux 4.19). */
export function trackBytesSent(fd: number | null): BytesSentTracker {
  const read = (): number | null => {
    if (fd === null) return null;
    try {
      return getTcpInfo(fd).bytesSent ?? null;
    } catch {
      return null; // closed under us
    }
  };
  const start = read();
  let last = start;
  let waiter: { bytes: number; then: () => void } | null = null;
  const sent = (): number | null => (start === null || last === null ? null : last - start);
  const settleWaiter = (): void => {
    if (waiter === null || (sent() ?? Infinity) < waiter.bytes) return;
    const { then } = waiter;
    waiter = null;
    then();
  };
  const timer = start === null ? null : setInterval(() => {
    last = read() ?? last;
    settleWaiter();
  }, BYTES_SENT_SAMPLE_MS);
  timer?.unref();
  return {
    sent,
    whenSent(bytes: number, then: () => void): void {
      waiter = { bytes, then };
      settleWaiter();
    },
    stop(): number {
      if (timer) clearInterval(timer);
      waiter = null;
      last = read() ?? last;
      return sent() ?? 0;
    },
  };
}
