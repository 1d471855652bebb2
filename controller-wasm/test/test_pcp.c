/* PCP through the public API: probe verdicts on synthetic delay trends (accept, reject,
 * probabilistic accept against a hand-computed least-squares fit), direct jump, exponential
 * increase, binary search, exponential backoff, history, rate compensation (gap and queue), tit for
 * tat, every state name; then behaviour on the bottleneck fixture and hostile input. */
#include <math.h>
#include <string.h>

#include "bottleneck_link.h"
#include "check.h"
#include "pcc/cc.h"

#define MSS 1200
#define RTT_US 30000
#define RECEIVER_OFFSET_US 7000000000LL   /* the receiver's clock is unrelated to ours */

typedef struct fixture {
    cc_controller *cc;
    int64_t now_us;
    uint64_t next_pn;
} fixture;

static cc_telemetry telemetry(const fixture *f)
{
    cc_telemetry t;
    cc_get_telemetry(f->cc, &t);
    return t;
}

/* Delay-based compensation off, and the noise-free accept rule (tolerance 0, no spread floor: a
 * flat train is a certain accept, any rise a certain reject): these tests look at the search alone. */
static fixture make_fixture(uint64_t seed)
{
    fixture f = {cc_create("pcp", seed, 0), 0, 0};
    CHECK(f.cc != NULL);
    CHECK(cc_param_set(f.cc, "pcp_delay_deadband_us", 1e6) == CC_OK);
    CHECK(cc_param_set(f.cc, "pcp_slope_tolerance", 0) == CC_OK);
    CHECK(cc_param_set(f.cc, "pcp_slope_noise_floor", 0) == CC_OK);
    return f;
}

/* Ticks in 1 ms steps until a probe is in progress; returns its start time (or -1). */
static int64_t wait_for_probe(fixture *f)
{
    for (int i = 0; i < 20000; i++) {
        cc_on_tick(f->cc, f->now_us);
        if (telemetry(f).mi_rate_bps > 0) return f->now_us;
        f->now_us += 1000;
    }
    return -1;
}

/* Sends the probe train (1 ms apart at most) and acknowledges it one RTT later; packet i's one-way delay is
 * the base plus extra_delay_us[i]; lost[i] drops it. Returns 1 if the probe was accepted. */
static int run_probe(fixture *f, const double *extra_delay_us, const int *lost)
{
    cc_telemetry before = telemetry(f);
    uint64_t first = f->next_pn;
    int64_t sent_us[5];
    /* 1 ms apart, or closer when the probe rate asks for it (a slower train would not count). */
    int64_t spacing_us = (int64_t)(MSS * 1e6 / cc_pacing_rate_bytes_per_s(f->cc));
    if (spacing_us > 1000) spacing_us = 1000;
    for (int i = 0; i < 5; i++) {
        sent_us[i] = f->now_us + i * spacing_us;
        cc_on_packet_sent(f->cc, f->next_pn++, MSS, sent_us[i]);
    }
    for (int i = 0; i < 5; i++) {
        int64_t extra = (int64_t)extra_delay_us[i];
        int64_t ack_us = sent_us[i] + RTT_US + extra;
        if (lost != NULL && lost[i])
            cc_on_loss(f->cc, first + (uint64_t)i, ack_us);
        else
            cc_on_ack(f->cc, first + (uint64_t)i, 0, sent_us[i] + RTT_US / 2 + extra + RECEIVER_OFFSET_US, ack_us);
        if (ack_us > f->now_us) f->now_us = ack_us;
    }
    cc_telemetry after = telemetry(f);
    CHECK(after.mi_completed == before.mi_completed + 1);
    CHECK(after.mi_rate_bps == 0);
    /* Accepted means the direct jump: the base rate is now the tested rate. */
    return fabs(cc_pacing_rate_bytes_per_s(f->cc) - after.last_mi_rate_bps / 8.0) < 1e-6;
}

static const double FLAT[5] = {0, 0, 0, 0, 0};
static const double RISING[5] = {0, 500, 1000, 1500, 2000};   /* slope 0.5: the probe overloads by 50% */

