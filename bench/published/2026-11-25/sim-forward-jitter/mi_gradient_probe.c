/* One vivace flow through pcc-sim's library at 100 Mbit/s, 30 ms, with forward-path jitter: prints one JSON line with
 * the throughput, p95 queueing (p95 RTT - min RTT) and the per-MI |RTT gradient| median and 90th percentile after
 * 2 s (the figures bench/published/2026-11-25/mi-one-frame-span measured on the real path). Build and run: see
 * summary.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcc_sim.h"

#define MAX_MIS 100000
#define SKIP_US 2000000   /* slow start, as noise.py skips the first 2 s */

typedef struct {
    double abs_gradients[MAX_MIS];
    size_t count;
    uint64_t last_mi;
} mi_gradients;

static void on_sample(const pcc_sim_sample *sample, void *user_data) {
    mi_gradients *g = user_data;
    if (sample->time_us >= SKIP_US && sample->mi_completed != g->last_mi && g->count < MAX_MIS) {
        g->abs_gradients[g->count++] = fabs(sample->last_mi_rtt_gradient);
    }
    g->last_mi = sample->mi_completed;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: mi_gradient_probe BUFFER_BYTES JITTER_SD_US JITTER_TAU_US SEED DURATION_S CC_PARAMS\n");
        return 2;
    }
    static mi_gradients g;
    pcc_sim_flow_config flow;
    memset(&flow, 0, sizeof flow);
    flow.cc = "vivace";
    flow.cc_params = argv[6];
    flow.base_rtt_us = 30000;
    flow.packet_bytes = 1500;   /* as bench/harness/fidelity.ts's SIM_PACKET_BYTES */
    pcc_sim_config config;
    pcc_sim_config_init(&config);
    config.rate_bps = 100e6;
    config.buffer_bytes = strtoull(argv[1], NULL, 10);
    config.jitter_sd_us = atof(argv[2]);
    config.jitter_tau_us = atof(argv[3]);
    config.seed = strtoull(argv[4], NULL, 10);
    config.duration_us = (int64_t)(atof(argv[5]) * 1e6);
    config.flows = &flow;
    config.flow_count = 1;
    config.sample_interval_us = 1000;   /* fine enough to see every MI's end */
    config.on_sample = on_sample;
    config.user_data = &g;
    pcc_sim_result result;
    char error[256];
    if (pcc_sim_run(&config, &result, error, sizeof error) != PCC_SIM_OK) {
        fprintf(stderr, "mi_gradient_probe: %s\n", error);
        return 1;
    }
    qsort(g.abs_gradients, g.count, sizeof(double), by_value);
    double median = g.count ? g.abs_gradients[g.count / 2] : 0.0;
    double p90 = g.count ? g.abs_gradients[(size_t)(0.9 * (double)g.count)] : 0.0;
    printf("{\"buffer_bytes\":%s,\"jitter_sd_us\":%s,\"jitter_tau_us\":%s,\"seed\":%s,\"cc_params\":\"%s\","
           "\"throughput_mbps\":%.3f,\"queue_p95_ms\":%.3f,\"mis\":%zu,\"abs_rtt_gradient_median\":%.4f,"
           "\"abs_rtt_gradient_p90\":%.4f}\n",
           argv[1], argv[2], argv[3], argv[4], argv[6], result.flows[0].throughput_bps / 1e6,
           (result.flows[0].p95_rtt_us - result.flows[0].min_rtt_us) / 1e3, g.count, median, p90);
    pcc_sim_result_free(&result);
    return 0;
}
