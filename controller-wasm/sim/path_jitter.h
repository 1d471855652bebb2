/* Forward-path delay jitter: extra one-way delay that wanders slowly, as measured on the real path (issue 17):
 * between the origin's send stamp and the client's receive stamp, at a steady RTT, the one-way delay strays
 * 142-252 µs from a straight line within one monitor interval and drifts rather than flickers (the per-MI slope's
 * median |t| is 1.4-1.8 where white noise gives 0.67). An Ornstein-Uhlenbeck process (AR(1) sampled at each
 * packet) reproduces both: stationary standard deviation sd_us, correlation time tau_us, zero mean about the
 * propagation delay, seeded. The caller keeps the path FIFO (a packet never overtakes the one before it). */
#ifndef PCC_SIM_PATH_JITTER_H
#define PCC_SIM_PATH_JITTER_H

#include <stdint.h>

#include "pcc_sim.h"
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

/* Return-path RTT noise of the real path (issue 17): what the origin's and the client's event loops, the TUN devices
 * and the receiver's ack timer add to an ack's RTT when linkem holds no queue. Heavy-tailed: each hold_us of time
 * (an epoch on a fixed grid) draws one extra delay, lognormal (median median_us, shape sigma) or, with probability
 * tail_share, Pareto (scale tail_scale_us, index tail_index), capped at cap_us; every ack of that epoch gets it.
 * The caller keeps the return path FIFO, so a long draw holds the acks behind it as a stalled loop does. */
typedef pcc_sim_rtt_noise sim_rtt_noise_params;   /* pcc_sim.h: the fields */

/* The profile fitted to the real LTE runs (controller-wasm/sim/README.md, "RTT noise"). */
extern const sim_rtt_noise_params SIM_RTT_NOISE_REAL_PATH;

typedef struct sim_rtt_noise {
    sim_rtt_noise_params params;
    sim_rng rng;
    int64_t epoch;         /* the epoch value_us belongs to, -1 before the first draw */
    double value_us;
} sim_rtt_noise;

void sim_rtt_noise_init(sim_rtt_noise *noise, const sim_rtt_noise_params *params, uint64_t seed, uint64_t stream);
/* The extra delay (>= 0) of an ack leaving at now_us (non-decreasing across calls). */
double sim_rtt_noise_at(sim_rtt_noise *noise, int64_t now_us);

#endif
