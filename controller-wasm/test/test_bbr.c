/* BBR v1 through the public API on the bottleneck fixture: startup -> drain -> probe_bw, the
 * 8-phase gain cycle, probe_rtt entry and exit (to probe_bw and to startup), the bandwidth and
 * min-RTT model, recovery, a deep buffer, and hostile input. */
#include <math.h>
#include <string.h>

#include "bottleneck_link.h"
#include "check.h"
#include "pcc/cc.h"

#define MSS 1200.0

typedef struct trace_point {
    int64_t time_us;
    const char *state;
    double pacing_bps;
    double bw_bps;
    double cwnd_bytes;
    double min_rtt_us;
    uint64_t in_flight_bytes;
} trace_point;

/* Runs the link in 1 ms slices and records the telemetry after each. */
static size_t run_traced(bottleneck_link *link, int64_t until_us, trace_point *trace, size_t capacity)
{
    size_t n = 0;
    while (link->now_us < until_us && n < capacity) {
        link_run(link, link->now_us + 1000);
        cc_telemetry t;
        cc_get_telemetry(link->cc, &t);
        trace[n++] = (trace_point){link->now_us, t.state, t.pacing_rate_bps, t.last_mi_throughput_bps,
                                   t.cwnd_bytes, t.min_rtt_us, t.bytes_in_flight};
    }
    return n;
}

static trace_point trace[40000];

static void test_startup_drain_probe_bw(void)
{
    cc_controller *cc = cc_create("bbr", 11, 0);
    bottleneck_link *link = link_create(cc, 100e6, 30000, 375000);
    size_t n = run_traced(link, 3000000, trace, 40000);
    CHECK(strcmp(trace[0].state, "startup") == 0);
    /* The first state change is to drain, the next to probe_bw; startup lasts a few dozen RTTs at most. */
    size_t drain_at = 0, probe_bw_at = 0;
    for (size_t i = 1; i < n; i++) {
        if (strcmp(trace[i].state, trace[i - 1].state) == 0) continue;
        if (drain_at == 0) {
            CHECK(strcmp(trace[i].state, "drain") == 0);
            drain_at = i;
        } else if (probe_bw_at == 0) {
            CHECK(strcmp(trace[i].state, "probe_bw") == 0);
            probe_bw_at = i;
        }
    }
    CHECK(drain_at > 0 && probe_bw_at > drain_at);
    CHECK(trace[drain_at].time_us < 1000000);
    /* Startup pacing gain 2/ln2 over the estimate; drain's is its inverse. */
    const trace_point *in_startup = &trace[drain_at / 2];
    if (in_startup->bw_bps > 0) CHECK_NEAR(in_startup->pacing_bps / in_startup->bw_bps, 2.885 * 0.99, 0.3);
    const trace_point *in_drain = &trace[drain_at];
    CHECK_NEAR(in_drain->pacing_bps / in_drain->bw_bps, 0.3466 * 0.99, 0.01);
    /* The model: bottleneck bandwidth within 5% of the link, min RTT = propagation + one packet. */
    CHECK_NEAR(trace[n - 1].bw_bps, 100e6, 5e6);
    CHECK_NEAR(trace[n - 1].min_rtt_us, 30000, 500);
    /* In probe_bw the window is 2 x BDP plus the quantization budget (3 packets, +2 when probing up). */
    double bdp = trace[n - 1].bw_bps / 8.0 * trace[n - 1].min_rtt_us / 1e6;
    CHECK(trace[n - 1].cwnd_bytes >= 2.0 * bdp + 3 * MSS - 1.0);
    CHECK(trace[n - 1].cwnd_bytes <= 2.0 * bdp + 5 * MSS + 1.0);
    free(link);
    cc_destroy(cc);
}

