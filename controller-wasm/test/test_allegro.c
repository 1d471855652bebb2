/* PCC Allegro: the §2.3 utility by hand, and starting, decision making (RCTs, growing ε) and rate
 * adjusting (eq. 3.1) provoked through a scripted path. */
#include <math.h>
#include <string.h>

#include <stdio.h>

#include "algorithms/allegro.h"
#include "bottleneck_link.h"
#include "check.h"
#include "pcc_driver.h"

#define RTT_US 30000

static void test_utility_values(void) {
    cc_mi_stats mi;
    memset(&mi, 0, sizeof mi);
    mi.send_rate_bps = 100e6;
    mi.loss_rate = 0.01;
    /* T = 99, Sigmoid_100(-0.04) = 1/(1+e^-4): 99 * 0.982013790 - 1 */
    CHECK_NEAR(allegro_utility(&mi, 100, 0.05), 96.21936521375294, 1e-9);
    mi.loss_rate = 0.1; /* past the cut-off: 90/(1+e^5) - 10 */
    CHECK_NEAR(allegro_utility(&mi, 100, 0.05), -9.397643416814363, 1e-9);
    mi.loss_rate = 0;
    CHECK_NEAR(allegro_utility(&mi, 100, 0.05), 99.33071490757152, 1e-9);
    mi.send_rate_bps = 10e6;
    mi.loss_rate = 0.05; /* at the cut-off the sigmoid is 1/2: 9.5/2 - 0.5 */
    CHECK_NEAR(allegro_utility(&mi, 100, 0.05), 4.25, 1e-12);
    mi.loss_rate = 1.0; /* everything lost, a huge exponent: no overflow */
    CHECK_NEAR(allegro_utility(&mi, 1000, 0.05), -10.0, 1e-12);
    mi.send_rate_bps = 0;
    CHECK(allegro_utility(&mi, 100, 0.05) == 0);
}

typedef struct scenario {
    mi_record seen;
    int mode;          /* 0 tent at 10 Mbit/s, 1 disagreeing pairs around 8 */
    int trials_seen;
} scenario;

static double scripted_utility(const cc_mi_stats *mi, void *user) {
    scenario *s = user;
    record_mi(&s->seen, mi);
    double x = mi->target_rate_bps * 1e-6;
    if (s->mode == 0) return -fabs(x - 10);
    if (fabs(mi->target_rate_bps - 8e6) < 1) return 0;
    if (x > 8.5) return -100; /* ends starting at 8 */
    return (s->trials_seen++ % 4) < 2 ? x : -x;
}

static const char *state_of(cc_controller *cc) {
    cc_telemetry t;
    cc_get_telemetry(cc, &t);
    return t.state;
}

static size_t find_rate(const mi_record *r, size_t from, double rate_bps) {
    for (size_t i = from; i < r->count; i++) {
        if (fabs(r->target_rate_bps[i] - rate_bps) < 1e-3) return i;
    }
    return r->count;
}

static void test_starting_decision_adjusting(void) {
    scenario s;
    memset(&s, 0, sizeof s);
    cc_controller *cc = cc_create("allegro", 5, 0);
    CHECK(cc_set_utility(cc, scripted_utility, &s) == CC_OK);
    driver d;
    driver_init(&d, cc, RTT_US);
    driver_run(&d, 100000);
    CHECK(strcmp(state_of(cc), "starting") == 0);
    int saw_decision = 0, saw_adjusting = 0;
    for (int64_t t = 110000; t <= 4000000; t += 10000) {
        driver_run(&d, t);
        saw_decision |= strcmp(state_of(cc), "decision") == 0;
        saw_adjusting |= strcmp(state_of(cc), "rate_adjusting") == 0;
    }
    CHECK(saw_decision && saw_adjusting);
    /* starting doubles: 1, 2, 4, 8, 16 */
    for (size_t i = 0; i < 5; i++) CHECK_NEAR(s.seen.target_rate_bps[i], 1e6 * (double)(1u << i), 1e-3);
    /* u(16) < u(8): decision at 8 with ε_min = 1%: four trials, two at 8.08 and two at 7.92 */
    size_t first_trial = find_rate(&s.seen, 5, 8.08e6);
    size_t first_low = find_rate(&s.seen, 5, 7.92e6);
    CHECK(first_trial < s.seen.count && first_low < s.seen.count);
    size_t start = first_trial < first_low ? first_trial : first_low;
    int high = 0, low = 0;
    for (size_t i = start; i < start + 4 && i < s.seen.count; i++) {
        if (fabs(s.seen.target_rate_bps[i] - 8.08e6) < 1e-3) high++;
        if (fabs(s.seen.target_rate_bps[i] - 7.92e6) < 1e-3) low++;
    }
    CHECK(high == 2 && low == 2);
    /* the higher rate won both: rate adjusting from r0 = 8.08 by eq. 3.1 */
    const double adjusting[] = {8.1608e6, 8.324016e6, 8.57373648e6, 8.9166859392e6};
    size_t at = find_rate(&s.seen, start + 4, adjusting[0]);
    CHECK(at < s.seen.count);
    for (size_t i = 0; i < 4 && at + i < s.seen.count; i++) CHECK_NEAR(s.seen.target_rate_bps[at + i], adjusting[i], 1e-3);
    /* it keeps near the peak afterwards */
    double rate = cc_pacing_rate_bytes_per_s(cc) * 8;
    CHECK(rate > 8e6 && rate < 12e6);
    driver_release(&d);
    cc_destroy(cc);
}

