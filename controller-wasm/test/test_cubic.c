/* CUBIC through the public API: RFC 9438 window arithmetic against hand-computed values, every
 * state transition, HyStart++, pacing, robustness; and on the bottleneck fixture, a deep buffer. */
#include <math.h>
#include <string.h>

#include "bottleneck_link.h"
#include "check.h"
#include "pcc/cc.h"

#define MSS 1200.0

/* An ack-clocked sender with a fixed RTT and no bottleneck: every packet is acknowledged exactly
 * rtt_us after it was sent, and the window is refilled after each event. */
typedef struct window_driver {
    cc_controller *cc;
    int64_t now_us;
    int64_t rtt_us;
    uint64_t next_pn;
    uint64_t fifo_pn[65536];
    int64_t fifo_sent_us[65536];
    size_t head, count;
} window_driver;

static void driver_fill(window_driver *d)
{
    while ((double)cc_bytes_in_flight(d->cc) + MSS <= cc_cwnd_bytes(d->cc) && d->count < 65536) {
        cc_on_packet_sent(d->cc, d->next_pn, (uint32_t)MSS, d->now_us);
        size_t slot = (d->head + d->count) % 65536;
        d->fifo_pn[slot] = d->next_pn++;
        d->fifo_sent_us[slot] = d->now_us;
        d->count++;
    }
}

/* Acknowledges the oldest outstanding packet. */
static void driver_ack_one(window_driver *d)
{
    if (d->count == 0) driver_fill(d);
    uint64_t pn = d->fifo_pn[d->head];
    int64_t due = d->fifo_sent_us[d->head] + d->rtt_us;
    d->head = (d->head + 1) % 65536;
    d->count--;
    if (due > d->now_us) d->now_us = due;
    cc_on_ack(d->cc, pn, d->rtt_us, 0, d->now_us);
    driver_fill(d);
}

/* Declares the oldest outstanding packet lost (now, without advancing time). */
static void driver_lose_oldest(window_driver *d)
{
    uint64_t pn = d->fifo_pn[d->head];
    d->head = (d->head + 1) % 65536;
    d->count--;
    cc_on_loss(d->cc, pn, d->now_us);
    driver_fill(d);
}

static window_driver *driver_create(cc_controller *cc, int64_t rtt_us)
{
    window_driver *d = calloc(1, sizeof *d);
    d->cc = cc;
    d->rtt_us = rtt_us;
    d->now_us = 1000000;
    driver_fill(d);
    return d;
}

static const char *state_of(cc_controller *cc)
{
    cc_telemetry t;
    cc_get_telemetry(cc, &t);
    return t.state;
}

static double cwnd_packets(cc_controller *cc) { return cc_cwnd_bytes(cc) / MSS; }

/* Grows the window in slow start one packet per ack to exactly `packets`, then loses one packet
 * and runs until congestion avoidance begins; returns the time the epoch started. */
static int64_t reach_window_then_lose(window_driver *d, double packets)
{
    while (cwnd_packets(d->cc) < packets) driver_ack_one(d);
    driver_lose_oldest(d);
    while (strcmp(state_of(d->cc), "recovery") == 0) driver_ack_one(d);
    return d->now_us;
}

static void run_until(window_driver *d, int64_t until_us)
{
    while (d->now_us < until_us) driver_ack_one(d);
}

static double w_cubic_packets(double t_s, double k_s, double w_max) { return 0.4 * pow(t_s - k_s, 3) + w_max; }

static cc_controller *make_cubic(int hystart, int reno_friendly, int fast_convergence)
{
    cc_controller *cc = cc_create("cubic", 7, 1000000);
    CHECK(cc != NULL);
    CHECK(cc_param_set(cc, "cubic_hystart", hystart) == CC_OK);
    CHECK(cc_param_set(cc, "cubic_reno_friendly", reno_friendly) == CC_OK);
    CHECK(cc_param_set(cc, "cubic_fast_convergence", fast_convergence) == CC_OK);
    return cc;
}

