/* What the simulator measures for one flow: totals for the result, per-interval sums for the time series,
 * and every RTT sample (for exact percentiles). */
#ifndef PCC_SIM_FLOW_METRICS_H
#define PCC_SIM_FLOW_METRICS_H

#include <stddef.h>
#include <stdint.h>

typedef struct sim_flow_metrics {
    uint64_t packets_sent;
    uint64_t packets_received;
    uint64_t bytes_received;
    uint64_t bytes_received_last_half;
    uint64_t packets_dropped_queue;
    uint64_t packets_dropped_random;
    uint32_t *rtt_samples_us;
    size_t rtt_count;
    size_t rtt_capacity;
    double rtt_sum_us;
    uint32_t rtt_min_us;
    /* the current time-series interval */
    uint64_t interval_bytes_sent;
    uint64_t interval_bytes_received;
    uint64_t interval_packets_lost;
    double interval_rtt_sum_us;
    uint64_t interval_rtt_count;
} sim_flow_metrics;

void sim_flow_metrics_init(sim_flow_metrics *metrics);
void sim_flow_metrics_free(sim_flow_metrics *metrics);
void sim_flow_metrics_on_sent(sim_flow_metrics *metrics, uint32_t bytes);
void sim_flow_metrics_on_received(sim_flow_metrics *metrics, uint32_t bytes, int in_last_half);
void sim_flow_metrics_on_drop(sim_flow_metrics *metrics, int by_queue);
/* 0, or -1 when out of memory. */
int sim_flow_metrics_on_rtt(sim_flow_metrics *metrics, int64_t rtt_us);
/* The q-quantile (0..1, nearest rank) of all RTT samples; sorts them, call once at the end. 0 if none. */
double sim_flow_metrics_rtt_quantile_us(sim_flow_metrics *metrics, double q);
void sim_flow_metrics_reset_interval(sim_flow_metrics *metrics);

#endif