static void test_inconclusive_grows_epsilon(void) {
    scenario s;
    memset(&s, 0, sizeof s);
    s.mode = 1;
    cc_controller *cc = cc_create("allegro", 9, 0);
    CHECK(cc_set_utility(cc, scripted_utility, &s) == CC_OK);
    CHECK(cc_param_set(cc, "initial_rate_bps", 8e6) == CC_OK);
    driver d;
    driver_init(&d, cc, RTT_US);
    driver_run(&d, 6000000);
    CHECK(strcmp(state_of(cc), "decision") == 0);
    /* Trials at ±1%, then ±2% ... up to ±5% where ε stays; the base never moves from 8. */
    const double epsilons[] = {0.01, 0.02, 0.03, 0.04, 0.05};
    size_t from = 0;
    for (size_t i = 0; i < 5; i++) {
        size_t at = find_rate(&s.seen, from, 8e6 * (1 + epsilons[i]));
        CHECK(at < s.seen.count);
        from = at < s.seen.count ? at : from;
    }
    for (size_t i = 0; i < s.seen.count; i++) {
        double x = s.seen.target_rate_bps[i];
        CHECK(x > 8.5e6 || (x >= 8e6 * 0.95 - 1e-3 && x <= 8e6 * 1.05 + 1e-3));
    }
    CHECK(find_rate(&s.seen, 0, 8e6 * 1.06) == s.seen.count);
    CHECK(s.trials_seen >= 20);
    driver_release(&d);
    cc_destroy(cc);
}

static void test_silence_lowers_rate(void) {
    cc_controller *cc = cc_create("allegro", 11, 0);
    CHECK(cc_param_set(cc, "max_rate_bps", 20e6) == CC_OK);
    driver d;
    driver_init(&d, cc, RTT_US);
    driver_run(&d, 2000000);
    double before = cc_pacing_rate_bytes_per_s(cc);
    CHECK(before * 8 > 10e6);
    d.feedback_enabled = 0;
    driver_run(&d, 5000000);
    /* unresolved packets count as lost: lower rates win every trial and the rate walks down */
    CHECK(cc_pacing_rate_bytes_per_s(cc) < before / 2);
    CHECK(cc_pacing_rate_bytes_per_s(cc) * 8 >= 100e3);
    driver_release(&d);
    cc_destroy(cc);
}

/* An Allegro variant is one small file (allegro.h): a clone on Allegro's hooks with its own built-in utility (here
 * the same one) must make exactly allegro's decisions, MI by MI, under random loss. */
static const cc_param_desc clone_params[ALLEGRO_P_COUNT] = {ALLEGRO_PARAM_ROWS};
static const pcc_hooks clone_hooks = ALLEGRO_HOOKS(allegro_mi_utility);
static void clone_init(void *state, cc_context *ctx, int64_t now_us) {
    (void)now_us;
    allegro_init_with_hooks(state, ctx, &clone_hooks);
}
static const cc_ops clone_ops = ALLEGRO_OPS("allegro-clone", "test: Allegro's hooks", clone_params, ALLEGRO_P_COUNT, clone_init);