static void test_initial_state_and_slow_start(void)
{
    cc_controller *cc = cc_create("cubic", 1, 0);
    CHECK(strcmp(state_of(cc), "slow_start") == 0);
    CHECK_NEAR(cc_cwnd_bytes(cc), 10 * MSS, 1e-9);
    /* No RTT yet: the framework's initial rate (1 Mbit/s by default). */
    CHECK_NEAR(cc_pacing_rate_bytes_per_s(cc), 1e6 / 8.0, 1e-6);
    for (uint64_t pn = 0; pn < 10; pn++) cc_on_packet_sent(cc, pn, (uint32_t)MSS, 0);
    for (uint64_t pn = 0; pn < 10; pn++) cc_on_ack(cc, pn, 100000, 0, 100000);
    /* Slow start: one MSS per MSS acknowledged. */
    CHECK_NEAR(cc_cwnd_bytes(cc), 20 * MSS, 1e-9);
    /* Pacing = 2 x cwnd / srtt in slow start (srtt = 100 ms exactly here). */
    CHECK_NEAR(cc_pacing_rate_bytes_per_s(cc), 2.0 * 20 * MSS / 0.1, 1e-6);
    cc_destroy(cc);
}

static void test_application_limited_does_not_grow(void)
{
    cc_controller *cc = cc_create("cubic", 1, 0);
    int64_t now = 0;
    for (uint64_t pn = 0; pn < 50; pn++) {
        cc_on_packet_sent(cc, pn, (uint32_t)MSS, now);
        now += 100000;
        cc_on_ack(cc, pn, 100000, 0, now);
    }
    /* One packet in flight never fills half of a 10-packet window (RFC 9438 §5.8). */
    CHECK_NEAR(cc_cwnd_bytes(cc), 10 * MSS, 1e-9);
    cc_destroy(cc);
}

static void test_loss_reduction_and_recovery(void)
{
    cc_controller *cc = make_cubic(0, 1, 1);
    window_driver *d = driver_create(cc, 100000);
    while (cwnd_packets(cc) < 100) driver_ack_one(d);
    CHECK_NEAR(cwnd_packets(cc), 100, 1e-9);
    driver_lose_oldest(d);
    CHECK(strcmp(state_of(cc), "recovery") == 0);
    CHECK_NEAR(cwnd_packets(cc), 70, 1e-9);   /* beta = 0.7 (RFC 9438 §4.6) */
    /* More losses from the same flight are the same congestion event. */
    driver_lose_oldest(d);
    driver_lose_oldest(d);
    CHECK_NEAR(cwnd_packets(cc), 70, 1e-9);
    /* Acks of packets sent before the reduction do not grow the window. */
    for (int i = 0; i < 20; i++) driver_ack_one(d);
    CHECK(strcmp(state_of(cc), "recovery") == 0);
    CHECK_NEAR(cwnd_packets(cc), 70, 1e-9);
    /* Pacing gain 1.2 outside slow start. */
    cc_telemetry t;
    cc_get_telemetry(cc, &t);
    CHECK_NEAR(cc_pacing_rate_bytes_per_s(cc), 1.2 * cc_cwnd_bytes(cc) / (t.srtt_us / 1e6), 1e-6);
    while (strcmp(state_of(cc), "recovery") == 0) driver_ack_one(d);
    CHECK(strcmp(state_of(cc), "congestion_avoidance") == 0);
    /* A loss of a packet sent after recovery is a new event: another 0.7 cut. */
    for (int i = 0; i < 200; i++) driver_ack_one(d);
    double before = cc_cwnd_bytes(cc);
    d->head = (d->head + d->count - 1) % 65536;   /* lose the newest packet */
    uint64_t newest = d->fifo_pn[d->head];
    d->head = (d->head + 1) % 65536;
    d->count--;
    cc_on_loss(cc, newest, d->now_us);
    CHECK_NEAR(cc_cwnd_bytes(cc), 0.7 * before, 1e-6);
    CHECK(strcmp(state_of(cc), "recovery") == 0);
    free(d);
    cc_destroy(cc);
}