static void test_accept_jump_and_exponential_increase(void)
{
    fixture f = make_fixture(1);
    CHECK(strcmp(telemetry(&f).state, "startup") == 0);
    CHECK_NEAR(cc_cwnd_bytes(f.cc), CC_CWND_UNLIMITED_BYTES, 1);
    CHECK(wait_for_probe(&f) == 0);
    /* First probe at the initial rate (1 Mbit/s): the base rate is still 0, so that is all we send. */
    CHECK_NEAR(telemetry(&f).mi_rate_bps, 1e6, 1e-6);
    CHECK_NEAR(cc_pacing_rate_bytes_per_s(f.cc), 125000, 1e-6);
    CHECK(run_probe(&f, FLAT, NULL));
    cc_telemetry t = telemetry(&f);
    CHECK_NEAR(t.last_mi_utility, 1.0, 1e-12);   /* exact fit, flat: certain accept */
    CHECK_NEAR(t.last_mi_rtt_gradient, 0.0, 1e-12);
    CHECK_NEAR(cc_pacing_rate_bytes_per_s(f.cc), 125000, 1e-6);   /* direct jump to the tested rate */
    CHECK(t.mi_rate_bps == 0);
    /* The increment doubles after each success: 1 + 2 + 4 = 7 Mbit/s, then a 15 Mbit/s probe. */
    CHECK(wait_for_probe(&f) > 0);
    CHECK_NEAR(telemetry(&f).mi_rate_bps, 3e6, 1e-6);
    CHECK(run_probe(&f, FLAT, NULL));
    CHECK(wait_for_probe(&f) > 0);
    CHECK_NEAR(telemetry(&f).mi_rate_bps, 7e6, 1e-6);
    CHECK(run_probe(&f, FLAT, NULL));
    CHECK_NEAR(cc_pacing_rate_bytes_per_s(f.cc), 7e6 / 8, 1e-6);
    int64_t previous_start = f.now_us;
    int64_t start = wait_for_probe(&f);
    CHECK_NEAR(telemetry(&f).mi_rate_bps, 15e6, 1e-6);
    /* At most one probe per RTT. */
    CHECK(start - previous_start <= RTT_US);
    CHECK(strcmp(telemetry(&f).state, "startup") == 0);
    cc_destroy(f.cc);
}

static void test_reject_and_binary_search(void)
{
    fixture f = make_fixture(2);
    for (int i = 0; i < 3; i++) {
        wait_for_probe(&f);
        run_probe(&f, FLAT, NULL);
    }
    CHECK_NEAR(cc_pacing_rate_bytes_per_s(f.cc), 7e6 / 8, 1e-6);
    /* 15 Mbit/s with rising delays: rejected for certain, base unchanged. */
    wait_for_probe(&f);
    CHECK_NEAR(telemetry(&f).mi_rate_bps, 15e6, 1e-6);
    CHECK(!run_probe(&f, RISING, NULL));
    cc_telemetry t = telemetry(&f);
    CHECK_NEAR(t.last_mi_utility, 0.0, 1e-12);
    CHECK_NEAR(t.last_mi_rtt_gradient, 500.0 / 640.0, 1e-9);   /* 500 us more per packet, 640 us apart (15 Mbit/s) */
    CHECK_NEAR(cc_pacing_rate_bytes_per_s(f.cc), 7e6 / 8, 1e-6);
    CHECK(strcmp(t.state, "holding") == 0);
    /* Halved increment: 7 + 4 = 11; accepted, the next step bisects the 11..15 gap: 13, then 14. */
    wait_for_probe(&f);
    CHECK(strcmp(telemetry(&f).state, "probing") == 0);
    CHECK_NEAR(telemetry(&f).mi_rate_bps, 11e6, 1e-6);
    CHECK(run_probe(&f, FLAT, NULL));
    wait_for_probe(&f);
    CHECK_NEAR(telemetry(&f).mi_rate_bps, 13e6, 1e-6);
    CHECK(run_probe(&f, FLAT, NULL));
    wait_for_probe(&f);
    CHECK_NEAR(telemetry(&f).mi_rate_bps, 14e6, 1e-6);
    /* 14 fails: the bound moves down to 14 and the increment halves: 13.5. */
    CHECK(!run_probe(&f, RISING, NULL));
    wait_for_probe(&f);
    CHECK_NEAR(telemetry(&f).mi_rate_bps, 13.5e6, 1e-6);
    cc_destroy(f.cc);
}

