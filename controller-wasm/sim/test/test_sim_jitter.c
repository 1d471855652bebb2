/* Forward-path delay jitter (path_jitter.h): the process has the configured spread and memory, and through the
 * whole simulator it spreads RTT samples by that much while the path stays FIFO. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "fixed_flow.h"
#include "path_jitter.h"
#include "pcc_sim.h"

#define PACKET_GAP_US 150   /* the real path's packet spacing at ~80 Mbit/s */

static void test_process_has_configured_sd_and_memory(void) {
    sim_path_jitter jitter;
    sim_path_jitter_init(&jitter, 200.0, 30000.0, 7, 1);
    const int draws = 2000000;   /* 300 s: ~5,000 correlation times */
    const int lag = 30000 / PACKET_GAP_US;
    static double values[2000000];
    double sum = 0, sum_squares = 0;
    for (int i = 0; i < draws; i++) {
        values[i] = sim_path_jitter_at(&jitter, (int64_t)i * PACKET_GAP_US);
        sum += values[i];
        sum_squares += values[i] * values[i];
    }
    double mean = sum / draws;
    double sd = sqrt(sum_squares / draws - mean * mean);
    double lagged = 0;
    for (int i = lag; i < draws; i++) lagged += (values[i] - mean) * (values[i - lag] - mean);
    double correlation = lagged / (draws - lag) / (sd * sd);
    printf("jitter sd 200 us, tau 30 ms: mean %.1f us, sd %.1f us, correlation at 30 ms %.3f (exp(-1) = 0.368)\n",
           mean, sd, correlation);
    CHECK(fabs(mean) < 10.0);
    CHECK_NEAR(sd, 200.0, 10.0);
    CHECK_NEAR(correlation, exp(-1.0), 0.05);

    sim_path_jitter off;
    sim_path_jitter_init(&off, 0.0, 30000.0, 7, 1);
    for (int i = 0; i < 1000; i++) CHECK(sim_path_jitter_at(&off, (int64_t)i * PACKET_GAP_US) == 0.0);
}

static pcc_sim_result run_fixed(double jitter_sd_us, double jitter_tau_us, uint64_t seed) {
    fixed_run run;
    fixed_run_init(&run, 50e6, 30000, 20000000);
    run.config.seed = seed;
    run.config.jitter_sd_us = jitter_sd_us;
    run.config.jitter_tau_us = jitter_tau_us;
    return fixed_run_go(&run);
}

static void test_rtt_spread_matches_and_path_stays_fifo(void) {
    /* 50 Mbit/s into 100 Mbit/s never queues, so the RTT spread is the jitter's alone. */
    pcc_sim_result calm = run_fixed(0.0, 0.0, 1);
    CHECK(calm.flows[0].p95_rtt_us - calm.flows[0].min_rtt_us <= 240.0);   /* at most one packet gap of ack delay */

    pcc_sim_result jittered = run_fixed(200.0, 0.0, 1);
    const pcc_sim_flow_result *f = &jittered.flows[0];
    /* Normal: p95 - mean = 1.645 sd. 20 s hold ~330 correlation times, so the estimate is within a few %. */
    double spread_us = f->p95_rtt_us - f->mean_rtt_us;
    printf("fixed 50 Mbit/s, jitter sd 200 us: mean RTT %.1f us, p95 - mean %.1f us (1.645 sd = 329)\n",
           f->mean_rtt_us, spread_us);
    CHECK_NEAR(spread_us, 1.645 * 200.0, 0.15 * 1.645 * 200.0);
    CHECK_NEAR(f->mean_rtt_us, calm.flows[0].mean_rtt_us, 50.0);   /* zero mean about the propagation delay */
    CHECK(f->packets_declared_lost == 0 && f->spurious_losses == 0);

    /* A fast, large jitter (5 ms sd changing within a packet gap) would reorder most packets; the FIFO path never
     * lets one overtake, so the sender (packet threshold 3) declares nothing lost. */
    pcc_sim_result wild = run_fixed(5000.0, 100.0, 1);
    CHECK(wild.flows[0].p95_rtt_us > wild.flows[0].min_rtt_us + 5000.0);
    CHECK(wild.flows[0].packets_declared_lost == 0 && wild.flows[0].spurious_losses == 0);

    /* Seeded: the same seed repeats the run, another seed draws another path. */
    pcc_sim_result again = run_fixed(200.0, 0.0, 1);
    pcc_sim_result other = run_fixed(200.0, 0.0, 2);
    CHECK(again.flows[0].p95_rtt_us == f->p95_rtt_us && again.flows[0].mean_rtt_us == f->mean_rtt_us);
    CHECK(other.flows[0].p95_rtt_us != f->p95_rtt_us);
    pcc_sim_result_free(&calm);
    pcc_sim_result_free(&jittered);
    pcc_sim_result_free(&wild);
    pcc_sim_result_free(&again);
    pcc_sim_result_free(&other);
}

int main(void) {
    test_process_has_configured_sd_and_memory();
    test_rtt_spread_matches_and_path_stays_fifo();
    return check_summary("test_sim_jitter");
}