/* The probe_bw cycle: gains 1.25, 0.75, then six phases of 1, each about one min RTT long. */
static void test_gain_cycling(void)
{
    cc_controller *cc = cc_create("bbr", 12, 0);
    bottleneck_link *link = link_create(cc, 100e6, 30000, 375000);
    link_run(link, 2000000);
    size_t n = run_traced(link, 5000000, trace, 40000);
    int64_t up_starts[64];
    size_t ups = 0;
    double previous_gain = 0.0;
    int order_ok = 1, gains_ok = 1;
    for (size_t i = 0; i < n; i++) {
        CHECK(strcmp(trace[i].state, "probe_bw") == 0);
        double gain = trace[i].pacing_bps / trace[i].bw_bps / 0.99;
        int is_up = fabs(gain - 1.25) < 0.01, is_down = fabs(gain - 0.75) < 0.01, is_one = fabs(gain - 1.0) < 0.01;
        if (!is_up && !is_down && !is_one) gains_ok = 0;
        if (is_up && fabs(previous_gain - 1.25) >= 0.01 && ups < 64) up_starts[ups++] = trace[i].time_us;
        /* 0.75 only ever follows 1.25; 1.25 only ever follows 1. */
        if (is_down && !(fabs(previous_gain - 1.25) < 0.01 || fabs(previous_gain - 0.75) < 0.01)) order_ok = 0;
        if (is_up && i > 0 && !(fabs(previous_gain - 1.0) < 0.01 || fabs(previous_gain - 1.25) < 0.01)) order_ok = 0;
        previous_gain = gain;
    }
    CHECK(gains_ok);
    CHECK(order_ok);
    CHECK(ups >= 8);
    /* A full cycle is 8 phases of at least one min RTT (30 ms): 240 ms, plus a little per phase. */
    for (size_t i = 1; i < ups; i++) {
        int64_t cycle_us = up_starts[i] - up_starts[i - 1];
        CHECK(cycle_us >= 240000 && cycle_us <= 300000);
    }
    free(link);
    cc_destroy(cc);
}

/* probe_rtt: 10 s without a lower RTT sample -> window of 4 packets for 200 ms and a round, then
 * back to probe_bw with the window restored. */
static void test_probe_rtt(void)
{
    cc_controller *cc = cc_create("bbr", 13, 0);
    bottleneck_link *link = link_create(cc, 100e6, 30000, 375000);
    size_t n = run_traced(link, 12000000, trace, 40000);
    size_t enter = 0, leave = 0;
    for (size_t i = 1; i < n; i++) {
        if (enter == 0 && strcmp(trace[i].state, "probe_rtt") == 0) enter = i;
        if (enter != 0 && leave == 0 && strcmp(trace[i].state, "probe_rtt") != 0) leave = i;
    }
    CHECK(enter > 0 && leave > enter);
    if (enter > 0 && leave > enter) {
        /* The min RTT was last lowered in the first second; it expires 10 s later. */
        CHECK(trace[enter].time_us > 10000000 && trace[enter].time_us < 11100000);
        CHECK(strcmp(trace[enter - 1].state, "probe_bw") == 0);
        CHECK_NEAR(trace[enter + 5].cwnd_bytes, 4 * MSS, 1e-9);
        int64_t held_us = trace[leave].time_us - trace[enter].time_us;
        CHECK(held_us >= 200000 && held_us <= 200000 + 3 * 31000 + 2000);
        CHECK(strcmp(trace[leave].state, "probe_bw") == 0);
        CHECK(trace[leave].cwnd_bytes > 100 * MSS);   /* restored */
    }
    /* Throughput recovers at once. */
    link_reset_stats(link);
    link_run(link, 13000000);
    CHECK(link->delivered_bytes * 8.0 > 90e6);
    free(link);
    cc_destroy(cc);
}

