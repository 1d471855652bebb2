/*
 * The seed papers' checks marked (test) in issue 2, on shortened runs (20-30 s simulated instead of 60-100 s;
 * steady-state throughput is taken over the last half so the shorter run does not count slow start twice as
 * heavily). The full-length tables come from `npm run sim:paper`.
 *  - thesis Fig. 4.3: Vivace (both utilities) >= 90 Mbit/s at every random loss <= 3%; CUBIC far below at 1%.
 *  - thesis Fig. 4.5/4.7, kernel paper Fig. 5: Vivace >= 90 Mbit/s with p95 self-inflicted latency <= 3 ms at
 *    every buffer from 7.5 KB to 1 MB.
 *  - thesis Fig. 4.10/4.11: 2 and 4 Vivace flows reach a Jain index >= 0.95 over the last half.
 *  - thesis Fig. 4.9 (LTE): on a cellular-like link (capacity redrawn every few hundred ms, outages, 1 MB
 *    buffer) Vivace keeps its self-inflicted latency far below CUBIC's and loses almost nothing. The link is
 *    synthesised here (seeded), so the test needs no trace file; the Verizon trace runs in `npm run sim:paper`.
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
    /* Whole 20 s run at 3% (slow start included): slow start exits to what the overshooting MI delivered,
     * not to half its rate (81.6 Mbit/s before, from where the gradient climbs for 10-15 s under this noise). */
    CHECK(run("vivace", 1, 0, 0.03, 75, 20));
    fprintf(stderr, "fig4.3 vivace        loss 3.0%%, 20 s: %.1f Mbit/s (whole run)\n", result.flows[0].throughput_bps / 1e6);
    CHECK(result.flows[0].throughput_bps / 1e6 >= 88.0);
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

/* Flows 2 s apart, each variant with its default moving state (vivace-loss on): newcomers must climb past
 * incumbents that keep the buffer at its edge. */
static void test_convergence(void) {
    static const size_t flow_counts[] = {2, 4};
    static const char *const variants[] = {"vivace", "vivace-loss"};
    for (size_t v = 0; v < 2; v++) {
        for (size_t i = 0; i < 2; i++) {
            CHECK(run(variants[v], flow_counts[i], 2000000, 0.0, 75, 30));
            fprintf(stderr, "fig4.10/4.11 %zu %s flows: Jain index over the last half %.4f, utilization %.3f\n",
                    flow_counts[i], variants[v], result.jain_index, result.link_utilization);
            CHECK(result.jain_index >= 0.95);
        }
    }
}

/* A cellular-like downlink as a mahimahi trace: the capacity is redrawn every 200 ms as a log-normal step of
 * the previous one within [0.5, 16] Mbit/s (mean near 5 Mbit/s, like the Verizon LTE trace) with 3% outages
 * of 200 ms; opportunities come in bursts every 4 ms, as an LTE scheduler delivers them. */
#define LTE_TRACE_MS 30000
#define LTE_OPPORTUNITY_BYTES 1504.0
static uint32_t lte_trace[LTE_TRACE_MS * 4];

