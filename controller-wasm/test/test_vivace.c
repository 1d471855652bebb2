/* PCC Vivace: utility values by hand, and every state transition provoked through a scripted path
 * (custom utilities pick what each monitor interval is worth). */
#include <math.h>
#include <string.h>

#include "algorithms/vivace_state.h"
#include "check.h"
#include "bottleneck_link.h"
#include "pcc_driver.h"

#define RTT_US 30000

/* ---- utility ---- */

static void test_utility_values(void) {
    vivace_utility_coefficients k = {0.9, 900, 11.35, 0.01, 0, 0, 0};
    cc_mi_stats mi;
    memset(&mi, 0, sizeof mi);
    mi.send_rate_bps = 100e6;
    mi.loss_rate = 0.01;
    mi.rtt_gradient = 0.02;
    /* 100^0.9 = 63.0957344480193; 900*100*0.02 = 1800; 11.35*100*0.01 = 11.35 */
    CHECK_NEAR(vivace_utility(&mi, &k), 63.0957344480193 - 1800 - 11.35, 1e-9);
    mi.rtt_gradient = 0.005; /* below flt_latency: jitter */
    CHECK_NEAR(vivace_utility(&mi, &k), 63.0957344480193 - 11.35, 1e-9);
    mi.rtt_gradient = -0.05; /* a draining queue is no reward */
    CHECK_NEAR(vivace_utility(&mi, &k), 63.0957344480193 - 11.35, 1e-9);
    mi.send_rate_bps = 10e6;
    mi.loss_rate = 0.05;
    mi.rtt_gradient = 0.1;
    /* 10^0.9 = 7.94328234724282; 900*10*0.1 = 900; 11.35*10*0.05 = 5.675 */
    CHECK_NEAR(vivace_utility(&mi, &k), 7.94328234724282 - 900 - 5.675, 1e-9);
    k.latency_coefficient = 0; /* Vivace-loss */
    CHECK_NEAR(vivace_utility(&mi, &k), 7.94328234724282 - 5.675, 1e-9);
    /* slow-start thresholds: loss and gradient below them count as 0 */
    k.latency_coefficient = 900;
    k.loss_ignored_below = 0.06;
    k.latency_ignored_below = 0.2;
    CHECK_NEAR(vivace_utility(&mi, &k), 7.94328234724282, 1e-9);
    mi.send_rate_bps = 0;
    CHECK(vivace_utility(&mi, &k) == 0);

    cc_controller *latency = cc_create("vivace", 1, 0), *loss = cc_create("vivace-loss", 1, 0);
    double b = -1;
    CHECK(cc_param_get(latency, "latency_coefficient", &b) == CC_OK && b == 900);
    CHECK(cc_param_get(loss, "latency_coefficient", &b) == CC_OK && b == 0);
    CHECK(cc_param_get(loss, "loss_coefficient", &b) == CC_OK && b == 11.35);
    CHECK(cc_param_get(loss, "epsilon", &b) == CC_OK && b == 0.05);
    CHECK(cc_param_set(loss, "epsilon", 0.6) == CC_ERR_INVALID);
    CHECK(cc_param_set(loss, "epsilon", NAN) == CC_ERR_INVALID);
    CHECK(cc_param_set(loss, "theta0", -1) == CC_ERR_INVALID);
    cc_destroy(latency);
    cc_destroy(loss);
}

/* ---- scripted scenarios ---- */

typedef struct scenario {
    mi_record seen;
    double peak_bps;        /* peak of the tent utility */
    int mode;               /* 0 tent, 1 constant, 2 disagreeing pairs, 3 NaN */
    int probes_seen;
} scenario;

static double scripted_utility(const cc_mi_stats *mi, void *user) {
    scenario *s = user;
    record_mi(&s->seen, mi);
    double x = mi->target_rate_bps * 1e-6;
    switch (s->mode) {
    case 0:
        return -fabs(x - s->peak_bps * 1e-6);
    case 1:
        return 5.0;
    case 2:
        /* slow start from 8 Mbit/s ends at once (16 is far worse); the base then stays 8 and the
         * probes are the MIs just off it: pair 1 says up, pair 2 says down. */
        if (fabs(mi->target_rate_bps - 8e6) < 1) return 0;
        if (x > 8.5) return -100;
        return (s->probes_seen++ % 4) < 2 ? x : -x;
    default:
        return NAN;
    }
}

static int near_rel(double a, double b) { return fabs(a - b) <= 1e-9 * fabs(b); }

/* Bases of the probing rounds, in order: each probe pair (r(1+ε), r(1-ε)) averages to r. */
static size_t probe_bases(const mi_record *r, double epsilon, double *bases, size_t max) {
    size_t n = 0;
    for (size_t i = 0; i + 1 < r->count; i++) {
        double a = r->target_rate_bps[i], b = r->target_rate_bps[i + 1];
        double ratio = (1 + epsilon) / (1 - epsilon);
        if (near_rel(a / b, ratio) || near_rel(b / a, ratio)) {
            double base = (a + b) / 2;
            if (n == 0 || !near_rel(bases[n - 1], base)) {
                if (n < max) bases[n++] = base;
            }
            i++;
        }
    }
    return n;
}

/* The MIs of r from index from on. */
static void records_from(const mi_record *r, size_t from, mi_record *out) {
    memset(out, 0, sizeof *out);
    for (size_t i = from; i < r->count; i++) out->target_rate_bps[out->count++] = r->target_rate_bps[i];
}

static cc_controller *scripted(scenario *s, int mode, double peak_bps) {
    memset(s, 0, sizeof *s);
    s->mode = mode;
    s->peak_bps = peak_bps;
    cc_controller *cc = cc_create("vivace", 42, 0);
    CHECK(cc_set_utility(cc, scripted_utility, s) == CC_OK);
    /* These tests pin the thesis's state machine (§4.4) rate by rate: slow start doubles per MI and exits to the
     * best MI's rate. The driver's path has no bottleneck, so the delivery-rate cap would only add the acks'
     * lag to the doubling; it and the drain have their own test (test_slow_start_overshoot). */
    CHECK(cc_param_set(cc, "slow_start_delivery_gain", 0) == CC_OK);
    CHECK(cc_param_set(cc, "slow_start_drain", 0) == CC_OK);
    CHECK(cc_param_set(cc, "epsilon_min", 0.05) == CC_OK); /* Table 4.1's fixed ε; the adaptive step has its own test */
    CHECK(cc_param_set(cc, "moving", 0) == CC_OK); /* one decision per probe round, as §4.4.3; test_moving_state */
    return cc;
}

static const char *state_of(cc_controller *cc) {
    cc_telemetry t;
    cc_get_telemetry(cc, &t);
    return t.state;
}

