/* The whole simulator through its public API: delays, random loss, trace capacity, determinism, bad input. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "pcc_sim.h"

static pcc_sim_flow_config fixed_flow(double rate_bps, int64_t rtt_us, char *params, size_t params_bytes) {
    snprintf(params, params_bytes, "rate_bps=%.0f,initial_rate_bps=%.0f", rate_bps, rate_bps);
    pcc_sim_flow_config flow;
    memset(&flow, 0, sizeof flow);
    flow.cc = "fixed";
    flow.cc_params = params;
    flow.base_rtt_us = rtt_us;
    return flow;
}

static void test_delay_is_propagation_plus_serialisation(void) {
    char params[128];
    pcc_sim_flow_config flow = fixed_flow(10e6, 50000, params, sizeof params);
    pcc_sim_config config;
    pcc_sim_config_init(&config);
    config.duration_us = 5000000;
    config.flows = &flow;
    config.flow_count = 1;
    pcc_sim_result result;
    char error[256];
    CHECK(pcc_sim_run(&config, &result, error, sizeof error) == PCC_SIM_OK);
    /* 10 Mbit/s into 100 Mbit/s never queues: every RTT is 50 ms + 1500 B at 100 Mbit/s (120 us). */
    CHECK_NEAR(result.flows[0].min_rtt_us, 50120, 0.5);
    CHECK_NEAR(result.flows[0].p95_rtt_us, 50120, 0.5);
    CHECK_NEAR(result.flows[0].throughput_bps, 10e6 * (5.0 - 0.025) / 5.0, 0.01e6);  /* one-way delay 25 ms */
    CHECK(result.flows[0].packets_dropped_queue == 0 && result.flows[0].packets_declared_lost == 0);
}

static void test_rtt_schedule_never_reorders(void) {
    char params[128];
    pcc_sim_flow_config flow = fixed_flow(20e6, 30000, params, sizeof params);
    pcc_sim_config config;
    pcc_sim_config_init(&config);
    config.duration_us = 20000000;
    config.flows = &flow;
    config.flow_count = 1;
    config.rtt_schedule_us = (pcc_sim_schedule){10000, 100000, 500000};
    pcc_sim_result result;
    char error[256];
    CHECK(pcc_sim_run(&config, &result, error, sizeof error) == PCC_SIM_OK);
    const pcc_sim_flow_result *f = &result.flows[0];
    CHECK(f->min_rtt_us >= 10000);
    CHECK(f->p95_rtt_us <= 100000 + 1000);
    CHECK(f->p95_rtt_us > 50000);   /* the schedule really moves the RTT */
    /* RTT drops would reorder packets if the paths were not FIFO; reordering would show as losses. */
    CHECK(f->packets_declared_lost == 0);
    CHECK(f->spurious_losses == 0);
}

static void test_random_loss_rate_and_detection(void) {
    char params[128];
    pcc_sim_flow_config flow = fixed_flow(10e6, 30000, params, sizeof params);
    pcc_sim_config config;
    pcc_sim_config_init(&config);
    config.duration_us = 20000000;
    config.loss_rate = 0.05;
    config.flows = &flow;
    config.flow_count = 1;
    pcc_sim_result result;
    char error[256];
    CHECK(pcc_sim_run(&config, &result, error, sizeof error) == PCC_SIM_OK);
    const pcc_sim_flow_result *f = &result.flows[0];
    /* ~16,700 packets: the standard deviation of the loss rate is 0.0017. */
    CHECK_NEAR(f->loss_rate, 0.05, 0.006);
    CHECK(f->packets_dropped_queue == 0);
    /* Every drop is found by RFC 9002 loss detection, except the few still in flight at the end. */
    CHECK(f->packets_declared_lost <= f->packets_dropped_random);
    CHECK(f->packets_declared_lost + 10 >= f->packets_dropped_random);
    CHECK(f->spurious_losses == 0);
}

static void test_trace_link_delivers_exactly_its_opportunities(void) {
    static uint32_t ms[1000];
    for (int i = 0; i < 1000; i++) ms[i] = (uint32_t)(i / 2 + 1);   /* two opportunities per ms: 24.064 Mbit/s */
    char params[128];
    pcc_sim_flow_config flow = fixed_flow(40e6, 20000, params, sizeof params);
    flow.packet_bytes = 1504;
    pcc_sim_config config;
    pcc_sim_config_init(&config);
    config.duration_us = 10000000;
    config.trace_ms = ms;
    config.trace_ms_count = 1000;
    config.buffer_bytes = 100000;
    config.flows = &flow;
    config.flow_count = 1;
    pcc_sim_result result;
    char error[256];
    CHECK(pcc_sim_run(&config, &result, error, sizeof error) == PCC_SIM_OK);
    CHECK_NEAR(result.capacity_bps, 19998.0 * 1504 * 8 / 10, 1e-6);   /* 1..9999 ms, two each */
    /* Saturated from the first opportunity on: every opportunity carried one whole packet. */
    CHECK(result.link_utilization > 0.999);
    CHECK(result.link_utilization <= 1.0);
    CHECK(result.flows[0].packets_dropped_queue > 0);
}