/* probe_rtt also lasts at least one round: on a 400 ms path it outlasts its 200 ms. */
static void test_probe_rtt_lasts_a_round(void)
{
    cc_controller *cc = cc_create("bbr", 18, 0);
    CHECK(cc_param_set(cc, "bbr_min_rtt_window_s", 3.0) == CC_OK);
    bottleneck_link *link = link_create(cc, 20e6, 400000, 2e6);
    size_t n = run_traced(link, 8000000, trace, 40000);
    size_t enter = 0, leave = 0;
    for (size_t i = 1; i < n; i++) {
        if (enter == 0 && strcmp(trace[i].state, "probe_rtt") == 0) enter = i;
        if (enter != 0 && leave == 0 && strcmp(trace[i].state, "probe_rtt") != 0) leave = i;
    }
    CHECK(enter > 0 && leave > enter);
    size_t drained = enter;
    while (drained < leave && (double)trace[drained].in_flight_bytes > 4 * MSS) drained++;
    CHECK(drained < leave);
    /* Once drained, 200 ms would be up long before an ack of a packet sent then can arrive. */
    if (enter > 0 && leave > drained) CHECK(trace[leave].time_us - trace[drained].time_us >= 399000);
    free(link);
    cc_destroy(cc);
}

/* probe_rtt before the pipe is full returns to startup. */
static void test_probe_rtt_returns_to_startup(void)
{
    cc_controller *cc = cc_create("bbr", 14, 0);
    CHECK(cc_param_set(cc, "bbr_min_rtt_window_s", 0.1) == CC_OK);
    bottleneck_link *link = link_create(cc, 1000e6, 30000, 4e6);
    size_t n = run_traced(link, 600000, trace, 40000);
    int saw_probe_rtt = 0, back_to_startup = 0;
    for (size_t i = 1; i < n; i++) {
        if (strcmp(trace[i].state, "probe_rtt") == 0 && strcmp(trace[i - 1].state, "startup") == 0) saw_probe_rtt = 1;
        if (saw_probe_rtt && strcmp(trace[i].state, "startup") == 0 && strcmp(trace[i - 1].state, "probe_rtt") == 0)
            back_to_startup = 1;
    }
    CHECK(saw_probe_rtt);
    CHECK(back_to_startup);
    free(link);
    cc_destroy(cc);
}

/* An application that sends less than the path carries: its samples never end startup and never
 * lower the estimate; once it has data to send, BBR fills the pipe. */
static void test_application_limited(void)
{
    cc_controller *cc = cc_create("bbr", 19, 0);
    bottleneck_link *link = link_create(cc, 100e6, 30000, 375000);
    link->app_rate_bytes_per_s = 10e6 / 8;
    link_run(link, 2000000);
    cc_telemetry t;
    cc_get_telemetry(cc, &t);
    CHECK(strcmp(t.state, "startup") == 0);
    CHECK_NEAR(t.last_mi_throughput_bps, 10e6, 1e6);
    link->app_rate_bytes_per_s = 0;
    link_run(link, 3500000);
    cc_get_telemetry(cc, &t);
    CHECK(strcmp(t.state, "probe_bw") == 0);
    CHECK_NEAR(t.last_mi_throughput_bps, 100e6, 5e6);
    free(link);
    cc_destroy(cc);
}

/* Loss: the window drops to what is in flight, is held by packet conservation, and comes back
 * when recovery ends. */
static void test_recovery(void)
{
    cc_controller *cc = cc_create("bbr", 15, 0);
    int64_t now = 0;
    uint64_t pn = 0;
    /* 40 packets in flight, all acked one RTT later, to get a model. */
    for (int round = 0; round < 5; round++) {
        uint64_t first = pn;
        for (int i = 0; i < 40; i++) cc_on_packet_sent(cc, pn++, (uint32_t)MSS, now + i * 100);
        for (uint64_t p = first; p < pn; p++) cc_on_ack(cc, p, 0, 0, now + 20000 + (int64_t)(p - first) * 100);
        now += 20000 + 40 * 100;
    }
    double before = cc_cwnd_bytes(cc);
    for (int i = 0; i < 40; i++) cc_on_packet_sent(cc, pn + (uint64_t)i, (uint32_t)MSS, now + i * 100);
    cc_on_loss(cc, pn, now + 5000);
    double in_flight = (double)cc_bytes_in_flight(cc);
    CHECK_NEAR(cc_cwnd_bytes(cc), in_flight, 1e-9);
    CHECK(cc_cwnd_bytes(cc) < before);
    /* Acks of the same flight: packet conservation keeps in flight + acked. */
    cc_on_ack(cc, pn + 1, 0, 0, now + 20100);
    CHECK(cc_cwnd_bytes(cc) >= (double)cc_bytes_in_flight(cc) + MSS - 1e-9);
    for (int i = 2; i < 40; i++) cc_on_ack(cc, pn + (uint64_t)i, 0, 0, now + 20000 + i * 100);
    /* A packet sent after the loss is acked: recovery ends, the window is back. */
    uint64_t later = pn + 40;
    cc_on_packet_sent(cc, later, (uint32_t)MSS, now + 25000);
    cc_on_ack(cc, later, 0, 0, now + 45000);
    CHECK(cc_cwnd_bytes(cc) >= before - 1e-9);
    cc_destroy(cc);
}