static void test_slow_start_and_gradient_ascent(void) {
    scenario s;
    cc_controller *cc = scripted(&s, 0, 10e6);
    driver d;
    driver_init(&d, cc, RTT_US);
    driver_run(&d, 100000);
    CHECK(strcmp(state_of(cc), "slow_start") == 0);
    driver_run(&d, 3000000);
    /* slow start: 1, 2, 4, 8, 16 Mbit/s, doubling every MI */
    CHECK(s.seen.count > 5);
    for (size_t i = 0; i < 5; i++) CHECK_NEAR(s.seen.target_rate_bps[i], 1e6 * (double)(1u << i), 1e-3);
    CHECK(strcmp(state_of(cc), "probing") == 0);
    /* u(16) < u(8): back to 8, then the gradient ascent of §4.4.3 (hand-computed in the comments):
     * 8 -> +1 capped at ω0 = 5% -> 8.4 (k=1) -> +1 (ω = 15%, not capped) -> 9.4 -> m(2)·1 = 2, capped
     * at 15% -> 10.81 (k=2) -> direction change: m = 1, ω0: -0.5405 -> 10.2695 -> γ = -0.525 -> 9.7445 */
    double bases[64];
    size_t n = probe_bases(&s.seen, 0.05, bases, 64);
    const double expected[] = {8e6, 8.4e6, 9.4e6, 10.81e6, 10.2695e6, 9.7445e6};
    CHECK(n >= 6);
    for (size_t i = 0; i < 6 && i < n; i++) CHECK_NEAR(bases[i], expected[i], 1e-3 * 1e6);
    /* It then stays around the peak. */
    for (size_t i = 6; i < n; i++) CHECK(bases[i] > 8.5e6 && bases[i] < 11.5e6);
    /* Pairs are sent in random order: both orders occur. */
    int up_first = 0, down_first = 0;
    for (size_t i = 0; i + 1 < s.seen.count; i++) {
        double a = s.seen.target_rate_bps[i], b = s.seen.target_rate_bps[i + 1];
        if (near_rel(a / b, 1.05 / 0.95)) up_first++, i++;
        else if (near_rel(b / a, 1.05 / 0.95)) down_first++, i++;
    }
    CHECK(up_first > 2 && down_first > 2);
    /* the custom utility is called once per completed MI */
    cc_telemetry t;
    cc_get_telemetry(cc, &t);
    CHECK(t.mi_completed == s.seen.count);
    CHECK(t.gradient != 0);
    /* telemetry: the MI being sent, the last finished one, framework fields */
    CHECK_NEAR(t.mi_rate_bps, t.pacing_rate_bps, 1e-6);
    CHECK_NEAR(t.last_mi_rate_bps, s.seen.target_rate_bps[s.seen.count - 1], 1e-6);
    CHECK(t.last_mi_throughput_bps > 1e6 && t.last_mi_loss_rate == 0 && t.last_mi_rtt_gradient == 0);
    CHECK(t.last_mi_utility <= 0 && t.last_mi_utility > -5); /* the tent utility near its peak */
    CHECK(t.srtt_us == RTT_US && t.min_rtt_us == RTT_US && t.packets_sent > 1000 && t.events_ignored == 0);
    CHECK(strcmp(t.algorithm, "vivace") == 0 && t.cwnd_bytes == CC_CWND_UNLIMITED_BYTES);
    driver_release(&d);
    cc_destroy(cc);
}

static void test_no_move_without_gradient(void) {
    /* constant utility: γ = 0, the rate stays where slow start left it */
    scenario s;
    cc_controller *cc = scripted(&s, 1, 0);
    CHECK(cc_param_set(cc, "initial_rate_bps", 8e6) == CC_OK);
    CHECK(cc_param_set(cc, "max_rate_bps", 8e6) == CC_OK); /* slow start at the maximum ends at once */
    driver d;
    driver_init(&d, cc, RTT_US);
    driver_run(&d, 2000000);
    CHECK(strcmp(state_of(cc), "probing") == 0);
    double bases[64];
    size_t n = probe_bases(&s.seen, 0.05, bases, 64);
    CHECK(n == 0); /* the up probe is clamped at max: pairs are (8, 7.6) */
    for (size_t i = 0; i < s.seen.count; i++) CHECK(s.seen.target_rate_bps[i] <= 8e6 + 1e-6);
    CHECK_NEAR(cc_pacing_rate_bytes_per_s(cc) * 8, 8e6, 0.4e6 + 1);
    driver_release(&d);
    cc_destroy(cc);

    /* disagreeing pairs (RCT inconclusive): no move either */
    cc = scripted(&s, 2, 0);
    CHECK(cc_param_set(cc, "initial_rate_bps", 8e6) == CC_OK);
    driver_init(&d, cc, RTT_US);
    driver_run(&d, 3000000);
    n = probe_bases(&s.seen, 0.05, bases, 64);
    CHECK(n >= 1);
    for (size_t i = 0; i < n; i++) CHECK_NEAR(bases[i], 8e6, 1);
    CHECK(s.probes_seen >= 8);
    driver_release(&d);
    cc_destroy(cc);
}

/* epsilon_min < epsilon: Allegro's adaptive step (§3.2.3). Inconclusive rounds widen ε by ε_min up to ε;
 * a decision narrows it back to ε_min. */
static void test_adaptive_epsilon(void) {
    scenario s;
    cc_controller *cc = scripted(&s, 2, 0); /* disagreeing pairs: every round inconclusive */
    CHECK(cc_param_set(cc, "initial_rate_bps", 8e6) == CC_OK);
    CHECK(cc_param_set(cc, "epsilon_min", 0.01) == CC_OK);
    driver d;
    driver_init(&d, cc, RTT_US);
    driver_run(&d, 6000000);
    double bases[64];
    for (int step = 1; step <= 5; step++) {
        size_t n = probe_bases(&s.seen, 0.01 * step, bases, 64);
        CHECK(n == 1); /* a round at every ε from 0.01 to 0.05, all around the same base */
        CHECK_NEAR(bases[0], 8e6, 1);
    }
    CHECK(probe_bases(&s.seen, 0.06, bases, 64) == 0); /* never wider than epsilon */
    /* the last probes are at the widest step */
    double a = s.seen.target_rate_bps[s.seen.count - 1], b = s.seen.target_rate_bps[s.seen.count - 2];
    CHECK(near_rel(a / b, 1.05 / 0.95) || near_rel(b / a, 1.05 / 0.95));
    driver_release(&d);
    cc_destroy(cc);

    /* tent utility: decisions keep ε at ε_min, so the probes around 10 Mbit/s are r(1 ± 0.01) */
    cc = scripted(&s, 0, 10e6);
    CHECK(cc_param_set(cc, "epsilon_min", 0.01) == CC_OK);
    CHECK(cc_param_set(cc, "epsilon_min_on_reversal", 0) == CC_OK);
    driver_init(&d, cc, RTT_US);
    driver_run(&d, 6000000);
    size_t narrow = probe_bases(&s.seen, 0.01, bases, 64);
    CHECK(narrow >= 4);
    CHECK(bases[narrow - 1] > 9.5e6 && bases[narrow - 1] < 10.5e6);
    /* setting epsilon below the current step pulls the step back inside the bounds */
    CHECK(cc_param_set(cc, "epsilon", 0.005) == CC_OK);
    size_t before = s.seen.count;
    driver_run(&d, 1000000);
    for (size_t i = before + 1; i < s.seen.count; i++) {
        double ratio = s.seen.target_rate_bps[i] / s.seen.target_rate_bps[i - 1];
        CHECK(ratio < 1.0 / 0.99 + 1e-9 && ratio > 0.99 - 1e-9);
    }
    driver_release(&d);
    cc_destroy(cc);
}

/* epsilon_min_on_reversal: a run of same-direction decisions (the climb from slow start's exit) probes at the full
 * ε; once decisions alternate around the peak, at ε_min. */
