/* Forward-path delay jitter: extra one-way delay that wanders slowly, as measured on the real path (issue 17):
 * between the origin's send stamp and the client's receive stamp, at a steady RTT, the one-way delay strays
 * 142-252 µs from a straight line within one monitor interval and drifts rather than flickers (the per-MI slope's
 * median |t| is 1.4-1.8 where white noise gives 0.67). An Ornstein-Uhlenbeck process (AR(1) sampled at each
 * packet) reproduces both: stationary standard deviation sd_us, correlation time tau_us, zero mean about the
 * propagation delay, seeded. The caller keeps the path FIFO (a packet never overtakes the one before it). */
#ifndef PCC_SIM_PATH_JITTER_H
#define PCC_SIM_PATH_JITTER_H

#include <stdint.h>

#include "sim_rng.h"

typedef struct sim_path_jitter {
    double sd_us;          /* 0: off, every draw is 0 */
    double tau_us;
    sim_rng rng;
    int started;
    int64_t last_us;       /* time of the previous draw */
    double value_us;       /* the process at last_us */
} sim_path_jitter;

void sim_path_jitter_init(sim_path_jitter *jitter, double sd_us, double tau_us, uint64_t seed, uint64_t stream);
/* The extra delay at now_us (non-decreasing across calls); may be negative. */
double sim_path_jitter_at(sim_path_jitter *jitter, int64_t now_us);

#endif