static int lose_every_37th(uint64_t pn, double rate_bytes_per_s, void *user) {
    (void)rate_bytes_per_s;
    (void)user;
    return pn % 37 == 5;
}

static void rates_under_loss(cc_controller *cc, double *rates_bps, size_t count) {
    driver d;
    driver_init(&d, cc, RTT_US);
    d.lose = lose_every_37th;
    for (size_t i = 0; i < count; i++) {
        driver_run(&d, (int64_t)(i + 1) * 50000);
        rates_bps[i] = cc_pacing_rate_bytes_per_s(cc) * 8;
    }
    driver_release(&d);
}

static void test_variant_in_one_file(void) {
    double allegro_bps[100], clone_bps[100];
    cc_controller *allegro = cc_create("allegro", 3, 0), *clone = cc_create_with_ops(&clone_ops, 3, 0);
    rates_under_loss(allegro, allegro_bps, 100);
    rates_under_loss(clone, clone_bps, 100);
    cc_telemetry t;
    cc_get_telemetry(clone, &t);
    CHECK(strcmp(t.algorithm, "allegro-clone") == 0 && t.mi_completed > 50);
    int same = 1, moved = 0;
    for (size_t i = 0; i < 100; i++) {
        same &= allegro_bps[i] == clone_bps[i];
        moved |= i > 0 && allegro_bps[i] != allegro_bps[i - 1];
    }
    CHECK(same && moved);
    cc_destroy(allegro);
    cc_destroy(clone);
}

/* allegro-latency (§3.4.4): the utility by hand, then what it is for: less of a deep buffer filled. */
static void test_allegro_latency(void) {
    cc_mi_stats mi;
    memset(&mi, 0, sizeof mi);
    mi.send_rate_bps = 10e6;
    mi.avg_rtt_us = 50000;
    /* L = 0: T·Sigmoid_100(-0.05) = 10/(1+e^-5) = 9.933071490757152; RTT rose 40 -> 50 ms: x 0.8, / 0.05 s */
    CHECK_NEAR(allegro_latency_utility(&mi, 0.040, 100, 0.05), 9.933071490757152 * 0.8 / 0.05, 1e-9);
    /* the first MI (no previous RTT) compares with itself */
    CHECK_NEAR(allegro_latency_utility(&mi, 0, 100, 0.05), 9.933071490757152 / 0.05, 1e-9);
    mi.loss_rate = 0.05; /* at the cut-off: (9.5/2 x 1 - 0.5) / 0.05 */
    CHECK_NEAR(allegro_latency_utility(&mi, 0.050, 100, 0.05), 4.25 / 0.05, 1e-9);
    mi.avg_rtt_us = 0; /* no RTT sample: Allegro's own utility */
    CHECK_NEAR(allegro_latency_utility(&mi, 0.050, 100, 0.05), 4.25, 1e-12);

    double queue_ms[2], throughput_mbps[2];
    const char *const names[2] = {"allegro", "allegro-latency"};
    for (int i = 0; i < 2; i++) {
        cc_controller *cc = cc_create(names[i], 9, 0);
        bottleneck_link *link = link_create(cc, 20e6, RTT_US, 20e6 / 8 * RTT_US * 1e-6 * 8); /* 8 BDP of buffer */
        link_run(link, 5000000);
        link_reset_stats(link);
        link_run(link, 25000000);
        queue_ms[i] = link_mean_queue_delay_us(link) / 1000;
        throughput_mbps[i] = (double)link->delivered_bytes * 8 / 20e6;
        free(link);
        cc_destroy(cc);
    }
    printf("20 Mbit/s, 30 ms, 8 BDP buffer: allegro %.1f Mbit/s at %.1f ms queue, allegro-latency %.1f Mbit/s at %.1f ms\n",
           throughput_mbps[0], queue_ms[0], throughput_mbps[1], queue_ms[1]);
    CHECK(queue_ms[1] < 0.8 * queue_ms[0]); /* measured: 126 vs 201 ms */
    CHECK(throughput_mbps[1] > 0.8 * 20);
}

int main(void) {
    test_allegro_latency();
    test_variant_in_one_file();
    test_utility_values();
    test_starting_decision_adjusting();
    test_inconclusive_grows_epsilon();
    test_silence_lowers_rate();
    return check_summary("test_allegro");
}