/* Noisy flat delays, 1 ms apart: x = 0..4000 us, y = 0, 40, -20, 30, -10 us. By hand: mean x 2000,
 * mean y 8, Sxx = 1e7, Sxy = -30000, slope -0.003; residuals -14, 29, -28, 25, -12, SSR 2590,
 * se = sqrt(2590 / 3 / 1e7) = 0.009292; P(slope <= 0) = Phi(0.003 / 0.009292) = Phi(0.3229) = 0.6266. */
static void test_probabilistic_accept(void)
{
    const double noisy[5] = {0, 40, -20, 30, -10};
    int accepted = 0;
    const int runs = 400;
    for (int seed = 0; seed < runs; seed++) {
        fixture f = make_fixture(1000 + (uint64_t)seed);
        wait_for_probe(&f);
        accepted += run_probe(&f, noisy, NULL);
        cc_telemetry t = telemetry(&f);
        if (seed == 0) {
            CHECK_NEAR(t.last_mi_rtt_gradient, -0.003, 1e-9);
            CHECK_NEAR(t.last_mi_utility, 0.6266, 5e-4);
        }
        cc_destroy(f.cc);
    }
    double fraction = (double)accepted / runs;
    fprintf(stderr, "pcp probabilistic accept: %d / %d accepted (p = 0.6266)\n", accepted, runs);
    CHECK(fraction > 0.6266 - 0.075 && fraction < 0.6266 + 0.075);   /* 3 sigma */
}

/* The default rule (tolerance 5%, spread floor 2%) on noise-free trains: accept with probability
 * Phi((0.05 - slope) / 0.02): flat Phi(2.5) = 0.99379, 5% overload 0.5, 10% Phi(-2.5) = 0.00621. */
static void test_default_accept_rule(void)
{
    const double slopes[3] = {0.0, 0.05, 0.10};
    const double expected[3] = {0.99379, 0.5, 0.00621};
    for (int i = 0; i < 3; i++) {
        fixture f = {cc_create("pcp", 20 + (uint64_t)i, 0), 0, 0};
        wait_for_probe(&f);
        double rise[5];
        for (int k = 0; k < 5; k++) rise[k] = slopes[i] * 1000.0 * k;
        run_probe(&f, rise, NULL);
        CHECK_NEAR(telemetry(&f).last_mi_rtt_gradient, slopes[i], 1e-9);
        CHECK_NEAR(telemetry(&f).last_mi_utility, expected[i], 1e-5);
        cc_destroy(f.cc);
    }
}

/* A train paced slower than the RTT (low rate, short path: 10 ms apart on a 1 ms path) is judged on
 * all of its packets, not cut short by the probe timeout. */
static void test_slow_train_on_short_path(void)
{
    fixture f = make_fixture(30);
    wait_for_probe(&f);
    int64_t t0 = f.now_us;
    for (int i = 0; i < 5; i++) {
        int64_t sent = t0 + i * 10000;
        for (int64_t tick = sent - 9000; i > 0 && tick < sent; tick += 1000) cc_on_tick(f.cc, tick);
        cc_on_packet_sent(f.cc, f.next_pn, MSS, sent);
        cc_on_ack(f.cc, f.next_pn, 1000, sent + 500 + RECEIVER_OFFSET_US, sent + 1000);
        f.next_pn++;
        CHECK(telemetry(&f).mi_completed == (i < 4 ? 0u : 1u));
    }
    CHECK_NEAR(telemetry(&f).last_mi_utility, 1.0, 1e-12);
    cc_destroy(f.cc);
}

/* A train the application could not fill (sent at half its rate, or flagged by cc_on_app_limited)
 * tests nothing: no verdict, no change, a new probe later. */