static void test_epsilon_min_on_reversal(void) {
    scenario s;
    cc_controller *cc = scripted(&s, 0, 20e6);
    CHECK(cc_param_set(cc, "initial_rate_bps", 8e6) == CC_OK);
    CHECK(cc_param_set(cc, "max_rate_bps", 12e6) == CC_OK); /* slow start ends at 12, far below the peak */
    driver d;
    driver_init(&d, cc, RTT_US);
    driver_run(&d, 500000);
    CHECK(cc_param_set(cc, "max_rate_bps", 100e6) == CC_OK);
    CHECK(cc_param_set(cc, "epsilon_min", 0.01) == CC_OK);
    CHECK(cc_param_set(cc, "epsilon_min_on_reversal", 1) == CC_OK);
    size_t from = s.seen.count;
    driver_run(&d, 8000000);
    mi_record later;
    records_from(&s.seen, from, &later);
    double bases[64];
    size_t wide = probe_bases(&later, 0.05, bases, 64);
    CHECK(wide >= 3);
    CHECK(bases[0] < 15e6 && bases[1] < 19e6); /* the climb: full ε */
    size_t narrow = probe_bases(&later, 0.01, bases, 64);
    CHECK(narrow >= 3);
    for (size_t i = 0; i < narrow; i++) CHECK(bases[i] > 18e6 && bases[i] < 22e6); /* at the peak: ε_min */
    driver_release(&d);
    cc_destroy(cc);
}

/* Index of the first MI at or after `from` whose target rate is rate_bps (within 1 bit/s), or count. */
static size_t find_rate(const mi_record *r, size_t from, double rate_bps) {
    for (size_t i = from; i < r->count; i++) {
        if (fabs(r->target_rate_bps[i] - rate_bps) < 1.0) return i;
    }
    return r->count;
}

/* Runs the tent script (peak 20 Mbit/s) with the moving state on. */
static cc_controller *run_moving_script(scenario *s) {
    cc_controller *cc = scripted(s, 0, 20e6);
    CHECK(cc_param_set(cc, "moving", 1) == CC_OK);
    driver d;
    driver_init(&d, cc, RTT_US);
    int saw_moving = 0;
    for (int64_t t = 10000; t <= 3000000; t += 10000) {
        driver_run(&d, t);
        saw_moving |= strcmp(state_of(cc), "moving") == 0;
    }
    CHECK(saw_moving);
    driver_release(&d);
    return cc;
}

static void test_moving_state(void) {
    /* The tent peaks at 20 Mbit/s; slow start 1..32 exits to 16 and the first round (γ = +1 per Mbit/s, no noise)
     * decides to increase, + m(0) = 1 capped at ω0 = 5%: 16.8 (k = 1). That is one increase: a probe round at 16.8
     * follows (a move starts after two increases in a row). Its increase is the second in a row, so the moving state (kernel paper)
     * starts and steps once per confirming MI result, hand-computed:
     *   τ = 1: + m(1) = 1, within ω = 15%: 17.8 (k recalibrated to 1); u(17.8) = -2.2 > the probes' mean -3.2:
     *   γ = 1, τ = 2: + m(2) = 2 -> 19.8; τ = 3: + 3, capped at 15% of 19.8: 22.77 (k = 2).
     *   u(22.77) = -2.77 < u(19.8) = -0.2: overshoot, back to 17.8, the confirmed rate before 19.8, and a probe
     *   round there. */
    scenario s;
    cc_controller *cc = run_moving_script(&s);
    static const double steps_bps[] = {16.8e6, 17.8e6, 19.8e6, 22.77e6};
    size_t at = find_rate(&s.seen, 0, 15.2e6); /* the first round's lower probe */
    CHECK(at < s.seen.count);
    for (size_t i = 0; i < 4; i++) {
        size_t next = find_rate(&s.seen, at, steps_bps[i]);
        CHECK(next < s.seen.count);
        at = next;
    }
    /* No rate between the moves: each MI is at the last step until the step's result arrives (the check starts at
     * the first move, 17.8; before it come the probe round at 16.8 and MIs at its base). */
    for (size_t i = find_rate(&s.seen, 0, 17.8e6); i < at; i++) {
        double rate = s.seen.target_rate_bps[i];
        int is_step = 0;
        for (size_t k = 0; k < 4; k++) is_step |= fabs(rate - steps_bps[k]) < 1.0;
        CHECK(is_step);
        if (!is_step) fprintf(stderr, "moving: unexpected rate %.0f at MI %zu\n", rate, i);
    }
    /* After the overshoot: probes around 17.8 (r(1±ε)), never again 22.77 before them. The overshoot counts as a
     * decrease, so that round's increase (to 17.8 x 1.05 = 18.69, ω reset to ω0) is a first one again: another
     * probe round follows at 18.69 before the next move (18.69 + m(1) = 19.69). */
    mi_record after;
    records_from(&s.seen, at, &after);
    double bases[64];
    size_t n = probe_bases(&after, 0.05, bases, 64);
    CHECK(n >= 2);
    if (n >= 2) {
        CHECK_NEAR(bases[0], 17.8e6, 1.0);
        CHECK_NEAR(bases[1], 18.69e6, 1.0);
    }
    CHECK(find_rate(&after, 0, 18.69e6 * 0.95) < find_rate(&after, 0, 19.69e6));
    cc_destroy(cc);
}

static int lose_on_low_probe(uint64_t pn, double rate_bytes_per_s, void *user) {
    (void)user;
    return rate_bytes_per_s < 7.9e6 / 8 && pn % 3 == 0;
}

static void test_double_check(void) {
    /* Built-in utility. The higher probe (clamped at max = 8) loses nothing, the lower (7.6) a third:
     * the higher rate wins with significantly less loss, which is counter-intuitive: double check. */
    cc_controller *cc = cc_create("vivace", 3, 0);
    CHECK(cc_param_set(cc, "initial_rate_bps", 8e6) == CC_OK);
    CHECK(cc_param_set(cc, "max_rate_bps", 8e6) == CC_OK);
    driver d;
    driver_init(&d, cc, RTT_US);
    d.lose = lose_on_low_probe;
    int saw_double_check = 0, saw_probing = 0;
    for (int64_t t = 10000; t <= 3000000; t += 10000) {
        driver_run(&d, t);
        const char *state = state_of(cc);
        saw_double_check |= strcmp(state, "double_check") == 0;
        saw_probing |= strcmp(state, "probing") == 0;
    }
    CHECK(saw_probing && saw_double_check);
    driver_release(&d);
    cc_destroy(cc);
}

static void test_mi_timeout_halves(void) {
    scenario s;
    cc_controller *cc = scripted(&s, 1, 0);
    CHECK(cc_param_set(cc, "initial_rate_bps", 8e6) == CC_OK);
    CHECK(cc_param_set(cc, "max_rate_bps", 8e6) == CC_OK);
    driver d;
    driver_init(&d, cc, RTT_US);
    driver_run(&d, 1000000);
    double before = cc_pacing_rate_bytes_per_s(cc);
    /* The path goes silent: within 5 sRTT (150 ms) of an MI's end, the rate halves. */
    d.feedback_enabled = 0;
    driver_run(&d, 1000000 + 60000);
    CHECK(cc_pacing_rate_bytes_per_s(cc) >= before * 0.9 || cc_pacing_rate_bytes_per_s(cc) >= 7.6e6 / 8 - 1);
    driver_run(&d, 1000000 + 300000);
    CHECK(cc_pacing_rate_bytes_per_s(cc) <= 8e6 / 8 * 0.5 * 1.05 + 1); /* probes of the halved base */
    CHECK(strcmp(state_of(cc), "probing") == 0);
    /* Silence goes on: it keeps halving, but never below the minimum rate. */
    driver_run(&d, 5000000);
    CHECK(cc_pacing_rate_bytes_per_s(cc) * 8 >= 100e3 - 1e-6);
    CHECK(cc_pacing_rate_bytes_per_s(cc) * 8 <= 200e3);
    driver_release(&d);
    cc_destroy(cc);
}