/* W_max = 100, cwnd_epoch = 70: K = cbrt(30 / 0.4) = 4.2172 s; W(1) = 86.68, W(2) = 95.64,
 * W(K) = 100, W(6) = 102.27 (RFC 9438 eq. 1-2, C = 0.4). With a 100 ms RTT the Reno estimate
 * (70 + 0.529 per RTT: 75.3 at 1 s) stays below, so the cubic curve rules. The window chases
 * W(t + RTT) one RTT at a time, so it sits near W(t). */
static void test_cubic_window_curve(void)
{
    cc_controller *cc = make_cubic(0, 1, 1);
    window_driver *d = driver_create(cc, 100000);
    int64_t epoch_us = reach_window_then_lose(d, 100);
    CHECK_NEAR(cwnd_packets(cc), 70, 1.0);
    double k_s = cbrt(30.0 / 0.4);
    CHECK_NEAR(k_s, 4.2172, 1e-4);
    const double times_s[] = {1.0, 2.0, k_s, 6.0};
    const double hand_w[] = {86.68, 95.64, 100.0, 102.27};
    for (int i = 0; i < 4; i++) {
        CHECK_NEAR(w_cubic_packets(times_s[i], k_s, 100.0), hand_w[i], 0.01);
        run_until(d, epoch_us + (int64_t)(times_s[i] * 1e6));
        CHECK_NEAR(cwnd_packets(cc), hand_w[i], 0.02 * hand_w[i]);
    }
    CHECK(strcmp(state_of(cc), "congestion_avoidance") == 0);
    free(d);
    cc_destroy(cc);
}

/* Fast convergence (RFC 9438 §4.7): a loss below the previous W_max lowers the new W_max to
 * cwnd (1 + beta) / 2. Second loss at cwnd ~ 86.68: W_max = 73.68, cwnd = 60.68,
 * K = cbrt(13.0 / 0.4) = 3.19 s, so the window plateaus near 73.7 around t = 3.19 s; without fast
 * convergence W_max = 86.68 and K = cbrt(26.0 / 0.4) = 4.02 s, W(3.19) = 86.45. */
static void test_fast_convergence(void)
{
    for (int fast = 0; fast <= 1; fast++) {
        cc_controller *cc = make_cubic(0, 0, fast);
        window_driver *d = driver_create(cc, 100000);
        int64_t epoch_us = reach_window_then_lose(d, 100);
        run_until(d, epoch_us + 1000000);
        double w_second = cwnd_packets(cc);
        CHECK_NEAR(w_second, 86.68, 0.02 * 86.68);
        int64_t second_epoch_us = reach_window_then_lose(d, 0);
        double w_max = fast ? w_second * 0.85 : w_second;
        double k_s = cbrt((w_max - 0.7 * w_second) / 0.4);
        double probe_s = cbrt((w_second * 0.85 - 0.7 * w_second) / 0.4);   /* fast-convergence K */
        run_until(d, second_epoch_us + (int64_t)(probe_s * 1e6));
        double expected = w_cubic_packets(probe_s, k_s, w_max);
        CHECK_NEAR(cwnd_packets(cc), expected, 0.02 * expected);
        free(d);
        cc_destroy(cc);
    }
}

/* Reno-friendly region (RFC 9438 §4.3): small W_max and a short RTT. W_max = 20, cwnd = 14,
 * K = cbrt(6 / 0.4) = 2.47 s, RTT 10 ms. W_est grows alpha = 3 (1 - 0.7) / 1.7 = 0.529 packets per
 * RTT until it reaches cwnd_prior = 20 (after 6 / 0.529 = 11.3 RTTs), then 1 per RTT: at 0.5 s,
 * W_est = 20 + (0.5 - 0.113) / 0.01 = 58.7, while W_cubic(0.5) = 16.96. */