static void test_app_limited_train_is_inconclusive(void)
{
    for (int flagged = 0; flagged <= 1; flagged++) {
        fixture f = make_fixture(40 + (uint64_t)flagged);
        wait_for_probe(&f);
        run_probe(&f, FLAT, NULL);
        double base = cc_pacing_rate_bytes_per_s(f.cc);
        wait_for_probe(&f);
        double probe_rate = telemetry(&f).mi_rate_bps / 8.0;
        int64_t spacing_us = flagged ? (int64_t)(MSS * 1e6 / probe_rate) : (int64_t)(2 * MSS * 1e6 / probe_rate);
        if (flagged) mark_app_limited(f.cc, f.now_us);
        uint64_t first = f.next_pn;
        for (int i = 0; i < 5; i++) cc_on_packet_sent(f.cc, f.next_pn++, MSS, f.now_us + i * spacing_us);
        for (int i = 0; i < 5; i++) {
            int64_t sent = f.now_us + i * spacing_us;
            cc_on_ack(f.cc, first + (uint64_t)i, 0, sent + RTT_US / 2 + RECEIVER_OFFSET_US, sent + RTT_US);
        }
        f.now_us += 4 * spacing_us + RTT_US;
        cc_telemetry t = telemetry(&f);
        CHECK(t.mi_completed == 1);
        CHECK(t.mi_rate_bps == 0);
        CHECK_NEAR(cc_pacing_rate_bytes_per_s(f.cc), base, 1e-6);
        CHECK(wait_for_probe(&f) > 0);   /* and probing goes on */
        cc_destroy(f.cc);
    }
}

static void test_lost_probe_packet_fails(void)
{
    fixture f = make_fixture(3);
    wait_for_probe(&f);
    const int lost[5] = {0, 0, 1, 0, 0};
    CHECK(!run_probe(&f, FLAT, lost));
    CHECK_NEAR(telemetry(&f).last_mi_utility, 0.0, 1e-12);
    cc_destroy(f.cc);
}

/* Failing at the minimum request doubles the probing interval, up to 100 RTTs, the probe placed
 * randomly inside it; a success resets it. */
static void test_exponential_backoff(void)
{
    fixture f = make_fixture(4);
    /* Increments 1 Mbit/s, 0.5, 0.25, 0.125, then the floor (min_rate 0.1 Mbit/s) fails: backoff. */
    for (int i = 0; i < 5; i++) {
        wait_for_probe(&f);
        run_probe(&f, RISING, NULL);
        CHECK(telemetry(&f).last_mi_utility == 0.0);
    }
    CHECK(strcmp(telemetry(&f).state, "backoff") == 0);
    double backoff = 2.0;
    int64_t longest_us = 0;
    int bounded = 1;
    for (int i = 0; i < 12; i++) {
        int64_t verdict_us = f.now_us;
        int64_t start = wait_for_probe(&f);
        CHECK_NEAR(telemetry(&f).mi_rate_bps, 100e3, 1e-6);
        int64_t wait_us = start - verdict_us;
        if (wait_us > longest_us) longest_us = wait_us;
        /* Placed within (backoff - 1) RTTs after the earliest slot (srtt here is 30..32 ms). */
        if (wait_us > (int64_t)((backoff - 1.0) * 33000) + 2000) bounded = 0;
        run_probe(&f, RISING, NULL);
        CHECK(telemetry(&f).last_mi_utility == 0.0);
        backoff = backoff * 2 > 100 ? 100 : backoff * 2;
    }
    CHECK(bounded);
    CHECK(longest_us > 20 * RTT_US);
    CHECK(longest_us <= 100 * 33000);
    /* A success at the minimum ends the backoff: the next probe follows within an RTT. */
    wait_for_probe(&f);
    CHECK(run_probe(&f, FLAT, NULL));
    CHECK(strcmp(telemetry(&f).state, "holding") == 0);
    int64_t verdict_us = f.now_us;
    CHECK(wait_for_probe(&f) - verdict_us <= 2000);
    cc_destroy(f.cc);
}

