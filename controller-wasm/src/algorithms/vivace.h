/* PCC Vivace's utility function, exposed for unit tests (the algorithm itself is only an ops table). */
#ifndef PCC_VIVACE_H
#define PCC_VIVACE_H

#include "../cc_algorithm.h"

typedef struct vivace_utility_coefficients {
    double throughput_exponent;   /* t */
    double latency_coefficient;   /* b, per unit of RTT gradient */
    double loss_coefficient;      /* c */
    double latency_filter;        /* |dRTT/dt| below this counts as 0 (flt_latency) */
    double loss_ignored_below;    /* loss rate below this counts as 0 (slow start th_loss) */
    double latency_ignored_below; /* RTT gradient below this counts as 0 (slow start th_latency) */
    double throughput_cap_mbps;   /* > 0: the reward peaks at this rate (vivace-video's smooth pacing); 0: none */
} vivace_utility_coefficients;

/* u = x^t - b·x·max(0, dRTT/dt) - c·x·L with x the send rate in Mbit/s (thesis eq. 4.1, §4.3.5); with a
 * throughput cap, 2·cap^t - x^t in place of x^t above the cap.
 * rtt_gradient is taken from the stats (already filtered for noise by the caller if wanted). */
double vivace_utility(const cc_mi_stats *mi, const vivace_utility_coefficients *k);

#endif /* PCC_VIVACE_H */