/* A deep buffer: BBR keeps the queue to about its extra BDP at most (cwnd = 2 BDP), far below CUBIC. */
static void test_deep_buffer_queue(void)
{
    cc_controller *cc = cc_create("bbr", 16, 0);
    bottleneck_link *link = link_create(cc, 100e6, 30000, 1e6);
    link_run(link, 3000000);
    link_reset_stats(link);
    link_run(link, 23000000);
    double throughput_bps = (double)link->delivered_bytes * 8.0 / 20.0;
    fprintf(stderr, "bbr deep buffer: %.1f Mbit/s, mean queue %.2f ms, max %.2f ms, drops %llu\n",
            throughput_bps / 1e6, link_mean_queue_delay_us(link) / 1e3, link->max_queue_delay_us / 1e3,
            (unsigned long long)link->dropped_packets);
    CHECK(throughput_bps > 85e6);
    CHECK(link->max_queue_delay_us < 31000.0);   /* at most one BDP of queue */
    CHECK(link->dropped_packets == 0);
    free(link);
    cc_destroy(cc);
}

static void test_hostile_input(void)
{
    cc_controller *cc = cc_create("bbr", 17, 0);
    CHECK(cc_param_set(cc, "bbr_bw_window_rounds", 65) == CC_ERR_INVALID);
    CHECK(cc_param_set(cc, "bbr_startup_gain", INFINITY) == CC_ERR_INVALID);
    CHECK(cc_param_set(cc, "bbr_bw_window_rounds", 1) == CC_OK);
    uint64_t x = 999;
    int64_t now = 0;
    int bad = 0;
    for (int i = 0; i < 200000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t pn = (x >> 33) % 3000;
        now += (int64_t)((x >> 20) % 2000) - 300;
        switch ((x >> 60) % 4) {
        case 0: cc_on_packet_sent(cc, pn, (uint32_t)((x >> 8) % 1500), now); break;
        case 1: cc_on_ack(cc, pn, (int64_t)((x >> 12) % 100000) - 20000, (int64_t)(x >> 40), now); break;
        case 2: cc_on_loss(cc, pn, now); break;
        default: cc_on_tick(cc, now); break;
        }
        if (i == 50000) CHECK(cc_param_set(cc, "bbr_min_rtt_window_s", 0.1) == CC_OK);
        if (i == 120000) CHECK(cc_param_set(cc, "max_rate_bps", 5e6) == CC_OK);
        double rate = cc_pacing_rate_bytes_per_s(cc);
        double cwnd = cc_cwnd_bytes(cc);
        double max_rate = i >= 120000 ? 5e6 / 8 : 10e9 / 8;
        if (!isfinite(rate) || !isfinite(cwnd) || rate < 100e3 / 8 - 1e-9 || rate > max_rate + 1e-6 || cwnd < 4 * MSS - 1e-9)
            bad++;
        cc_telemetry t;
        cc_get_telemetry(cc, &t);
        if (!isfinite(t.last_mi_throughput_bps) || t.state == NULL) bad++;
    }
    CHECK(bad == 0);
    cc_destroy(cc);
}

int main(void)
{
    test_startup_drain_probe_bw();
    test_gain_cycling();
    test_probe_rtt();
    test_probe_rtt_returns_to_startup();
    test_probe_rtt_lasts_a_round();
    test_application_limited();
    test_recovery();
    test_deep_buffer_queue();
    test_hostile_input();
    return check_summary("test_bbr");
}