static void test_history(void)
{
    fixture f = make_fixture(5);
    CHECK(cc_param_set(f.cc, "pcp_history_rate_bps", 90e6) == CC_OK);
    wait_for_probe(&f);
    CHECK_NEAR(telemetry(&f).mi_rate_bps, 30e6, 1e-3);   /* 1/3 of the previous base rate (§3.4) */
    cc_destroy(f.cc);

    /* On the bottleneck, history reaches 90 Mbit/s sooner than a cold start. */
    int64_t reached_us[2] = {0, 0};
    for (int with_history = 0; with_history <= 1; with_history++) {
        cc_controller *cc = cc_create("pcp", 6, 0);
        if (with_history) CHECK(cc_param_set(cc, "pcp_history_rate_bps", 100e6) == CC_OK);
        bottleneck_link *link = link_create(cc, 100e6, RTT_US, 375000);
        while (link->now_us < 3000000 && cc_pacing_rate_bytes_per_s(cc) < 90e6 / 8) link_run(link, link->now_us + 1000);
        reached_us[with_history] = link->now_us;
        free(link);
        cc_destroy(cc);
    }
    fprintf(stderr, "pcp reaches 90 Mbit/s after %.0f ms cold, %.0f ms with history\n", reached_us[0] / 1e3,
            reached_us[1] / 1e3);
    CHECK(reached_us[1] < reached_us[0]);
    CHECK(reached_us[0] < 1500000);
}

/* Sends a packet every 1 ms for `duration_us`, received `receive_gap_us` apart with one-way delay
 * base + extra, each acked one RTT (+ extra) after it was sent, with a 30 ms RTT sample. Events reach
 * the controller in time order. With `full_link`, the 5 packets of any probe see their delay rise
 * 200 us per packet, as on a link with no spare capacity, so every probe fails. */
static void send_baseline(fixture *f, int64_t duration_us, double receive_gap_us, int64_t extra_delay_us, int full_link)
{
    enum { MAX_PACKETS = 4096 };
    static uint64_t pns[MAX_PACKETS];
    static int64_t ack_at[MAX_PACKETS], recv_at[MAX_PACKETS];
    size_t count = 0, acked = 0;
    int64_t start = f->now_us;
    int probe_left = 0;
    uint64_t probe_marked = (uint64_t)-1;
    for (int64_t t = 0; t < duration_us && count < MAX_PACKETS; t += 1000) {
        int64_t now = start + t;
        while (acked < count && ack_at[acked] <= now) {
            cc_on_ack(f->cc, pns[acked], RTT_US, recv_at[acked], ack_at[acked]);
            acked++;
        }
        cc_telemetry tel = telemetry(f);
        if (tel.mi_rate_bps > 0 && tel.mi_completed != probe_marked) {
            probe_marked = tel.mi_completed;
            probe_left = 5;
        }
        int64_t extra = extra_delay_us;
        if (probe_left > 0) {
            if (full_link) extra += 200 * (5 - probe_left);
            probe_left--;
        }
        pns[count] = f->next_pn++;
        ack_at[count] = now + RTT_US + extra;
        recv_at[count] = start + (int64_t)((double)count * receive_gap_us) + RTT_US / 2 + extra + RECEIVER_OFFSET_US;
        cc_on_packet_sent(f->cc, pns[count], MSS, now);
        count++;
    }
    for (; acked < count; acked++) cc_on_ack(f->cc, pns[acked], RTT_US, recv_at[acked], ack_at[acked]);
    f->now_us = ack_at[count - 1];
}

/* The base rate: while a probe train is being sent the pacing rate also carries the probe's
 * increment, so first send the train (5 packets whose acks never come; the probe then fails). */
static double base_rate(fixture *f)
{
    if (telemetry(f).mi_rate_bps > 0) {
        for (int i = 0; i < 5; i++) {
            f->now_us += 1000;
            cc_on_packet_sent(f->cc, f->next_pn++, MSS, f->now_us);
        }
    }
    CHECK(telemetry(f).mi_rate_bps == 0 || cc_pacing_rate_bytes_per_s(f->cc) * 8.0 < telemetry(f).mi_rate_bps);
    return cc_pacing_rate_bytes_per_s(f->cc);
}

/* A base rate of 10 Mbit/s, which is the ceiling (max_rate): probes only to win back cuts. */
static fixture make_settled_fixture(uint64_t seed, double deadband_us)
{
    fixture f = {cc_create("pcp", seed, 0), 0, 0};
    CHECK(cc_param_set(f.cc, "initial_rate_bps", 10e6) == CC_OK);
    CHECK(cc_param_set(f.cc, "max_rate_bps", 10e6) == CC_OK);
    CHECK(cc_param_set(f.cc, "pcp_delay_deadband_us", deadband_us) == CC_OK);
    wait_for_probe(&f);
    CHECK(run_probe(&f, FLAT, NULL));
    CHECK_NEAR(cc_pacing_rate_bytes_per_s(f.cc), 10e6 / 8, 1e-6);
    return f;
}