static void test_rate_and_loss_schedules(void) {
    char params[128];
    pcc_sim_flow_config flow = fixed_flow(200e6, 20000, params, sizeof params);   /* always saturating */
    pcc_sim_config config;
    pcc_sim_config_init(&config);
    config.duration_us = 40000000;
    config.buffer_bytes = 30000;
    config.flows = &flow;
    config.flow_count = 1;
    config.rate_schedule_bps = (pcc_sim_schedule){10e6, 20e6, 1000000};
    config.loss_schedule = (pcc_sim_schedule){0.0, 0.2, 1000000};
    pcc_sim_result result;
    char error[256];
    CHECK(pcc_sim_run(&config, &result, error, sizeof error) == PCC_SIM_OK);
    /* 40 draws of U(10, 20) Mbit/s: the mean capacity is 15 +- 0.5 (sd of the mean 0.46) ... */
    CHECK(result.capacity_bps > 13.5e6 && result.capacity_bps < 16.5e6);
    CHECK(result.capacity_bps != 15e6);
    /* ... and a saturated link delivers all of it, whatever the rate of the moment */
    CHECK(result.link_utilization > 0.99);
    /* random loss averages U(0, 0.2) = 0.1 over 40 draws (sd of the mean 0.009) */
    const pcc_sim_flow_result *f = &result.flows[0];
    CHECK_NEAR((double)f->packets_dropped_random / (double)f->packets_sent, 0.1, 0.03);
    config.trace_ms = (const uint32_t[]){1, 2};
    config.trace_ms_count = 2;
    CHECK(pcc_sim_run(&config, &result, error, sizeof error) == PCC_SIM_ERR_INVALID);  /* rate schedule + trace */
}

typedef struct digest {
    uint64_t hash;
    uint64_t samples;
} digest;

static void hash_sample(const pcc_sim_sample *s, void *user_data) {
    digest *d = user_data;
    const double values[] = {(double)s->time_us, s->pacing_rate_bps, s->throughput_bps, s->rtt_us,
                             (double)s->queue_bytes, s->queue_delay_us, s->capacity_bps};
    const unsigned char *bytes = (const unsigned char *)values;
    for (size_t i = 0; i < sizeof values; i++) d->hash = (d->hash ^ bytes[i]) * 0x100000001B3ull;
    d->samples++;
}

static void run_mixed(uint64_t seed, pcc_sim_result *result, digest *d) {
    pcc_sim_flow_config flows[3];
    memset(flows, 0, sizeof flows);
    const char *names[] = {"vivace", "cubic", "bbr"};
    for (int i = 0; i < 3; i++) {
        flows[i].cc = names[i];
        flows[i].base_rtt_us = 20000 + 10000 * i;
        flows[i].start_us = 1000000 * i;
    }
    pcc_sim_config config;
    pcc_sim_config_init(&config);
    config.seed = seed;
    config.duration_us = 8000000;
    config.loss_rate = 0.002;
    config.rtt_schedule_us = (pcc_sim_schedule){10000, 60000, 1000000};
    config.flows = flows;
    config.flow_count = 3;
    config.on_sample = hash_sample;
    config.user_data = d;
    d->hash = 0xCBF29CE484222325ull;
    d->samples = 0;
    char error[256];
    CHECK(pcc_sim_run(&config, result, error, sizeof error) == PCC_SIM_OK);
}

/* A 99.24 and a 1.77 Mbit/s constant-rate flow overfill a 100 Mbit/s link by 1%. Exactly paced, the big
 * flow's packets take every slot the link frees and the small flow meets a full queue (measured: 23x the
 * big flow's loss rate); with the default lateness their loss rates are within 2x (measured 1.6x).
 * Returns the small flow's loss rate / the big flow's. */
static double small_over_big_loss(int64_t send_jitter_us) {
    char big_params[128], small_params[128];
    pcc_sim_flow_config flows[2] = {fixed_flow(99.24e6, 30000, big_params, sizeof big_params),
                                    fixed_flow(1.77e6, 30000, small_params, sizeof small_params)};
    pcc_sim_config config;
    pcc_sim_config_init(&config);
    config.duration_us = 10000000;
    config.flows = flows;
    config.flow_count = 2;
    config.send_jitter_us = send_jitter_us;
    pcc_sim_result result;
    char error[256];
    CHECK(pcc_sim_run(&config, &result, error, sizeof error) == PCC_SIM_OK);
    CHECK(result.flows[0].loss_rate > 0.001);
    printf("send jitter %lld us: loss rate big flow %.2f%%, small flow %.2f%%\n", (long long)send_jitter_us,
           100 * result.flows[0].loss_rate, 100 * result.flows[1].loss_rate);
    return result.flows[1].loss_rate / result.flows[0].loss_rate;
}

static void test_send_jitter_breaks_phase_lock(void) {
    double exact = small_over_big_loss(0);
    double jittered = small_over_big_loss(PCC_SIM_DEFAULT_SEND_JITTER_US);
    printf("small/big flow loss ratio: exact pacing %.2f, %d us jitter %.2f\n", exact,
           PCC_SIM_DEFAULT_SEND_JITTER_US, jittered);
    CHECK(exact > 5.0);
    CHECK(jittered > 0.5 && jittered < 2.0);
}

