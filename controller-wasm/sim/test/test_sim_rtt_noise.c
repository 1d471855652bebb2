/* Return-path RTT noise (path_jitter.h, sim_rtt_noise; --rtt-noise real-path): its draws follow the fitted mixture,
 * one value per epoch, the same for a seed and different across seeds; through the simulator it lifts RTT samples
 * above the propagation delay by the amounts the fit says, and the default leaves them at it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixed_flow.h"
#include "path_jitter.h"
#include "pcc_sim.h"

/* The mixture's CDF: lognormal body, Pareto tail, as the real-path profile defines them. */
static double mixture_cdf(const sim_rtt_noise_params *p, double x) {
    double body = 0.5 * erfc(-log(x / p->median_us) / (p->sigma * sqrt(2.0)));
    double tail = x > p->tail_scale_us ? 1.0 - pow(p->tail_scale_us / x, p->tail_index) : 0.0;
    return (1.0 - p->tail_share) * body + p->tail_share * tail;
}

static double mixture_quantile(const sim_rtt_noise_params *p, double q) {
    double lo = 1e-3, hi = p->cap_us;
    for (int i = 0; i < 200; i++) {
        double mid = sqrt(lo * hi);
        if (mixture_cdf(p, mid) < q) lo = mid;
        else hi = mid;
    }
    return sqrt(lo * hi);
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void test_draws_follow_the_fitted_mixture(void) {
    const sim_rtt_noise_params *p = &SIM_RTT_NOISE_REAL_PATH;
    enum { DRAWS = 400000 };
    static double values[DRAWS];
    sim_rtt_noise noise;
    sim_rtt_noise_init(&noise, p, 11, 1);
    for (int i = 0; i < DRAWS; i++) values[i] = sim_rtt_noise_at(&noise, (int64_t)i * (int64_t)p->hold_us);
    qsort(values, DRAWS, sizeof values[0], compare_doubles);
    const double quantiles[] = {0.5, 0.9, 0.95};   /* p99 is at the cap */
    const double tolerance[] = {0.03, 0.04, 0.05};   /* relative; the sampling error at 400,000 draws is ~1-2% */
    for (int k = 0; k < 3; k++) {
        double drawn = values[(int)(quantiles[k] * DRAWS)];
        double expected = mixture_quantile(p, quantiles[k]);
        printf("real-path noise p%.0f: drawn %.0f us, mixture %.0f us\n", quantiles[k] * 100, drawn, expected);
        CHECK(fabs(drawn / expected - 1.0) < tolerance[k]);
    }
    CHECK(values[0] > 0.0);
    CHECK(values[DRAWS - 1] <= p->cap_us);
}

static void test_held_per_epoch_seeded_and_off(void) {
    const sim_rtt_noise_params *p = &SIM_RTT_NOISE_REAL_PATH;
    sim_rtt_noise a, b, c;
    sim_rtt_noise_init(&a, p, 5, 3);
    sim_rtt_noise_init(&b, p, 5, 3);
    sim_rtt_noise_init(&c, p, 6, 3);
    int differs = 0;
    for (int64_t t = 0; t < 2000000; t += 250) {
        double x = sim_rtt_noise_at(&a, t);
        CHECK(x == sim_rtt_noise_at(&b, t));
        if (x != sim_rtt_noise_at(&c, t)) differs++;
        /* every ack of one epoch gets the same delay */
        int64_t epoch_start = t - t % (int64_t)p->hold_us;
        if (t != epoch_start && t % 1000 == 0) CHECK(x == a.value_us);
    }
    CHECK(differs > 1000);
    sim_rtt_noise first, held;
    sim_rtt_noise_init(&first, p, 9, 1);
    sim_rtt_noise_init(&held, p, 9, 1);
    double start = sim_rtt_noise_at(&first, 0);
    CHECK(sim_rtt_noise_at(&held, 0) == start && sim_rtt_noise_at(&held, (int64_t)p->hold_us - 1) == start);
    sim_rtt_noise_params off_params;
    memset(&off_params, 0, sizeof off_params);
    sim_rtt_noise off;
    sim_rtt_noise_init(&off, &off_params, 9, 1);
    for (int64_t t = 0; t < 100000; t += 100) CHECK(sim_rtt_noise_at(&off, t) == 0.0);
}

/* A fixed-rate flow at half of a 20 Mbit/s link: no queue, so RTT above the propagation delay is the noise. */
static pcc_sim_result run_fixed(int noise, uint64_t seed) {
    fixed_run run;
    fixed_run_init(&run, 10e6, 40000, 30000000);
    run.config.seed = seed;
    run.config.rate_bps = 20e6;
    if (noise) run.config.rtt_noise = SIM_RTT_NOISE_REAL_PATH;
    return fixed_run_go(&run);
}

static void test_through_the_simulator(void) {
    pcc_sim_result quiet = run_fixed(0, 1);
    pcc_sim_result noisy = run_fixed(1, 1);
    pcc_sim_result again = run_fixed(1, 1);
    pcc_sim_result other = run_fixed(1, 2);
    const pcc_sim_flow_result *q = &quiet.flows[0], *n = &noisy.flows[0];
    printf("fixed 10 of 20 Mbit/s, 40 ms: RTT above 40 ms mean %.2f / p95 %.2f ms quiet, %.2f / %.2f ms real-path\n",
           q->mean_rtt_us / 1e3 - 40, q->p95_rtt_us / 1e3 - 40, n->mean_rtt_us / 1e3 - 40, n->p95_rtt_us / 1e3 - 40);
    CHECK(q->p95_rtt_us - 40000 < 2000);
    /* Every ack of an epoch waits for that epoch's draw and the return path is FIFO, so a tail draw (up to the
     * 100-ms cap) holds the acks behind it: per ack, the mean is ~30 ms where one draw's is ~7 ms. Bounds wide
     * enough for any seed, narrow enough that a noise not reaching the acks, or not held, fails. */
    CHECK(n->mean_rtt_us - 40000 > 15000 && n->mean_rtt_us - 40000 < 50000);
    CHECK(n->p95_rtt_us - 40000 > 50000 && n->p95_rtt_us - 40000 < 101000);
    CHECK(n->min_rtt_us >= 40000);
    /* the throughput is the sender's: the noise delays acks, it does not drop them */
    CHECK(fabs(n->throughput_bps / q->throughput_bps - 1.0) < 0.02);
    CHECK(n->mean_rtt_us == again.flows[0].mean_rtt_us && n->p95_rtt_us == again.flows[0].p95_rtt_us);
    CHECK(n->mean_rtt_us != other.flows[0].mean_rtt_us);
}

int main(void) {
    test_draws_follow_the_fitted_mixture();
    test_held_per_epoch_seeded_and_off();
    test_through_the_simulator();
    return check_summary("test_sim_rtt_noise");
}