/* §3.2 gap test: received 1.25 ms apart what was sent 1 ms apart: cut by (1.25 - 1) / 1.25 = 20%,
 * once per round trip (incremental: later acks of the same RTT do not cut again). */
static void test_gap_compensation(void)
{
    fixture f = make_settled_fixture(7, 1e6);
    send_baseline(&f, 200000, 1000, 0, 1);   /* matched spacing: nothing to do */
    CHECK_NEAR(cc_pacing_rate_bytes_per_s(f.cc), 10e6 / 8, 1e-6);
    send_baseline(&f, 25000, 1250, 0, 1);
    CHECK_NEAR(base_rate(&f), 0.8 * 10e6 / 8, 0.01 * 10e6 / 8);
    cc_destroy(f.cc);
}

/* A droptail queue that drops every other packet keeps the survivors' spacing matched; counting
 * the lost bytes as sent still finds the rate twice what gets through: cut by the 50% cap. */
static void test_gap_compensation_counts_losses(void)
{
    fixture f = make_settled_fixture(12, 1e6);
    send_baseline(&f, 200000, 1000, 0, 1);
    int64_t start = f.now_us;
    enum { PACKETS = 80 };   /* 50 ms of answers: the window holds only the new pattern by the end */
    uint64_t pns[PACKETS];
    for (int i = 0; i < PACKETS; i++) {
        int64_t now = start + i * 1000;
        /* The packet sent one RTT earlier is answered now: acked, or reported lost. */
        int answered = i - RTT_US / 1000;
        if (answered >= 0) {
            if (answered % 2)
                cc_on_loss(f.cc, pns[answered], now);
            else
                cc_on_ack(f.cc, pns[answered], RTT_US, start + answered * 1000 + RTT_US / 2 + RECEIVER_OFFSET_US, now);
        }
        pns[i] = f.next_pn++;
        cc_on_packet_sent(f.cc, pns[i], MSS, now);
    }
    f.now_us = start + PACKETS * 1000;
    /* About half: the window's edges hold one ack more than losses, so 0.48..0.5 is cut. */
    CHECK_NEAR(base_rate(&f), 0.5 * 10e6 / 8, 0.03 * 10e6 / 8);
    cc_destroy(f.cc);
}

/* §3.2 delay test: a queue of 10 ms that persists over a 30 ms path is drained by cutting
 * 10 / (10 + 30) = 25% within the round trip. Then §3.5: when the cuts do not shrink it for three
 * round trips, compensation drops tenfold until the queue goes away. */
static void test_queue_compensation_and_tit_for_tat(void)
{
    fixture f = make_settled_fixture(8, 0);
    send_baseline(&f, 300000, 1000, 0, 1);
    CHECK_NEAR(cc_pacing_rate_bytes_per_s(f.cc), 10e6 / 8, 1e-6);
    CHECK(strcmp(telemetry(&f).state, "tit_for_tat") != 0);
    send_baseline(&f, 40000, 1000, 10000, 1);
    double after_first_rtt = base_rate(&f) / (10e6 / 8);
    CHECK_NEAR(after_first_rtt, 0.75, 0.03);
    /* The queue stays (a competitor keeps it): cuts go on until tit for tat starts. */
    int64_t until = f.now_us + 600000;
    while (f.now_us < until && strcmp(telemetry(&f).state, "tit_for_tat") != 0) send_baseline(&f, 10000, 1000, 10000, 1);
    CHECK(strcmp(telemetry(&f).state, "tit_for_tat") == 0);
    /* A cut shows in the measurements two round trips later (one to reach the acks, one to fill
     * the measurement window), so a standing queue is cut about every 72 ms here: over 400 ms
     * about 0.975^6 = 0.86 of the rate is kept under tit for tat, 0.75^6 = 0.18 without. */
    double before = base_rate(&f);
    send_baseline(&f, 400000, 1000, 10000, 1);
    double ratio = base_rate(&f) / before;
    fprintf(stderr, "pcp tit for tat: rate kept %.3f over 400 ms of standing queue\n", ratio);
    CHECK(ratio > 0.8 && ratio < 0.95);
    CHECK(strcmp(telemetry(&f).state, "tit_for_tat") == 0);
    /* The competitor leaves, the queue drains: back to normal. */
    send_baseline(&f, 200000, 1000, 0, 1);
    CHECK(strcmp(telemetry(&f).state, "tit_for_tat") != 0);
    cc_destroy(f.cc);

    /* Disabled (pcp_tit_for_tat_rtts = 0): the same standing queue keeps being cut. */
    f = make_settled_fixture(9, 0);
    CHECK(cc_param_set(f.cc, "pcp_tit_for_tat_rtts", 0) == CC_OK);
    send_baseline(&f, 300000, 1000, 0, 1);
    send_baseline(&f, 400000, 1000, 10000, 1);
    CHECK(strcmp(telemetry(&f).state, "tit_for_tat") != 0);
    CHECK(base_rate(&f) < 0.3 * 10e6 / 8);
    cc_destroy(f.cc);
}

