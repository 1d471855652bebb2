/*
 * Rate limits the PCC utility controllers (Allegro, Vivace) apply to every rate they choose, and the
 * monitor-interval (MI) cadence they share (thesis §3.2.2): helpers only, no algorithm's decisions.
 */
#ifndef PCC_RATE_LIMITS_H
#define PCC_RATE_LIMITS_H

#include "cc_algorithm.h"
#include "monitor_interval.h"

/* `rate_bytes_per_s` inside the context's [min, max] rate; NaN becomes the minimum. */
double pcc_clamp_rate(const cc_context *ctx, double rate_bytes_per_s);

/* Clamped, and no more than `max_rate_over_sent` times the highest send rate recent MIs achieved: a rate
 * may not run ahead of what an application- or CPU-limited sender manages to send (RFC 7661's point for
 * windows), or it would climb unchecked and be unleashed when data arrives. No ceiling before any MI closed. */
double pcc_clamp_to_send_ceiling(const cc_context *ctx, const pcc_mi_tracker *tracker, double max_rate_over_sent,
                                 double rate_bytes_per_s);

/* Whether a packet sent at `now_us` should open a new MI: none is open, or the open one has lasted its
 * drawn duration and carried `min_packets`. Until the first RTT sample the first MI stays open: an MI must
 * span an RTT, and doubling per MI on a guess would overshoot before any feedback. */
int pcc_mi_due(const pcc_mi_tracker *tracker, const cc_context *ctx, int64_t now_us, int64_t open_mi_duration_us,
               double min_packets);

#endif /* PCC_RATE_LIMITS_H */
