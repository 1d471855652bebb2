/*
 * Helpers of the window-based algorithms (cubic, bbr): the packet size they count windows in, the
 * window's bounds, and a window paced out over one smoothed RTT. Helpers only, no algorithm's decisions.
 */
#ifndef PCC_CC_WINDOW_H
#define PCC_CC_WINDOW_H

#include <math.h>
#include <stdint.h>

#include "cc_algorithm.h"

/* Windows are kept finite: no real path needs more than a petabyte in flight. */
#define CC_MAX_CWND_BYTES 1e15

/* The packet size windows are counted in (the common mss_bytes parameter; 1200 B, RFC 9000's minimum
 * datagram, should a context carry none). */
static inline double cc_window_mss_bytes(const cc_context *ctx)
{
    return ctx->mss_bytes > 0 ? (double)ctx->mss_bytes : 1200.0;
}

/* `cwnd_bytes` within [floor_bytes, CC_MAX_CWND_BYTES]; NaN becomes the floor. */
static inline double cc_window_bound_bytes(double cwnd_bytes, double floor_bytes)
{
    if (!isfinite(cwnd_bytes) || cwnd_bytes < floor_bytes) cwnd_bytes = floor_bytes;
    if (cwnd_bytes > CC_MAX_CWND_BYTES) cwnd_bytes = CC_MAX_CWND_BYTES;
    return cwnd_bytes;
}

/* gain x cwnd / srtt (Linux tcp_update_pacing_rate); srtt_us must be > 0. */
static inline double cc_window_pacing_rate_bytes_per_s(double gain, double cwnd_bytes, int64_t srtt_us)
{
    return gain * cwnd_bytes / ((double)srtt_us / 1e6);
}

#endif /* PCC_CC_WINDOW_H */