/* Acknowledgements stop altogether: the base rate halves every silent timeout (200 ms floor here),
 * instead of pacing on at full rate. */
static void test_silence(void)
{
    fixture f = make_settled_fixture(50, 0);
    send_baseline(&f, 200000, 1000, 0, 0);
    CHECK_NEAR(cc_pacing_rate_bytes_per_s(f.cc), 10e6 / 8, 1e-6);
    int64_t dark_from = f.now_us;
    double rate_at_300ms = 0.0;
    for (int64_t t = 0; t < 1000000; t += 1000) {
        cc_on_packet_sent(f.cc, f.next_pn++, MSS, dark_from + t);
        cc_on_tick(f.cc, dark_from + t);
        if (t == 150000) CHECK(base_rate(&f) > 0.99 * 10e6 / 8);   /* within the first timeout: no cut */
        if (t == 300000) rate_at_300ms = base_rate(&f);
    }
    f.now_us = dark_from + 1000000;
    CHECK(rate_at_300ms <= 0.5 * 10e6 / 8 + 1e-6);
    /* 1 s of silence: four 200 ms timeouts after the first, so at most 1/16 of the rate. */
    CHECK(base_rate(&f) <= 10e6 / 8 / 16 + 1e-6);
    cc_destroy(f.cc);
}

/* On the bottleneck: fills the link with a small queue, with receiver timestamps or RTTs only;
 * follows a capacity halving (no loss, no lasting queue) and takes the capacity back. */
static void test_bottleneck(void)
{
    for (int with_receiver_time = 0; with_receiver_time <= 1; with_receiver_time++) {
        cc_controller *cc = cc_create("pcp", 10, 0);
        bottleneck_link *link = link_create(cc, 100e6, RTT_US, 375000);
        link->report_recv_time = with_receiver_time;
        link_run(link, 1000000);
        link_reset_stats(link);
        link_run(link, 2000000);
        double throughput_bps = (double)link->delivered_bytes * 8.0;
        fprintf(stderr, "pcp 100 Mbit/s (receiver time %d): %.1f Mbit/s, max queue %.2f ms\n", with_receiver_time,
                throughput_bps / 1e6, link->max_queue_delay_us / 1e3);
        CHECK(throughput_bps > 97e6);
        /* The accept rule lets probes overload a little (§3.3), so a queue of a few ms comes and goes. */
        CHECK(link->max_queue_delay_us < 5000);
        CHECK(link_mean_queue_delay_us(link) < 2000);
        CHECK(link->dropped_packets == 0);

        link->rate_bytes_per_s = 50e6 / 8;
        link_reset_stats(link);
        link_run(link, 2500000);
        CHECK(link->dropped_packets == 0);
        CHECK(cc_pacing_rate_bytes_per_s(cc) < 52e6 / 8);
        link_reset_stats(link);
        link_run(link, 4000000);
        throughput_bps = (double)link->delivered_bytes * 8.0 / 1.5;
        fprintf(stderr, "pcp after halving: %.1f Mbit/s, max queue %.2f ms\n", throughput_bps / 1e6,
                link->max_queue_delay_us / 1e3);
        CHECK(throughput_bps > 47e6);
        CHECK(link->max_queue_delay_us < 5000);

        link->rate_bytes_per_s = 100e6 / 8;
        link_run(link, 5000000);
        link_reset_stats(link);
        link_run(link, 6000000);
        CHECK((double)link->delivered_bytes * 8.0 > 95e6);
        free(link);
        cc_destroy(cc);
    }
}