static void test_nan_custom_utility(void) {
    scenario s;
    cc_controller *cc = scripted(&s, 3, 0);
    driver d;
    driver_init(&d, cc, RTT_US);
    driver_run(&d, 2000000);
    cc_telemetry t;
    cc_get_telemetry(cc, &t);
    CHECK(isfinite(t.last_mi_utility) && isfinite(t.gradient) && isfinite(t.pacing_rate_bps));
    CHECK(t.pacing_rate_bps >= 100e3 && t.pacing_rate_bps <= 10e9);
    CHECK(t.mi_completed > 3);
    CHECK(t.pacing_rate_bps <= 1.05e6 * 1.0001); /* no blind doubling: it stayed at the first MI's rate */
    CHECK(strcmp(t.state, "probing") == 0);
    /* Restoring the built-in utility works. */
    CHECK(cc_set_utility(cc, NULL, NULL) == CC_OK);
    driver_run(&d, 3000000);
    cc_get_telemetry(cc, &t);
    CHECK(t.pacing_rate_bps > 1e6);
    driver_release(&d);
    cc_destroy(cc);
}

static int lose_fraction(uint64_t pn, double rate_bytes_per_s, void *user) {
    (void)rate_bytes_per_s;
    double fraction = *(const double *)user;
    uint64_t z = pn * 0x9e3779b97f4a7c15ull; /* a fixed pseudo-random pattern per packet number */
    z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ull;
    z ^= z >> 29;
    return (double)(z >> 11) * 0x1.0p-53 < fraction;
}

static double rate_under_random_loss(const char *algorithm, double loss, int64_t duration_us) {
    cc_controller *cc = cc_create(algorithm, 8, 0);
    CHECK(cc_param_set(cc, "max_rate_bps", 200e6) == CC_OK);
    driver d;
    driver_init(&d, cc, RTT_US);
    d.lose = lose_fraction;
    d.lose_user = &loss;
    driver_run(&d, duration_us);
    double rate_bps = cc_pacing_rate_bytes_per_s(cc) * 8;
    driver_release(&d);
    cc_destroy(cc);
    return rate_bps;
}

static void test_random_loss_tolerance(void) {
    /* No bottleneck: only random loss. The utility's loss term tolerates up to ~5% (eq. 4.33): at 3%
     * the rate must keep climbing to the cap; at 15% the loss penalty dominates and it must fall. */
    CHECK(rate_under_random_loss("vivace", 0.03, 20000000) > 150e6);
    CHECK(rate_under_random_loss("vivace-loss", 0.03, 20000000) > 150e6);
    CHECK(rate_under_random_loss("vivace", 0.15, 20000000) < 5e6);
}

/* slow_start_loss_ignored (th_loss) at its maximum, 1, ignores loss below 1 in slow start, not an MI that lost every
 * packet. The application first limits slow start (it doubles on, app-limited), then the path drops everything (a
 * buffer smaller than one packet): slow start must end and the rate come down. The cc-api-long fuzz target found
 * vivace-loss holding 1.1 Gbit/s through 1,000 such MIs; vivace too, since no ack means no RTT gradient. */
static void test_slow_start_total_loss(void) {
    const char *names[] = {"vivace-loss", "vivace"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        cc_controller *cc = cc_create(names[i], 7, 0);
        CHECK(cc_param_set(cc, "slow_start_loss_ignored", 1) == CC_OK);
        bottleneck_link *link = link_create(cc, 100e6, 10000, 1e6);
        link->app_rate_bytes_per_s = 20e6 / 8;
        link_run(link, 2000000);
        CHECK(strcmp(state_of(cc), "slow_start") == 0);
        double before_bps = cc_pacing_rate_bytes_per_s(cc) * 8;
        link->app_rate_bytes_per_s = 0;
        link->buffer_bytes = link->packet_bytes - 1;
        link_run(link, 4000000);
        double after_bps = cc_pacing_rate_bytes_per_s(cc) * 8;
        fprintf(stderr, "%s, th_loss 1, 2 s of total loss: %s, %.1f -> %.1f Mbit/s\n", names[i], state_of(cc),
                before_bps / 1e6, after_bps / 1e6);
        CHECK(strcmp(state_of(cc), "slow_start") != 0);
        CHECK(after_bps < before_bps / 2);
        free(link);
        cc_destroy(cc);
    }
}

/* A vivace flow on a link whose acks come in groups of 4 up to `lateness_us` late (browsers, busy event loops,
 * receiver ack timers): the link's utilization over [from_us, until_us). */
typedef struct late_ack_link {
    double rate_bps;
    int64_t rtt_us;
    double buffer_bytes;
    uint32_t packet_bytes; /* also the controller's mss_bytes */
    int64_t from_us, until_us;
} late_ack_link;

static double utilization_with_late_acks(const late_ack_link *l, int64_t lateness_us, uint64_t seed) {
    cc_controller *cc = cc_create("vivace", seed, 0);
    bottleneck_link *link = link_create(cc, l->rate_bps, l->rtt_us, l->buffer_bytes);
    link->packet_bytes = l->packet_bytes;
    CHECK(cc_param_set(cc, "mss_bytes", l->packet_bytes) == CC_OK);
    link->ack_lateness_us = lateness_us;
    link_run(link, l->from_us);
    link_reset_stats(link);
    link_run(link, l->until_us);
    double utilization = (double)link->delivered_bytes * 8.0 / ((double)(l->until_us - l->from_us) * 1e-6) / l->rate_bps;
    free(link);
    cc_destroy(cc);
    return utilization;
}

/* Acks that reach the sender in late batches tilt the RTT regression of an MI without any queue. 8.8 Mbit/s, 50 ms,
 * 300 KB, each group of 4 acks up to 5 ms late: with the significance filter (2 standard errors of clustered samples)
 * Vivace keeps at least its clean-path utilization (94% here, C/(1+ε)). */
static void test_ack_timing_noise(void) {
    const late_ack_link link = {.rate_bps = 8.8e6, .rtt_us = 50000, .buffer_bytes = 300000, .packet_bytes = 1200,
                                .from_us = 10000000, .until_us = 40000000};
    double clean = utilization_with_late_acks(&link, 0, 42);
    double noisy = utilization_with_late_acks(&link, 5000, 42);
    fprintf(stderr, "vivace 8.8 Mbit/s: utilization %.3f clean, %.3f with acks up to 5 ms late\n", clean, noisy);
    CHECK(clean > 0.93);
    CHECK(noisy > 0.94);
}

/* Issue 17's startup target, 90% of a 100 Mbit/s, 30 ms link within 2 s (utilization in [1 s, 2 s]), also with RTT
 * jitter: acks up to 1.5 ms late. (A guard of the target in this fixture: the real path's slow starts that ended early
 * came from receiver stalls and pacing debt, fixed in the sender and in vivace_timeout.c; jitter without a trend
 * passes the gradient filter.) */
static void test_startup_with_rtt_jitter(void) {
    const late_ack_link link = {.rate_bps = 100e6, .rtt_us = 30000, .buffer_bytes = 75000, .packet_bytes = 1421,
                                .from_us = 1000000, .until_us = 2000000};
    double clean = 1, worst = 1;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        double c = utilization_with_late_acks(&link, 0, seed), j = utilization_with_late_acks(&link, 1500, seed);
        if (c < clean) clean = c;
        if (j < worst) worst = j;
    }
    fprintf(stderr, "vivace startup 100 Mbit/s 30 ms: utilization in [1 s, 2 s] %.3f clean, %.3f with acks up to 1.5 ms late (worst of 3 seeds)\n",
            clean, worst);
    CHECK(clean > 0.9);
    CHECK(worst > 0.9);
}