static void test_reno_friendly_region(void)
{
    cc_controller *cc = make_cubic(0, 1, 1);
    window_driver *d = driver_create(cc, 10000);
    int64_t epoch_us = reach_window_then_lose(d, 20);
    CHECK_NEAR(cwnd_packets(cc), 14, 1.0);
    double alpha = 3.0 * (1.0 - 0.7) / (1.0 + 0.7);
    CHECK_NEAR(alpha, 0.5294, 1e-4);
    double rtts_to_prior = 6.0 / alpha;
    double expected = 20.0 + (0.5 - rtts_to_prior * 0.01) / 0.01;
    CHECK_NEAR(expected, 58.7, 0.1);
    run_until(d, epoch_us + 500000);
    CHECK_NEAR(cwnd_packets(cc), expected, 0.05 * expected);
    free(d);
    cc_destroy(cc);

    /* The same run without the Reno-friendly rule follows the cubic curve instead. */
    cc = make_cubic(0, 0, 1);
    d = driver_create(cc, 10000);
    epoch_us = reach_window_then_lose(d, 20);
    run_until(d, epoch_us + 500000);
    CHECK(cwnd_packets(cc) < 21.0);
    free(d);
    cc_destroy(cc);
}

/* RFC 9438 §4.4: the target is at most 1.5 cwnd, so the window grows at most 1.5x per RTT even
 * where the curve is steeper. C = 10, W_max = 20, cwnd = 14, RTT 1 s: K = cbrt(6 / 10) = 0.84 s;
 * one RTT after the epoch W(2) = 10 x 1.16^3 + 20 = 35.6 would be more than 1.5 x the window. */
static void test_target_capped_at_one_and_a_half(void)
{
    cc_controller *cc = make_cubic(0, 0, 1);
    CHECK(cc_param_set(cc, "cubic_c", 10.0) == CC_OK);
    window_driver *d = driver_create(cc, 1000000);
    int64_t epoch_us = reach_window_then_lose(d, 20);
    double worst_ratio = 0.0;
    double previous = cwnd_packets(cc);
    for (int rtt = 1; rtt <= 4; rtt++) {
        run_until(d, epoch_us + rtt * 1000000);
        double ratio = cwnd_packets(cc) / previous;
        if (ratio > worst_ratio) worst_ratio = ratio;
        previous = cwnd_packets(cc);
    }
    CHECK(worst_ratio <= 1.5 + 0.02);
    CHECK(worst_ratio > 1.3);   /* the cap is what binds */
    free(d);
    cc_destroy(cc);
}

/* HyStart++ (RFC 9406): an RTT rise of max(4 ms, minRTT / 8) in slow start enters conservative
 * slow start; a lower RTT returns to slow start; CSS_ROUNDS = 5 rounds end in congestion avoidance
 * without any loss. */
static void test_hystart(void)
{
    cc_controller *cc = make_cubic(1, 1, 1);
    window_driver *d = driver_create(cc, 50000);
    run_until(d, d->now_us + 4 * 50000);
    CHECK(strcmp(state_of(cc), "slow_start") == 0);
    d->rtt_us = 60000;   /* +10 ms > max(4 ms, 50 / 8 ms) */
    run_until(d, d->now_us + 2 * 60000);
    CHECK(strcmp(state_of(cc), "conservative_slow_start") == 0);
    /* Growth in CSS is a quarter of slow start's. */
    double before = cc_cwnd_bytes(cc);
    driver_ack_one(d);
    CHECK_NEAR(cc_cwnd_bytes(cc) - before, MSS / 4.0, 1e-6);
    d->rtt_us = 50000;   /* back below the CSS baseline: the rise was spurious */
    run_until(d, d->now_us + 2 * 60000);
    CHECK(strcmp(state_of(cc), "slow_start") == 0);
    d->rtt_us = 60000;
    run_until(d, d->now_us + 2 * 60000);
    CHECK(strcmp(state_of(cc), "conservative_slow_start") == 0);
    run_until(d, d->now_us + 7 * 60000);
    CHECK(strcmp(state_of(cc), "congestion_avoidance") == 0);
    cc_telemetry t;
    cc_get_telemetry(cc, &t);
    CHECK(t.packets_lost == 0);
    free(d);
    cc_destroy(cc);

    /* Disabled: the same RTT rise leaves slow start alone. */
    cc = make_cubic(0, 1, 1);
    d = driver_create(cc, 50000);
    run_until(d, d->now_us + 4 * 50000);
    d->rtt_us = 60000;
    run_until(d, d->now_us + 3 * 60000);
    CHECK(strcmp(state_of(cc), "slow_start") == 0);
    free(d);
    cc_destroy(cc);
}