static void test_hostile_input(void)
{
    cc_controller *cc = cc_create("pcp", 11, 0);
    CHECK(cc_param_set(cc, "pcp_probe_packets", 2) == CC_ERR_INVALID);
    CHECK(cc_param_set(cc, "pcp_probe_packets", 65) == CC_ERR_INVALID);
    CHECK(cc_param_set(cc, "pcp_history_fraction", NAN) == CC_ERR_INVALID);
    CHECK(cc_param_set(cc, "pcp_probe_packets", 64) == CC_OK);
    uint64_t x = 4242;
    int64_t now = 0;
    int bad = 0;
    for (int i = 0; i < 300000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t pn = (x >> 33) % 4000;
        now += (int64_t)((x >> 20) % 1500) - 200;
        int64_t recv = (i / 50000) % 2 ? (int64_t)(x >> 22) : 0;   /* receiver timestamps come and go */
        switch ((x >> 60) % 4) {
        case 0: cc_on_packet_sent(cc, pn, (uint32_t)((x >> 8) % 1500), now); break;
        case 1: cc_on_ack(cc, pn, (int64_t)((x >> 12) % 200000) - 50000, recv, now); break;
        case 2: cc_on_loss(cc, pn, now); break;
        default: cc_on_tick(cc, now); break;
        }
        if (i == 100000) CHECK(cc_param_set(cc, "pcp_probe_packets", 3) == CC_OK);
        if (i == 150000) CHECK(cc_param_set(cc, "max_rate_bps", 2e6) == CC_OK);
        double rate = cc_pacing_rate_bytes_per_s(cc);
        double max_rate = i >= 150000 ? 2e6 / 8 : 10e9 / 8;
        if (!isfinite(rate) || rate < 100e3 / 8 - 1e-9 || rate > max_rate + 1e-6) bad++;
        cc_telemetry t;
        cc_get_telemetry(cc, &t);
        if (!isfinite(t.mi_rate_bps) || !isfinite(t.last_mi_utility) || !isfinite(t.last_mi_rtt_gradient) ||
            t.last_mi_utility < 0 || t.last_mi_utility > 1 || t.state == NULL)
            bad++;
    }
    CHECK(bad == 0);
    cc_destroy(cc);

    /* Extreme clocks: receiver timestamps at the ends of int64, our clock starting far negative. */
    cc = cc_create("pcp", 12, INT64_MIN / 2);
    bad = 0;
    int64_t t = INT64_MIN / 2;
    for (uint64_t pn = 0; pn < 20000; pn++) {
        cc_on_packet_sent(cc, pn, MSS, t);
        cc_on_tick(cc, t);
        if (pn >= 10) cc_on_ack(cc, pn - 10, 0, (pn % 2) ? INT64_MAX - (int64_t)pn : 1 + (int64_t)pn, t + 5000);
        t += 1000;
        double rate = cc_pacing_rate_bytes_per_s(cc);
        cc_telemetry tel;
        cc_get_telemetry(cc, &tel);
        if (!isfinite(rate) || rate < 100e3 / 8 - 1e-9 || !isfinite(tel.last_mi_rtt_gradient) || !isfinite(tel.last_mi_utility))
            bad++;
    }
    CHECK(bad == 0);
    cc_destroy(cc);
}

int main(void)
{
    test_accept_jump_and_exponential_increase();
    test_reject_and_binary_search();
    test_probabilistic_accept();
    test_default_accept_rule();
    test_slow_train_on_short_path();
    test_app_limited_train_is_inconclusive();
    test_lost_probe_packet_fails();
    test_exponential_backoff();
    test_history();
    test_gap_compensation();
    test_gap_compensation_counts_losses();
    test_queue_compensation_and_tit_for_tat();
    test_silence();
    test_bottleneck();
    test_hostile_input();
    return check_summary("test_pcp");
}