/* Slow start into a deep buffer (20 Mbit/s, 50 ms, 1 MB: nothing is lost, so only latency can end it). */
typedef struct startup_result {
    double max_queue_ms;        /* the largest queue any packet met in the first 3 s */
    double late_queue_ms;       /* mean queue met by packets sent in [1.5 s, 3 s] */
    double utilization;         /* delivered over [1 s, 3 s] / capacity */
} startup_result;

static startup_result slow_start_into_deep_buffer(double delivery_gain, double drain) {
    cc_controller *cc = cc_create("vivace", 11, 0);
    CHECK(cc_param_set(cc, "slow_start_delivery_gain", delivery_gain) == CC_OK);
    CHECK(cc_param_set(cc, "slow_start_drain", drain) == CC_OK);
    bottleneck_link *link = link_create(cc, 20e6, 50000, 1e6);
    startup_result r = {0, 0, 0};
    link_run(link, 1000000);
    double max_queue_us = link->max_queue_delay_us; /* the first second, where slow start overshoots */
    link_reset_stats(link);
    link_run(link, 1500000);
    uint64_t delivered = link->delivered_bytes;
    if (link->max_queue_delay_us > max_queue_us) max_queue_us = link->max_queue_delay_us;
    link_reset_stats(link);
    link_run(link, 3000000);
    r.late_queue_ms = link_mean_queue_delay_us(link) / 1000.0;
    if (link->max_queue_delay_us > max_queue_us) max_queue_us = link->max_queue_delay_us;
    r.max_queue_ms = max_queue_us / 1000.0;
    delivered += link->delivered_bytes;
    r.utilization = (double)delivered / (20e6 / 8 * 2.0);
    free(link);
    cc_destroy(cc);
    return r;
}

static void test_slow_start_overshoot(void) {
    startup_result doubling = slow_start_into_deep_buffer(0, 0);
    startup_result capped = slow_start_into_deep_buffer(2, 0);
    startup_result drained = slow_start_into_deep_buffer(2, 1);
    fprintf(stderr, "vivace slow start, 20 Mbit/s 50 ms 1 MB: max queue %.0f / %.0f / %.0f ms, queue after 1.5 s %.1f / %.1f / "
            "%.1f ms, utilization %.3f / %.3f / %.3f (doubling only / delivery cap / cap + drain)\n",
            doubling.max_queue_ms, capped.max_queue_ms, drained.max_queue_ms, doubling.late_queue_ms,
            capped.late_queue_ms, drained.late_queue_ms, doubling.utilization, capped.utilization, drained.utilization);
    /* Doubling without waiting for feedback runs to several BDPs before the first utility drop is known. */
    CHECK(doubling.max_queue_ms > 200);
    /* Capped at twice the delivery rate, the overshoot stays within about two BDPs (2 x 50 ms). */
    CHECK(capped.max_queue_ms < 120 && drained.max_queue_ms < 120);
    /* The queue left behind: without the drain it stands (the utility sees RTT gradients, not levels). */
    CHECK(drained.late_queue_ms < 5);
    CHECK(capped.late_queue_ms > 2 * drained.late_queue_ms);
    CHECK(drained.utilization > 0.85);
}

/* 8 Mbit/s, 40 ms, 300 KB, 10 s to settle; then either the return path is down for 2 s (acks held, data flows; 2: held
 * by the receiver, which reports the hold as ack delay) or
 * the capacity falls to 1 Mbit/s for 3 s behind a 2 MB buffer (a forward queue: acks late for the same reason the
 * MI timeout assumes). Returns Mbit/s delivered in the 2 s after the event. */
static double goodput_after_silence(int ack_path_outage) {
    cc_controller *cc = cc_create("vivace", 5, 0);
    bottleneck_link *link = link_create(cc, 8e6, 40000, ack_path_outage ? 300e3 : 2e6);
    link_run(link, 10000000);
    int64_t event_end_us;
    if (ack_path_outage) {
        link->ack_outage_reported = ack_path_outage == 2;
        link->ack_outage_from_us = 10000000;
        link->ack_outage_until_us = event_end_us = 12000000;
        link_run(link, event_end_us + 1000); /* the held acks, all at once: not part of what follows */
    } else {
        link->rate_bytes_per_s = 1e6 / 8;
        event_end_us = 13000000;
        link_run(link, event_end_us);
        link->rate_bytes_per_s = 8e6 / 8;
        event_end_us += 1000;
        link_run(link, event_end_us);
    }
    link_reset_stats(link);
    link_run(link, event_end_us + 2000000);
    double mbps = (double)link->delivered_bytes * 8 / 2.0 / 1e6;
    free(link);
    cc_destroy(cc);
    return mbps;
}

static void test_spurious_timeout_undo(void) {
    double outage = goodput_after_silence(1), queue = goodput_after_silence(0);
    /* The receiver held its acks for the 2 s and reported the hold as ack delay (issue 17: the Node client's event
     * loop stalled 125 ms): the RTT samples are the path's, but the acks were just as late. */
    double receiver_stall = goodput_after_silence(2);
    fprintf(stderr, "vivace after a 2 s ack-path outage on 8 Mbit/s: %.2f Mbit/s; after a receiver stall: %.2f; after a forward queue: %.2f\n",
            outage, receiver_stall, queue);
    CHECK(receiver_stall > 6.0);
    /* The acks come back with the forward one-way delay unchanged: the halvings are undone (kept, the rate would
     * be a quarter of the link's or less: 2.13 Mbit/s when this was measured with the undo off). */
    CHECK(outage > 6.0);
    /* Late because of a forward queue: the undo never fires and the halvings stand. */
    CHECK(queue < 3.0);
}

/* Both directions fade at once (ATT-LTE-driving-2016: its uplink trace is silent from 20.8 to 24.9 s while the
 * downlink falls to 0.3-0.7 Mbit/s): 8 Mbit/s, 40 ms, 300 KB for 10 s, then the capacity falls to 0.5 Mbit/s and the
 * return path is down for 3 s. The held acks of packets sent before the fade met no forward queue, yet the halvings
 * were right: everything sent since waits behind a full buffer. Returns the rate 1 s after the outage, bytes/s. */
static double rate_after_fade_and_ack_outage(void) {
    cc_controller *cc = cc_create("vivace", 5, 0);
    bottleneck_link *link = link_create(cc, 8e6, 40000, 300e3);
    link_run(link, 10000000);
    link->rate_bytes_per_s = 0.5e6 / 8;
    link->ack_outage_from_us = 10000000;
    link->ack_outage_until_us = 13000000;
    link_run(link, 14000000);
    double rate = cc_pacing_rate_bytes_per_s(cc);
    free(link);
    cc_destroy(cc);
    return rate;
}

static void test_no_undo_behind_a_forward_queue(void) {
    double rate_bps = rate_after_fade_and_ack_outage() * 8;
    fprintf(stderr, "vivace 1 s after a fade to 0.5 Mbit/s with a 3 s ack-path outage: %.2f Mbit/s\n", rate_bps / 1e6);
    /* Undone (by the acks of packets sent before the fade), the rate went back to the 8 Mbit/s before the first
     * halving, 16x the capacity, into the full buffer. */
    CHECK(rate_bps < 2e6);
}

