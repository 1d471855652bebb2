/*
 * Rate limits the PCC utility controllers (Allegro, Vivace) apply to every rate they choose: helpers only,
 * no algorithm's decisions.
 */
#ifndef PCC_RATE_LIMITS_H
#define PCC_RATE_LIMITS_H

#include "cc_algorithm.h"
#include "monitor_interval.h"

/* `rate_bytes_per_s` inside the context's [min, max] rate; NaN becomes the minimum. */
double pcc_clamp_rate(const cc_context *ctx, double rate_bytes_per_s);

/* The rate ceiling's multiple of the best recent send rate: above 2 so slow start can still double. */
#define PCC_MAX_RATE_OVER_SENT 2.5

/* Clamped, and no more than PCC_MAX_RATE_OVER_SENT times the highest send rate recent MIs achieved: a rate
 * may not run ahead of what an application- or CPU-limited sender manages to send (RFC 7661's point for
 * windows), or it would climb unchecked and be unleashed when data arrives. The ceiling is never below the context's
 * initial rate (RFC 5681 §4.1, RFC 7661: validation does not take a window below the initial/restart window); the
 * controller's own decisions may still go lower. No ceiling before any MI closed. */
double pcc_clamp_to_send_ceiling(const cc_context *ctx, const pcc_mi_tracker *tracker, double rate_bytes_per_s);

#endif /* PCC_RATE_LIMITS_H */
