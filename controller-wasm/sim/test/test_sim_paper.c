/*
 * The seed papers' checks marked (test) in issue 2, on shortened runs (20-30 s simulated instead of 60-100 s;
 * steady-state throughput is taken over the last half so the shorter run does not count slow start twice as
 * heavily). The full-length tables come from `npm run sim:paper`.
 *  - thesis Fig. 4.3: Vivace (both utilities) >= 90 Mbit/s at every random loss <= 3%; CUBIC far below at 1%.
 *  - thesis Fig. 4.5/4.7, kernel paper Fig. 5: Vivace >= 90 Mbit/s with p95 self-inflicted latency <= 3 ms at
 *    every buffer from 7.5 KB to 1 MB.
 *  - thesis Fig. 4.10/4.11: 2 and 4 Vivace flows reach a Jain index >= 0.95 over the last half.
 */
#include <string.h>

#include "check.h"
#include "pcc_sim.h"

#define LINK_RATE_BPS 100e6
#define BASE_RTT_US 30000
/* one 1500-byte packet's serialisation at 100 Mbit/s: part of every RTT, not self-inflicted */
#define SERIALISATION_US 120.0

static pcc_sim_result result;

static int run(const char *cc, size_t flows, int64_t start_gap_us, double loss, double buffer_kb, double duration_s) {
    pcc_sim_flow_config flow_configs[PCC_SIM_MAX_FLOWS];
    memset(flow_configs, 0, sizeof flow_configs);
    for (size_t i = 0; i < flows; i++) {
        flow_configs[i].cc = cc;
        flow_configs[i].base_rtt_us = BASE_RTT_US;
        flow_configs[i].start_us = (int64_t)i * start_gap_us;
    }
    pcc_sim_config config;
    pcc_sim_config_init(&config);
    config.seed = 1;
    config.duration_us = (int64_t)(duration_s * 1e6);
    config.rate_bps = LINK_RATE_BPS;
    config.buffer_bytes = (uint64_t)(buffer_kb * 1000.0);
    config.loss_rate = loss;
    config.flows = flow_configs;
    config.flow_count = flows;
    char error[256];
    int status = pcc_sim_run(&config, &result, error, sizeof error);
    if (status != PCC_SIM_OK) fprintf(stderr, "%s: %s\n", cc, error);
    return status == PCC_SIM_OK;
}

static void test_random_loss(void) {
    static const double losses[] = {0.0, 0.01, 0.02, 0.03};
    static const char *const variants[] = {"vivace", "vivace-loss"};
    for (size_t v = 0; v < 2; v++) {
        for (size_t i = 0; i < sizeof losses / sizeof losses[0]; i++) {
            CHECK(run(variants[v], 1, 0, losses[i], 75, 30));
            double mbps = result.flows[0].throughput_last_half_bps / 1e6;
            fprintf(stderr, "fig4.3 %-12s loss %.1f%%: %.1f Mbit/s (last half), %.1f (whole run)\n", variants[v],
                    losses[i] * 100, mbps, result.flows[0].throughput_bps / 1e6);
            CHECK(mbps >= 90.0);
        }
    }
    CHECK(run("cubic", 1, 0, 0.01, 75, 30));
    double cubic_mbps = result.flows[0].throughput_last_half_bps / 1e6;
    fprintf(stderr, "fig4.3 cubic        loss 1.0%%: %.1f Mbit/s\n", cubic_mbps);
    CHECK(cubic_mbps < 30.0);
}

static void test_bufferbloat(void) {
    static const double buffers_kb[] = {7.5, 15, 75, 300, 1000};
    for (size_t i = 0; i < sizeof buffers_kb / sizeof buffers_kb[0]; i++) {
        CHECK(run("vivace", 1, 0, 0.0, buffers_kb[i], 20));
        double mbps = result.flows[0].throughput_last_half_bps / 1e6;
        double self_inflicted_ms = (result.flows[0].p95_rtt_us - BASE_RTT_US - SERIALISATION_US) / 1e3;
        fprintf(stderr, "fig4.5/4.7 vivace buffer %6.1f KB: %.1f Mbit/s, p95 self-inflicted %.2f ms\n", buffers_kb[i],
                mbps, self_inflicted_ms);
        CHECK(mbps >= 90.0);
        CHECK(self_inflicted_ms <= 3.0);
    }
}

static void test_convergence(void) {
    static const size_t flow_counts[] = {2, 4};
    for (size_t i = 0; i < 2; i++) {
        CHECK(run("vivace", flow_counts[i], 2000000, 0.0, 75, 30));
        fprintf(stderr, "fig4.10/4.11 %zu vivace flows: Jain index over the last half %.4f, utilization %.3f\n",
                flow_counts[i], result.jain_index, result.link_utilization);
        CHECK(result.jain_index >= 0.95);
    }
}

int main(void) {
    test_random_loss();
    test_bufferbloat();
    test_convergence();
    return check_summary("test_sim_paper");
}