/* A video session that starts as the return path goes silent (ATT-LTE-driving-2016's uplink trace carries nothing
 * from 3.0 to 5.2 s; bench/published/2026-11-25/lte-att-2): 8 Mbit/s, 40 ms, 300 KB; a player that asks for one
 * segment at a time once the previous one is acknowledged (first_kb, then 75 KB ones), its requests crossing the
 * return path, which is down from 0.1 s to outage_until_us (0: never). */
typedef struct {
    double delivered_mbps;   /* over 6-10 s */
    double lowest_bps;       /* the lowest pacing rate seen */
    double resumed_bps;      /* the pacing rate when slow start came back after the silence; 0: it did not */
    int64_t link_reached_us; /* when the pacing rate first reached 0.9 x the link after the silence; -1: never */
} early_silence_run;

/* A QUIC PTO probe (RFC 9002 §6.2.4): a packet the transport sends with no new data from the application, so no
 * app-limited mark follows it. */
static void send_pto_probe(bottleneck_link *link, int64_t now_us) {
    int64_t period_us = link->app_segment_period_us;
    link->app_segment_period_us = 0; /* link_send_one marks app-limited only for the application's segments */
    link->now_us = now_us;
    link_send_one(link);
    link->app_segment_period_us = period_us;
}

/* probes_us: times of PTO probes, 0-terminated (NULL: none); off: a parameter set to 0 (NULL: defaults). */
static early_silence_run video_after_silence_from(const char *algorithm, const char *off, int64_t outage_from_us,
                                                  int64_t outage_until_us, double first_kb, const int64_t *probes_us) {
    const double link_bps = 8e6;
    cc_controller *cc = cc_create(algorithm, 5, 0);
    if (off != NULL) CHECK(cc_param_set(cc, off, 0) == CC_OK);
    bottleneck_link *link = link_create(cc, link_bps, 40000, 300e3);
    const int64_t request_up_us = 20000;
    if (outage_until_us > 0) {
        link->ack_outage_from_us = outage_from_us;
        link->ack_outage_until_us = outage_until_us;
    }
    link->app_segment_period_us = link->app_next_segment_us = INT64_MAX; /* segments come from the requests below */
    link->app_backlog_bytes = first_kb * 1000;
    early_silence_run run = {0.0, cc_pacing_rate_bytes_per_s(cc) * 8, 0.0, -1};
    int left_slow_start = 0;
    int64_t request_arrives_us = -1;
    for (int64_t t_us = 10000; t_us <= 10000000; t_us += 10000) {
        link_run(link, t_us);
        if (probes_us != NULL && *probes_us > 0 && t_us >= *probes_us) send_pto_probe(link, t_us), probes_us++;
        if (t_us == 6000000) link_reset_stats(link);
        double rate_bps = cc_pacing_rate_bytes_per_s(cc) * 8;
        if (rate_bps < run.lowest_bps) run.lowest_bps = rate_bps;
        int in_slow_start = strcmp(state_of(cc), "slow_start") == 0;
        if (!in_slow_start) left_slow_start = 1;
        if (left_slow_start && in_slow_start && run.resumed_bps == 0.0 && t_us >= outage_until_us) run.resumed_bps = rate_bps;
        if (run.link_reached_us < 0 && t_us >= outage_until_us && rate_bps >= 0.9 * link_bps) run.link_reached_us = t_us;
        if (link->app_backlog_bytes <= 0 && request_arrives_us < 0 && cc_bytes_in_flight(cc) == 0) {
            int64_t at_us = t_us + request_up_us;
            if (at_us >= outage_from_us && at_us < outage_until_us) at_us = outage_until_us;
            request_arrives_us = at_us;
        }
        if (request_arrives_us >= 0 && t_us >= request_arrives_us) {
            link->app_backlog_bytes = 75e3;
            request_arrives_us = -1;
        }
    }
    run.delivered_mbps = (double)link->delivered_bytes * 8 / 4.0 / 1e6;
    free(link);
    cc_destroy(cc);
    return run;
}

static early_silence_run video_after_early_silence(const char *algorithm, int64_t outage_until_us, double first_kb) {
    return video_after_silence_from(algorithm, NULL, 100000, outage_until_us, first_kb, NULL);
}

static void test_first_slow_start_resumes_after_return_silence(void) {
    double clear = video_after_early_silence("vivace", 0, 200).delivered_mbps;
    /* 200 KB: the sender still had data after the first halving, and those packets' acks undo the halvings */
    double undone = video_after_early_silence("vivace", 2300000, 200).delivered_mbps;
    /* 20 KB: it had none (the next request waited for the uplink), so only acks of packets sent before the
     * halving show the return path's delay; the first MI after the silence completes the episode */
    double recovered = video_after_early_silence("vivace", 2300000, 20).delivered_mbps;
    fprintf(stderr, "vivace video, 8 Mbit/s, return path silent 0.1-2.3 s: delivered over 6-10 s %.2f Mbit/s (200 KB first "
            "segment), %.2f (20 KB); %.2f with no silence\n", undone, recovered, clear);
    /* Before the halvings resumed the first slow start, they ended it: probing's rounds, re-run at every segment's
     * end, delivered 2.65 and 0.54 Mbit/s here (the 20 KB case held 0.5 Mbit/s for 9 s after the silence). */
    CHECK(undone > 0.9 * clear);
    CHECK(recovered > 0.9 * clear);
}

/* The 20 KB case, silences of 2.2-3.2 s (ATT-LTE-driving-2016's is 2.2 s): the MI timeouts in the silence halved the
 * initial rate, and only acks of packets sent before the halving come back late. Vivace's timeout path, so its
 * variants too. */
static void test_first_slow_start_resumes_from_before_the_halvings(void) {
    const double initial_bps = 1e6;
    const char *const algorithms[] = {"vivace", "vivace-video", "vivace-loss"};
    for (size_t i = 0; i < sizeof algorithms / sizeof algorithms[0]; i++) {
        for (int64_t until_us = 2300000; until_us <= 3300000; until_us += 500000) {
            early_silence_run run = video_after_early_silence(algorithms[i], until_us, 20);
            fprintf(stderr, "%s, a player, return path silent 0.1-%.1f s at the initial rate: lowest %.2f Mbit/s, slow start "
                    "resumed at %.2f, 0.9 x the link %.2f s after the silence\n", algorithms[i], until_us / 1e6,
                    run.lowest_bps / 1e6, run.resumed_bps / 1e6, (run.link_reached_us - until_us) / 1e6);
            CHECK(run.lowest_bps < 0.6 * initial_bps); /* halved (probing's rate is the halved one +- epsilon) */
            /* Resumed from the halved rate (0.50 Mbit/s), vivace reached the link 2.2-2.95 s after the silence; from
             * the rate before the halvings but in an MI the silence's RTT samples stretched, 2.1-2.8 s. */
            CHECK(run.resumed_bps >= initial_bps);
            CHECK(run.link_reached_us >= 0 && run.link_reached_us - until_us < 1200000);
        }
    }
}

/* ATT-LTE-driving-2016's start (bench/published/2026-11-25/lte-driving-baseline/why-att-startup.md): the session opens
 * as the uplink goes silent for 2.2 s, so the first MI sees no RTT sample and stays open (pcc_loop.c) through the
 * silence. The origin sent the session's first 3 KB, said it ran out of data, and then only QUIC's PTO probes went out
 * (0.5, 1.1 and 2.25 s: RFC 9002's backoff), with no app-limited mark before them; the player's requests were stuck
 * upstream. The MI closed at 0.05 Mbit/s (the real runs: 0.036-0.041): a measure of the silence, not of the sender. */