static uint64_t lte_rng_state = 0x9e3779b97f4a7c15ull;
static double lte_uniform(void) {
    /* splitmix64: the test's own stream, independent of the simulator's */
    uint64_t z = (lte_rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0;
}

static size_t make_lte_trace(void) {
    size_t count = 0;
    double rate_mbps = 5.0, credit_bytes = 0.0;
    int outage = 0;
    for (uint32_t ms = 1; ms <= LTE_TRACE_MS; ms++) {
        if (ms % 200 == 0) {
            /* sum of uniforms: a bounded, roughly normal step in log-rate */
            double step = (lte_uniform() + lte_uniform() + lte_uniform() - 1.5) * 0.8;
            rate_mbps *= step >= 0 ? 1.0 + step : 1.0 / (1.0 - step);
            if (rate_mbps < 0.5) rate_mbps = 0.5;
            if (rate_mbps > 16.0) rate_mbps = 16.0;
            rate_mbps += (5.0 - rate_mbps) * 0.05; /* drift back toward the mean */
            outage = lte_uniform() < 0.03;
        }
        if (!outage) credit_bytes += rate_mbps * 1e6 / 8.0 / 1000.0;
        if (ms % 4 != 0) continue;
        while (credit_bytes >= LTE_OPPORTUNITY_BYTES && count < sizeof lte_trace / sizeof lte_trace[0]) {
            lte_trace[count++] = ms;
            credit_bytes -= LTE_OPPORTUNITY_BYTES;
        }
    }
    return count;
}

/* One flow over a trace (mahimahi semantics), results in `result`; 1 when the run succeeded. */
static int run_on_trace(const char *cc, const char *cc_params, int64_t rtt_us, const uint32_t *trace, size_t count,
                        uint32_t duration_ms, double buffer_bytes, double loss_rate, uint64_t seed,
                        void (*on_sample)(const pcc_sim_sample *, void *)) {
    pcc_sim_flow_config flow = {.cc = cc, .cc_params = cc_params, .base_rtt_us = rtt_us};
    pcc_sim_config config;
    pcc_sim_config_init(&config);
    config.seed = seed;
    config.duration_us = (int64_t)duration_ms * 1000;
    config.trace_ms = trace;
    config.trace_ms_count = count;
    config.buffer_bytes = buffer_bytes;
    config.loss_rate = loss_rate;
    config.flows = &flow;
    config.flow_count = 1;
    config.on_sample = on_sample;
    char error[256];
    int status = pcc_sim_run(&config, &result, error, sizeof error);
    if (status != PCC_SIM_OK) fprintf(stderr, "%s: %s\n", cc, error);
    return status == PCC_SIM_OK;
}

/* A trace whose rate at millisecond ms is rate_bps(ms): delivery opportunities as the credit accrues. */
static size_t trace_from_rate(uint32_t *out, size_t max, uint32_t duration_ms, double (*rate_bps)(uint32_t ms)) {
    size_t count = 0;
    double credit = 0.0;
    for (uint32_t ms = 1; ms <= duration_ms; ms++) {
        credit += rate_bps(ms) / 8.0 / 1000.0;
        while (credit >= LTE_OPPORTUNITY_BYTES && count < max) {
            out[count++] = ms;
            credit -= LTE_OPPORTUNITY_BYTES;
        }
    }
    return count;
}

static int run_lte(const char *cc, const char *cc_params, size_t trace_count) {
    return run_on_trace(cc, cc_params, 40000, lte_trace, trace_count, LTE_TRACE_MS, 1000000, 0.0, 1, NULL);
}

static double self_inflicted_ms(void) { return (result.flows[0].p95_rtt_us - result.flows[0].min_rtt_us) / 1e3; }

static void test_lte(void) {
    size_t trace_count = make_lte_trace();
    CHECK(trace_count > 1000);
    CHECK(run_lte("cubic", NULL, trace_count));
    double cubic_ms = self_inflicted_ms(), cubic_mbps = result.flows[0].throughput_bps / 1e6;
    CHECK(run_lte("bbr", NULL, trace_count));
    double bbr_ms = self_inflicted_ms(), bbr_mbps = result.flows[0].throughput_bps / 1e6;
    fprintf(stderr, "fig4.9 lte-like capacity %.2f Mbit/s: cubic %.2f Mbit/s p95+ %.0f ms; bbr %.2f Mbit/s p95+ %.0f ms\n",
            result.capacity_bps / 1e6, cubic_mbps, cubic_ms, bbr_mbps, bbr_ms);
    CHECK(run_lte("vivace", NULL, trace_count));
    double vivace_ms = self_inflicted_ms(), vivace_mbps = result.flows[0].throughput_bps / 1e6;
    fprintf(stderr, "fig4.9 lte-like vivace %.2f Mbit/s p95+ %.0f ms, loss %.2f%%\n", vivace_mbps, vivace_ms,
            100 * result.flows[0].loss_rate);
    /* Before the MI timeout counted from the expected feedback time: 3.5 s and 66% loss, like CUBIC's queue. */
    CHECK(vivace_ms < 0.5 * cubic_ms);
    CHECK(result.flows[0].loss_rate < 0.02);
    CHECK(vivace_mbps > 0.6 * cubic_mbps);
}

/* Thesis Fig. 4.8 in one step: capacity falls from 80 to 20 Mbit/s (75 KB buffer, 30 ms). Vivace must come
 * down within about a second, not by boundary steps of 5%, 15%, 25%, ... per round while most packets are
 * lost (before: both variants lost 36-37% of what they sent in the 5 s after the drop). */
#define DROP_TRACE_MS 10000
static uint32_t drop_trace[DROP_TRACE_MS * 8];
static double drop_lost_after, drop_sent_after;

static void count_after_drop(const pcc_sim_sample *sample, void *user_data) {
    (void)user_data;
    if (sample->time_us <= 5000000) return;
    drop_lost_after += (double)sample->packets_lost;
    drop_sent_after += sample->send_rate_bps * 0.1 / 8.0 / 1200.0;
}

static double drop_rate_bps(uint32_t ms) { return ms <= 5000 ? 80e6 : 20e6; }

static void test_capacity_drop(void) {
    size_t count = trace_from_rate(drop_trace, sizeof drop_trace / sizeof drop_trace[0], DROP_TRACE_MS, drop_rate_bps);
    static const char *const variants[] = {"vivace-loss", "vivace"};
    for (size_t v = 0; v < 2; v++) {
        drop_lost_after = drop_sent_after = 0.0;
        CHECK(run_on_trace(variants[v], NULL, 30000, drop_trace, count, DROP_TRACE_MS, 75000, 0.0, 1, count_after_drop));
        double loss = drop_sent_after > 0 ? drop_lost_after / drop_sent_after : 1.0;
        fprintf(stderr, "fig4.8 step 80 -> 20 Mbit/s %-11s: loss after the drop %.1f%%, throughput last half %.1f Mbit/s\n",
                variants[v], 100 * loss, result.flows[0].throughput_last_half_bps / 1e6);
        CHECK(loss < 0.25);
        CHECK(result.flows[0].throughput_last_half_bps / 1e6 > 15.0);
    }
}

/* Thesis Fig. 4.8 in the other direction: capacity rises from 20 to 80 Mbit/s (75 KB buffer, 60 ms, 0.5% random
 * loss), where Fig. 4.8 loses most of its throughput. The moving state (parameter moving; on by default for vivace-loss) must
 * climb faster than one decision per probe round (this run prints it: vivace-loss 30.0 -> 63.0 Mbit/s, vivace
 * 23.7 -> 45.3 in the 3 s after the rise). */
static double rise_delivered_bits;

static void count_after_rise(const pcc_sim_sample *sample, void *user_data) {
    (void)user_data;
    if (sample->time_us > 5000000 && sample->time_us <= 8000000) rise_delivered_bits += sample->throughput_bps * 0.1;
}

/* Where the climb starts depends on where the probing cycle stands at the rise: one run's 3 s differ by 2x between
 * seeds, so the comparison takes the mean of several. */
#define RISE_SEEDS 12

static double rise_rate_bps(uint32_t ms) { return ms <= 5000 ? 20e6 : 80e6; }

static void test_capacity_rise(void) {
    size_t count = trace_from_rate(drop_trace, sizeof drop_trace / sizeof drop_trace[0], DROP_TRACE_MS, rise_rate_bps);
    static const char *const variants[] = {"vivace-loss", "vivace"};
    for (size_t v = 0; v < 2; v++) {
        double mbps[2];
        for (int moving = 0; moving < 2; moving++) {
            rise_delivered_bits = 0.0;
            for (uint64_t seed = 1; seed <= RISE_SEEDS; seed++) {
                CHECK(run_on_trace(variants[v], moving ? "moving=1" : "moving=0", 60000, drop_trace, count, DROP_TRACE_MS,
                                   75000, 0.005, seed, count_after_rise));
            }
            mbps[moving] = rise_delivered_bits / 3.0 / 1e6 / RISE_SEEDS;
        }
        fprintf(stderr, "fig4.8 step 20 -> 80 Mbit/s %-11s: 3 s after the rise %.1f Mbit/s by probe rounds, %.1f moving "
                "(mean of %d seeds)\n", variants[v], mbps[0], mbps[1], RISE_SEEDS);
        CHECK(mbps[1] > 1.25 * mbps[0]);
        CHECK(mbps[1] > 30.0);
    }
}

/* An LTE outage: 10 Mbit/s, nothing from 8 s to 10 s, 10 Mbit/s again (1 MB buffer, 40 ms). MI timeouts halve
 * the rate through the outage (§4.4.4); once feedback returns the rate must get back within a few seconds
 * (timeout recovery), not climb by gradient steps from the floor (before: 0.6 Mbit/s over 10-20 s, 1.6 over
 * 20-30 s). */
#define OUTAGE_TRACE_MS 30000
static uint32_t outage_trace[OUTAGE_TRACE_MS * 2];
static double outage_received_bits;

static void count_after_outage(const pcc_sim_sample *sample, void *user_data) {
    (void)user_data;
    if (sample->time_us > 10000000 && sample->time_us <= 20000000) outage_received_bits += sample->throughput_bps * 0.1;
}

static double outage_rate_bps(uint32_t ms) { return ms > 8000 && ms <= 10000 ? 0.0 : 10e6; }

static void test_outage_recovery(void) {
    size_t count = trace_from_rate(outage_trace, sizeof outage_trace / sizeof outage_trace[0], OUTAGE_TRACE_MS, outage_rate_bps);
    outage_received_bits = 0.0;
    CHECK(run_on_trace("vivace", NULL, 40000, outage_trace, count, OUTAGE_TRACE_MS, 1000000, 0.0, 1, count_after_outage));
    double mbps = outage_received_bits / 10.0 / 1e6;
    fprintf(stderr, "fig4.9 outage 8-10 s on 10 Mbit/s: vivace %.1f Mbit/s over 10-20 s, %.1f over the last half\n",
            mbps, result.flows[0].throughput_last_half_bps / 1e6);
    CHECK(mbps > 3.0);
    CHECK(result.flows[0].throughput_last_half_bps / 1e6 > 8.0);
}

int main(void) {
    test_lte();
    test_capacity_drop();
    test_capacity_rise();
    test_outage_recovery();
    test_random_loss();
    test_bufferbloat();
    test_convergence();
    return check_summary("test_sim_paper");
}