/* CUBIC fills a deep buffer: 100 Mbit/s, 30 ms, 1 MB (2.7 BDP) droptail. */
static void test_fills_deep_buffer(void)
{
    cc_controller *cc = cc_create("cubic", 3, 0);
    bottleneck_link *link = link_create(cc, 100e6, 30000, 1e6);
    link_run(link, 5000000);
    link_reset_stats(link);
    link_run(link, 25000000);
    double throughput_bps = (double)link->delivered_bytes * 8.0 / 20.0;
    fprintf(stderr, "cubic deep buffer: %.1f Mbit/s, mean queue %.1f ms, max %.1f ms, drops %llu\n",
            throughput_bps / 1e6, link_mean_queue_delay_us(link) / 1e3, link->max_queue_delay_us / 1e3,
            (unsigned long long)link->dropped_packets);
    CHECK(throughput_bps > 90e6);
    CHECK(link->max_queue_delay_us > 0.5 * 80000.0);   /* the buffer holds 80 ms */
    CHECK(link_mean_queue_delay_us(link) > 20000.0);
    free(link);
    cc_destroy(cc);
}

/* Hostile input never yields NaN, infinity, or a window below the floor. */
static void test_hostile_input(void)
{
    cc_controller *cc = cc_create("cubic", 9, 0);
    CHECK(cc_param_set(cc, "cubic_c", NAN) == CC_ERR_INVALID);
    CHECK(cc_param_set(cc, "cubic_beta", 1.5) == CC_ERR_INVALID);
    CHECK(cc_param_set(cc, "cubic_c", 10.0) == CC_OK);
    CHECK(cc_param_set(cc, "cubic_beta", 0.1) == CC_OK);
    uint64_t x = 12345;
    int64_t now = 0;
    int bad = 0;
    for (int i = 0; i < 200000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t pn = (x >> 33) % 5000;
        int64_t jump = (int64_t)((x >> 20) % 3000) - 500;   /* sometimes backwards */
        now += jump;
        switch ((x >> 60) % 4) {
        case 0: cc_on_packet_sent(cc, pn, (uint32_t)((x >> 8) % 1500), now); break;
        case 1: cc_on_ack(cc, pn, (int64_t)((x >> 12) % 400000) - 100000, 0, now); break;
        case 2: cc_on_loss(cc, pn, now); break;
        default: cc_on_tick(cc, now); break;
        }
        if (i == 100000) CHECK(cc_param_set(cc, "mss_bytes", 100) == CC_OK);
        double rate = cc_pacing_rate_bytes_per_s(cc);
        double cwnd = cc_cwnd_bytes(cc);
        if (!isfinite(rate) || !isfinite(cwnd) || rate < 100e3 / 8 - 1e-9 || rate > 10e9 / 8 + 1e-3 || cwnd < 100)
            bad++;
    }
    CHECK(bad == 0);
    cc_destroy(cc);
}

int main(void)
{
    test_initial_state_and_slow_start();
    test_application_limited_does_not_grow();
    test_loss_reduction_and_recovery();
    test_cubic_window_curve();
    test_fast_convergence();
    test_reno_friendly_region();
    test_target_capped_at_one_and_a_half();
    test_hystart();
    test_fills_deep_buffer();
    test_hostile_input();
    return check_summary("test_cubic");
}