static void test_silence_before_first_rtt_sample(void) {
    const double initial_bps = 1e6;
    const int64_t silence_until_us = 2300000, probes_us[] = {500000, 1100000, 2250000, 0};
    const char *const algorithms[] = {"vivace", "vivace-video", "vivace-loss"};
    for (size_t i = 0; i < sizeof algorithms / sizeof algorithms[0]; i++) {
        early_silence_run run = video_after_silence_from(algorithms[i], NULL, 0, silence_until_us, 3, probes_us);
        early_silence_run off = video_after_silence_from(algorithms[i], "first_rtt_silence", 0, silence_until_us, 3, probes_us);
        /* The early-session case (the page opens the session before dash.js, 171b184): the first 1.2 KB acknowledged (an
         * RTT sample), then the return path silent 0.06-2.3 s while the first MI, short of its 10 packets (pcc_loop.c),
         * stays open with only PTO probes sent and closes at a few tens of kbit/s. The send-rate ceiling's floor at the
         * initial rate (pcc_rate_limits.c; RFC 5681 §4.1, RFC 7661) keeps the rate there; without it, 2.5 x that MI's
         * send rate: 0.13 Mbit/s, 0.9 x the link 1.70 s after the silence. */
        early_silence_run after_sample = video_after_silence_from(algorithms[i], NULL, 60000, silence_until_us, 1.2, probes_us);
        fprintf(stderr, "%s, silence 0.06-2.3 s after the first RTT sample: lowest %.2f Mbit/s, 0.9 x the link %.2f s after\n",
                algorithms[i], after_sample.lowest_bps / 1e6, (after_sample.link_reached_us - silence_until_us) / 1e6);
        CHECK(after_sample.lowest_bps >= initial_bps);
        CHECK(after_sample.link_reached_us >= 0 && after_sample.link_reached_us - silence_until_us < 1200000);
        fprintf(stderr, "%s, session opened into a 2.3-s return-path silence: lowest %.2f Mbit/s, 0.9 x the link %.2f s "
                "after the silence (first_rtt_silence=0: %.2f, %.2f s)\n", algorithms[i], run.lowest_bps / 1e6,
                (run.link_reached_us - silence_until_us) / 1e6, off.lowest_bps / 1e6, (off.link_reached_us - silence_until_us) / 1e6);
        /* Counted, that MI's send rate would set the ceiling at 2.5 x it (monitor_interval.c leaves such an MI out);
         * the ceiling's floor at the initial rate (pcc_rate_limits.c) keeps the rate there either way. */
        CHECK(run.lowest_bps >= initial_bps);
        /* Left at the silence's sRTT (1.8 s), the next MI held 1 Mbit/s for 1.9 s with no decision (vivace_timeout.c
         * ends it once a packet sent after the silence is acked). */
        CHECK(run.link_reached_us >= 0 && run.link_reached_us - silence_until_us < 800000);
        /* The switch (the bench's A/B): the ceiling's floor holds the initial rate (before the floor, 0.13 Mbit/s
         * here), but the next MI, left at the silence's sRTT, holds it with no decision: 0.9 x the link 2.18 s after. */
        CHECK(off.lowest_bps >= initial_bps);
        CHECK(off.link_reached_us < 0 || off.link_reached_us - silence_until_us > 1500000);
    }
}

/* 16 Mbit/s, 300 KB, RTT 14 ms for 10 s, then the path gets longer (the thesis's changing-RTT links, §5.2: seed 11
 * of its setting in the simulator steps from 14 to 92 ms); or, for contrast, the capacity falls to rate_after_bps
 * behind a 2 MB buffer (a forward queue: late acks too). Returns Mbit/s delivered in the 2 s after, and the rate then. */
static double goodput_after_rtt_step(int64_t rtt_after_us, double rate_after_bps, double *rate_at_end_bps) {
    cc_controller *cc = cc_create("vivace", 5, 0);
    bottleneck_link *link = link_create(cc, 16e6, 14000, rate_after_bps < 16e6 ? 2e6 : 300e3);
    link_run(link, 10000000);
    link->rtt_us = rtt_after_us;
    link->rate_bytes_per_s = rate_after_bps / 8.0;
    link_reset_stats(link);
    link_run(link, 12000000);
    double mbps = (double)link->delivered_bytes * 8 / 2.0 / 1e6;
    *rate_at_end_bps = cc_pacing_rate_bytes_per_s(cc) * 8;
    free(link);
    cc_destroy(cc);
    return mbps;
}

static void test_path_step_undo(void) {
    double rate_bps;
    double step = goodput_after_rtt_step(92000, 16e6, &rate_bps), same = goodput_after_rtt_step(14000, 16e6, &rate_bps);
    goodput_after_rtt_step(14000, 2e6, &rate_bps);
    fprintf(stderr, "vivace in the 2 s after the RTT steps from 14 to 92 ms on 16 Mbit/s: %.2f Mbit/s (no step: %.2f); "
            "rate 2 s after the capacity falls to 2 Mbit/s instead: %.2f Mbit/s\n", step, same, rate_bps / 1e6);
    /* The step times MIs out (5 min RTTs = 70 ms < 78 ms of extra delay); the acks show a longer path, not a queue,
     * and the halving is undone. Kept, the rate fell to half and climbed back by the gradient: 7.84 Mbit/s when
     * measured without the undo. The acks of the first 78 ms after the step come after the window: ~0.7 Mbit/s. */
    CHECK(step > 0.9 * same - 0.7);
    /* A queue: the halvings stand (the delay drains after them, the packets before them arrived slower than sent). */
    CHECK(rate_bps < 4e6);
}

static void test_long_rtt_slow_start(void) {
    /* 800 ms RTT (satellite, §4.5): the first MI waits for the first RTT sample, then slow start
     * doubles about once per RTT, like TCP's, rather than once per 10-packet MI on a guess. */
    cc_controller *cc = cc_create("vivace", 4, 0);
    driver d;
    driver_init(&d, cc, 800000);
    driver_run(&d, 790000);
    CHECK_NEAR(cc_pacing_rate_bytes_per_s(cc) * 8, 1e6, 1);
    driver_run(&d, 2500000);
    CHECK(cc_pacing_rate_bytes_per_s(cc) * 8 <= 8e6 + 1);
    CHECK(strcmp(state_of(cc), "slow_start") == 0);
    driver_release(&d);
    cc_destroy(cc);
}

/* Utility = rate in Mbit/s: more is always better. */
static double rate_utility(const cc_mi_stats *mi, void *user) {
    (void)user;
    return mi->target_rate_bps * 1e-6;
}

/* The same, except that MIs cut short (sending for under 25 ms of their 30 ms) score badly: the noisy tail of
 * a burst, as a receiver's delayed ACKs make it in practice. */
static double cut_short_mi_utility(const cc_mi_stats *mi, void *user) {
    (void)user;
    return mi->duration_us < 25000 ? -100.0 : mi->target_rate_bps * 1e-6;
}

/* Runs video-like on/off traffic (data for 60 ms, none for 300 ms, the driver signalling app-limited when
 * it runs out) and returns the rate at which slow start ended, or minus the rate if it had not after 8 s. */
