// CMSD etp and rtt for the kernel-TCP baselines (issue 18, honest comparison): the same quantities the datagram origin
// sends from its controller (its pacing rate and smoothed RTT), read from the kernel's TCP_INFO for the connection.
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