static void test_same_seed_same_result(void) {
    static pcc_sim_result a, b, c;
    digest da, db, dc;
    run_mixed(7, &a, &da);
    run_mixed(7, &b, &db);
    run_mixed(8, &c, &dc);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    CHECK(da.hash == db.hash && da.samples == db.samples);
    CHECK(da.samples == 80 * 3);
    CHECK(memcmp(&a, &c, sizeof a) != 0);
    CHECK(da.hash != dc.hash);
}

static int rejected(const pcc_sim_config *config) {
    static pcc_sim_result result;
    char error[256] = "";
    int status = pcc_sim_run(config, &result, error, sizeof error);
    if (status == PCC_SIM_ERR_INVALID && error[0] != '\0') return 1;
    fprintf(stderr, "accepted a bad config (status %d, error \"%s\")\n", status, error);
    return 0;
}

static void test_bad_configs_are_rejected(void) {
    pcc_sim_flow_config flow;
    memset(&flow, 0, sizeof flow);
    flow.cc = "vivace";
    flow.base_rtt_us = 30000;
    pcc_sim_config good;
    pcc_sim_config_init(&good);
    good.duration_us = 100000;
    good.flows = &flow;
    good.flow_count = 1;
    pcc_sim_result result;
    char error[256];
    CHECK(pcc_sim_run(&good, &result, error, sizeof error) == PCC_SIM_OK);

    pcc_sim_config c = good;
    c.flow_count = 0;
    CHECK(rejected(&c));
    c = good;
    c.flows = NULL;
    CHECK(rejected(&c));
    c = good;
    c.duration_us = 0;
    CHECK(rejected(&c));
    c = good;
    c.rate_bps = NAN;
    CHECK(rejected(&c));
    c = good;
    c.rate_bps = -5;
    CHECK(rejected(&c));
    c = good;
    c.loss_rate = 1.0;
    CHECK(rejected(&c));
    c = good;
    c.loss_rate = -0.1;
    CHECK(rejected(&c));
    c = good;
    c.rtt_schedule_us = (pcc_sim_schedule){50000, 10000, 1000000};   /* min > max */
    CHECK(rejected(&c));
    c = good;
    c.loss_schedule = (pcc_sim_schedule){0, 2.0, 1000000};
    CHECK(rejected(&c));
    static const uint32_t decreasing[] = {3, 2, 1};
    c = good;
    c.trace_ms = decreasing;
    c.trace_ms_count = 3;
    CHECK(rejected(&c));
    static const uint32_t zeros[] = {0, 0};
    c.trace_ms = zeros;
    c.trace_ms_count = 2;
    CHECK(rejected(&c));
    pcc_sim_flow_config bad = flow;
    c = good;
    c.flows = &bad;
    bad.cc = "no-such-controller";
    CHECK(rejected(&c));
    bad = flow;
    bad.base_rtt_us = 0;
    CHECK(rejected(&c));
    bad = flow;
    bad.start_us = good.duration_us;
    CHECK(rejected(&c));
    bad = flow;
    c.send_jitter_us = -1;
    CHECK(rejected(&c));
    c.send_jitter_us = 0;  /* exact pacing is a valid setting */
    CHECK(pcc_sim_run(&c, &result, error, sizeof error) == PCC_SIM_OK);
    pcc_sim_config jittered = good;
    jittered.jitter_sd_us = -1.0;
    CHECK(rejected(&jittered));
    jittered.jitter_sd_us = NAN;
    CHECK(rejected(&jittered));
    jittered.jitter_sd_us = 200.0;
    jittered.jitter_tau_us = -5.0;
    CHECK(rejected(&jittered));
    jittered.jitter_tau_us = 0.0;   /* the default time constant */
    CHECK(pcc_sim_run(&jittered, &result, error, sizeof error) == PCC_SIM_OK);
    bad.packet_bytes = 10;
    CHECK(rejected(&c));
    bad = flow;
    bad.cc_params = "epsilon";
    CHECK(rejected(&c));
    bad.cc_params = "no_such_parameter=1";
    CHECK(rejected(&c));
    bad.cc_params = "min_rate_bps=abc";
    CHECK(rejected(&c));
    bad.cc_params = "min_rate_bps=-1";
    CHECK(rejected(&c));
    CHECK(pcc_sim_run(NULL, &result, error, sizeof error) == PCC_SIM_ERR_INVALID);
    /* The good config still works after all that (nothing global was disturbed). */
    CHECK(pcc_sim_run(&good, &result, error, sizeof error) == PCC_SIM_OK);
}

int main(void) {
    test_delay_is_propagation_plus_serialisation();
    test_rtt_schedule_never_reorders();
    test_random_loss_rate_and_detection();
    test_trace_link_delivers_exactly_its_opportunities();
    test_rate_and_loss_schedules();
    test_send_jitter_breaks_phase_lock();
    test_same_seed_same_result();
    test_bad_configs_are_rejected();
    return check_summary("test_sim_run");
}