static double slow_start_exit_rate_with_idle_gaps(cc_utility_fn utility) {
    cc_controller *cc = cc_create("vivace", 7, 0);
    CHECK(cc_set_utility(cc, utility, NULL) == CC_OK);
    CHECK(cc_param_set(cc, "max_rate_bps", 200e6) == CC_OK);
    driver d;
    driver_init(&d, cc, RTT_US);
    d.app_on_us = 60000;
    d.app_off_us = 300000;
    double exit_rate_bps = 0;
    for (int64_t t = 10000; t <= 8000000 && exit_rate_bps == 0; t += 1000) {
        double before = cc_pacing_rate_bytes_per_s(cc) * 8;
        driver_run(&d, t);
        if (strcmp(state_of(cc), "slow_start") != 0) exit_rate_bps = before;
    }
    if (exit_rate_bps == 0) exit_rate_bps = -cc_pacing_rate_bytes_per_s(cc) * 8;
    driver_release(&d);
    cc_destroy(cc);
    return exit_rate_bps;
}

static void test_idle_gaps_inside_mis(void) {
    /* An MI needs 10 packets, so at low rates it spans several bursts. Its duration leaves the pauses out:
     * otherwise it measures the application's rate, the send-rate ceiling (2.5x that) pulls the rate down
     * and slow start ends below 1 Mbit/s. Here it doubles to the maximum. */
    CHECK(slow_start_exit_rate_with_idle_gaps(rate_utility) >= 100e6);
    /* An MI cut short when the data ran out decides nothing (app-limited MIs are set aside), so its bad utility
     * does not end slow start (when it did, slow start ended at 8 Mbit/s here). */
    CHECK(slow_start_exit_rate_with_idle_gaps(cut_short_mi_utility) >= 100e6);
}

/* Records how long each finished MI lasted (utility = rate, so the rate climbs to max_rate_bps and stays). */
typedef struct duration_log {
    double duration_us[RECORD_MAX];
    size_t count;
} duration_log;

static double duration_logging_utility(const cc_mi_stats *mi, void *user) {
    duration_log *log = user;
    if (log->count < RECORD_MAX) log->duration_us[log->count++] = mi->duration_us;
    return mi->target_rate_bps * 1e-6;
}

/* Mean length of the MIs that finished in the last second of a run whose RTT rises from 30 ms to 90 ms after 1 s
 * (a standing queue of 60 ms: the sRTT follows, the min RTT stays 30 ms). */
static double mi_length_under_standing_queue_us(void) {
    cc_controller *cc = cc_create("vivace", 11, 0);
    duration_log log;
    memset(&log, 0, sizeof log);
    CHECK(cc_set_utility(cc, duration_logging_utility, &log) == CC_OK);
    CHECK(cc_param_set(cc, "max_rate_bps", 20e6) == CC_OK);
    driver d;
    driver_init(&d, cc, RTT_US);
    driver_run(&d, 1000000);
    d.rtt_us = 3 * RTT_US;
    driver_run(&d, 3000000);
    size_t before = log.count;
    driver_run(&d, 4000000);
    double sum = 0;
    for (size_t i = before; i < log.count; i++) sum += log.duration_us[i];
    CHECK(log.count > before);
    driver_release(&d);
    cc_destroy(cc);
    return log.count > before ? sum / (double)(log.count - before) : 0;
}

static void test_mi_length_follows_srtt(void) {
    /* The thesis and the published code: an MI lasts one sRTT, so the sender's own queue stretches it. */
    double by_srtt_us = mi_length_under_standing_queue_us();
    CHECK(by_srtt_us > 80000 && by_srtt_us < 100000);
    fprintf(stderr, "MI length under a 60 ms standing queue on a 30 ms path: %.1f ms\n", by_srtt_us / 1e3);
}

/* A Vivace variant is one small file (vivace_state.h): a parameter table, a utility, VIVACE_HOOKS, an init and
 * VIVACE_OPS. A clone with Vivace's own utility must decide exactly as vivace; one whose utility ignores loss
 * must climb under 15% random loss, where vivace falls. */
static const cc_param_desc variant_params[VIVACE_P_COUNT] = {VIVACE_PARAM_ROWS(900, 0, 0, 0, 0)};
static const pcc_hooks clone_hooks = VIVACE_HOOKS(vivace_mi_utility);
static void clone_init(void *state, cc_context *ctx, int64_t now_us) {
    (void)now_us;
    vivace_init_with_hooks(state, ctx, &clone_hooks);
}
static const cc_ops clone_ops = VIVACE_OPS("vivace-clone", "test: Vivace's hooks", variant_params, VIVACE_P_COUNT, clone_init);

static double throughput_only_utility(void *state, const pcc_mi_result *r, double *noise_var) {
    (void)state;
    (void)noise_var;
    return r->stats.throughput_bps * 1e-6;
}
static const pcc_hooks greedy_hooks = VIVACE_HOOKS(throughput_only_utility);
static void greedy_init(void *state, cc_context *ctx, int64_t now_us) {
    (void)now_us;
    vivace_init_with_hooks(state, ctx, &greedy_hooks);
}
static const cc_ops greedy_ops = VIVACE_OPS("vivace-greedy", "test: utility = throughput", variant_params, VIVACE_P_COUNT, greedy_init);

static cc_controller *lossy_run(cc_controller *cc, double loss, int64_t duration_us, double *rates_bps, size_t count) {
    CHECK(cc_param_set(cc, "max_rate_bps", 200e6) == CC_OK);
    driver d;
    driver_init(&d, cc, RTT_US);
    d.lose = lose_fraction;
    d.lose_user = &loss;
    for (size_t i = 0; i < count; i++) {
        driver_run(&d, (int64_t)(i + 1) * duration_us / (int64_t)count);
        rates_bps[i] = cc_pacing_rate_bytes_per_s(cc) * 8;
    }
    driver_release(&d);
    return cc;
}

static void test_variant_in_one_file(void) {
    double vivace_bps[100], clone_bps[100];
    cc_destroy(lossy_run(cc_create("vivace", 8, 0), 0.03, 10000000, vivace_bps, 100));
    cc_controller *clone = lossy_run(cc_create_with_ops(&clone_ops, 8, 0), 0.03, 10000000, clone_bps, 100);
    cc_telemetry t;
    cc_get_telemetry(clone, &t);
    CHECK(strcmp(t.algorithm, "vivace-clone") == 0 && t.mi_completed > 100);
    cc_destroy(clone);
    int same = 1;
    for (size_t i = 0; i < 100; i++) same &= vivace_bps[i] == clone_bps[i];
    CHECK(same);
    double greedy_bps[10];
    cc_destroy(lossy_run(cc_create_with_ops(&greedy_ops, 8, 0), 0.15, 20000000, greedy_bps, 10));
    CHECK(greedy_bps[9] > 100e6);
    CHECK(rate_under_random_loss("vivace", 0.15, 20000000) < 5e6);
}

int main(void) {
    test_variant_in_one_file();
    test_spurious_timeout_undo();
    test_path_step_undo();
    test_no_undo_behind_a_forward_queue();
    test_first_slow_start_resumes_after_return_silence();
    test_silence_before_first_rtt_sample();
    test_first_slow_start_resumes_from_before_the_halvings();
    test_slow_start_overshoot();
    test_long_rtt_slow_start();
    test_startup_with_rtt_jitter();
    test_random_loss_tolerance();
    test_slow_start_total_loss();
    test_ack_timing_noise();
    test_utility_values();
    test_slow_start_and_gradient_ascent();
    test_no_move_without_gradient();
    test_double_check();
    test_adaptive_epsilon();
    test_epsilon_min_on_reversal();
    test_moving_state();
    test_mi_timeout_halves();
    test_nan_custom_utility();
    test_idle_gaps_inside_mis();
    test_mi_length_follows_srtt();
    return check_summary("test_vivace");
}
