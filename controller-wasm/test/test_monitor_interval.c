/* Monitor-interval bookkeeping: association under reordering and loss, in-order completion,
 * timeouts, the RTT- and one-way-delay-gradient regressions, zero-length intervals and delivery on the receiver's
 * clock; the send-rate ceiling (pcc_rate_limits.c) the MIs' send rates set. */
#include <string.h>

#include "check.h"
#include "monitor_interval.h"
#include "pcc_rate_limits.h"

static cc_sent_packet packet(uint64_t pn, int64_t sent_us) {
    cc_sent_packet p;
    memset(&p, 0, sizeof p);
    p.pn = pn;
    p.bytes = 1000;
    p.sent_time_us = sent_us;
    return p;
}

static void test_association_and_order(void) {
    pcc_mi_tracker t;
    pcc_mi_tracker_init(&t);
    pcc_mi_result r;
    /* MI 0: pn 0..9 at t = 0..9 ms; MI 1: pn 10..19 (with a gap: 10, 12, ..., 28). */
    CHECK(pcc_mi_start(&t, 1e6, 7, 1, 0) != NULL);
    for (uint64_t pn = 0; pn < 10; pn++) {
        cc_sent_packet p = packet(pn, (int64_t)pn * 1000);
        pcc_mi_on_sent(&t, &p);
    }
    CHECK(pcc_mi_start(&t, 2e6, 8, 1, 10000) != NULL);
    for (uint64_t i = 0; i < 10; i++) {
        cc_sent_packet p = packet(10 + 2 * i, 10000 + (int64_t)i * 500);
        pcc_mi_on_sent(&t, &p);
    }
    pcc_mi_close(&t, 15000);
    CHECK(pcc_mi_count(&t) == 2);
    /* Feedback for MI 1 first (reordered): it completes but must wait for MI 0. */
    for (uint64_t i = 0; i < 10; i++) {
        cc_sent_packet p = packet(10 + 2 * i, 10000 + (int64_t)i * 500);
        if (i == 3) pcc_mi_on_loss(&t, &p);
        else pcc_mi_on_ack(&t, &p, 20000, 0);
    }
    CHECK(pcc_mi_pop_result(&t, 20000, &r) == 0);
    /* MI 0, acked in reverse order, with two losses. */
    for (uint64_t pn = 10; pn-- > 0;) {
        cc_sent_packet p = packet(pn, (int64_t)pn * 1000);
        if (pn == 2 || pn == 5) pcc_mi_on_loss(&t, &p);
        else pcc_mi_on_ack(&t, &p, 20000 + (int64_t)pn * 100, 0);
        if (pn > 0) CHECK(pcc_mi_pop_result(&t, 20000, &r) == 0);
    }
    CHECK(pcc_mi_pop_result(&t, 20000, &r) == 1);
    CHECK(r.id == 0 && r.tag == 7 && r.epoch == 1 && !r.timed_out);
    CHECK(r.stats.packets_sent == 10 && r.stats.packets_acked == 8 && r.stats.packets_lost == 2);
    CHECK_NEAR(r.stats.loss_rate, 0.2, 1e-12);
    /* 10000 bytes over 10 ms (closed when MI 1 started at 10 ms). */
    CHECK_NEAR(r.stats.duration_us, 10000, 1e-9);
    CHECK_NEAR(r.stats.send_rate_bps, 8e6, 1e-6);
    CHECK_NEAR(r.stats.throughput_bps, 6.4e6, 1e-6);
    CHECK_NEAR(r.stats.target_rate_bps, 8e6, 1e-6);
    /* RTT = 20000 + 0.1 * send time: the slope is exactly 0.1, the fit perfect. */
    CHECK_NEAR(r.stats.rtt_gradient, 0.1, 1e-12);
    CHECK_NEAR(r.rtt_gradient_stderr, 0, 1e-9);
    /* mean RTT of pn {0,1,3,4,6,7,8,9}: 20000 + 100 * 38 / 8 */
    CHECK_NEAR(r.stats.avg_rtt_us, 20000 + 100.0 * 38 / 8, 1e-9);
    CHECK(r.stats.min_rtt_us == 20000);
    CHECK(pcc_mi_pop_result(&t, 20000, &r) == 1);
    CHECK(r.id == 1 && r.tag == 8 && r.stats.packets_lost == 1 && r.stats.packets_acked == 9);
    CHECK_NEAR(r.stats.rtt_gradient, 0, 1e-12);
    CHECK_NEAR(r.stats.duration_us, 5000, 1e-9);
    CHECK(pcc_mi_pop_result(&t, 20000, &r) == 0);
    CHECK(pcc_mi_count(&t) == 0);
    /* Late, duplicate and gap packet numbers are ignored. */
    cc_sent_packet late = packet(11, 0);
    pcc_mi_on_ack(&t, &late, 1000, 0);
    pcc_mi_on_loss(&t, &late);
    CHECK(pcc_mi_count(&t) == 0);
}

/* One closed MI of n packets sent 1 ms apart, packet i acknowledged with an RTT of rtt_ms[i / per_ack] ms
 * (per_ack packets share each sample, as when acknowledged together); returns its result. */
static pcc_mi_result regression_of(const double *rtt_ms, uint64_t n, uint64_t per_ack) {
    pcc_mi_tracker t;
    pcc_mi_tracker_init(&t);
    pcc_mi_start(&t, 1e6, 0, 0, 0);
    for (uint64_t i = 0; i < n; i++) {
        cc_sent_packet p = packet(i, (int64_t)i * 1000);
        pcc_mi_on_sent(&t, &p);
    }
    pcc_mi_close(&t, (int64_t)n * 1000);
    for (uint64_t i = 0; i < n; i++) {
        cc_sent_packet p = packet(i, (int64_t)i * 1000);
        pcc_mi_on_ack(&t, &p, (int64_t)(rtt_ms[i / per_ack] * 1000), 0);
    }
    pcc_mi_result r;
    CHECK(pcc_mi_pop_result(&t, 10000, &r) == 1);
    return r;
}

static void test_regression_by_hand(void) {
    /* Samples (send ms, rtt ms): (0,10) (1,12) (2,11) (3,15): slope = 1.4 ms/ms by least squares
     * (x mean 1.5, y mean 12; Sxy = 7, Sxx = 5); residuals give stderr sqrt((SSres/2)/Sxx). */
    const double rtt_ms[4] = {10, 12, 11, 15};
    pcc_mi_result r = regression_of(rtt_ms, 4, 1);
    CHECK_NEAR(r.stats.rtt_gradient, 1.4, 1e-12);
    /* Syy = 14, SSres = Syy - slope * Sxy = 14 - 9.8 = 4.2; stderr = sqrt(4.2 / 2 / 5e6 us^2) */
    CHECK_NEAR(r.rtt_gradient_stderr, sqrt(4.2e6 / 2 / 5e6), 1e-9);
    CHECK_NEAR(r.stats.avg_rtt_us, 12000, 1e-9);
}

static void test_clustered_samples(void) {
    /* 8 packets acknowledged two at a time: each pair shares one RTT sample. The slope is that of the 8
     * points, but its standard error counts 2 packets per sample: sqrt(SSres/(n-2)/Sxx * 2).
     * x = 0..7 ms, y = 10,10,12,12,11,11,15,15 ms: Sxx = 42, Sxy = 28, Syy = 28, slope = 2/3. */
    const double rtt_ms[4] = {10, 12, 11, 15};
    pcc_mi_result r = regression_of(rtt_ms, 8, 2);
    double slope = 28.0 / 42.0;
    CHECK_NEAR(r.stats.rtt_gradient, slope, 1e-12);
    double residual_ms2 = 28.0 - slope * 28.0;
    CHECK_NEAR(r.rtt_gradient_stderr, sqrt(residual_ms2 * 1e6 / 6 / 42e6 * 2), 1e-9);
    CHECK(r.stats.rtt_samples == 8);
}

static void test_timeout_and_edge_cases(void) {
    pcc_mi_tracker t;
    pcc_mi_tracker_init(&t);
    pcc_mi_result r;
    /* An MI that sent nothing is dropped on close. */
    pcc_mi_start(&t, 1e6, 0, 0, 0);
    pcc_mi_close(&t, 10);
    CHECK(pcc_mi_count(&t) == 0);
    /* Zero-length MI: one packet; its rate falls back to the target. */
    pcc_mi_start(&t, 1e6, 0, 0, 100);
    cc_sent_packet p = packet(1, 100);
    pcc_mi_on_sent(&t, &p);
    pcc_mi_close(&t, 100);
    pcc_mi_on_ack(&t, &p, 5000, 0);
    CHECK(pcc_mi_pop_result(&t, 5000, &r) == 1);
    CHECK(r.stats.duration_us == 0 && r.stats.send_rate_bps == 8e6 && r.stats.throughput_bps == 8e6);
    CHECK(r.stats.rtt_gradient == 0 && r.stats.rtt_samples == 1);
    /* Timeout: two packets, one never answered. */
    pcc_mi_start(&t, 1e6, 3, 0, 1000);
    cc_sent_packet a = packet(2, 1000), b = packet(3, 2000);
    pcc_mi_on_sent(&t, &a);
    pcc_mi_on_sent(&t, &b);
    pcc_mi_close(&t, 3000);
    pcc_mi_on_ack(&t, &a, 4000, 0);
    pcc_mi_expire(&t, 3000 + 50000, 50000);
    CHECK(pcc_mi_pop_result(&t, 4000, &r) == 0);
    pcc_mi_expire(&t, 3000 + 50001, 50000);
    CHECK(pcc_mi_pop_result(&t, 4000, &r) == 1);
    CHECK(r.timed_out && r.tag == 3 && r.stats.packets_acked == 1 && r.stats.packets_lost == 0);
    /* The timeout counts from the feedback time the MI expected: its end plus expected_delay_us. */
    pcc_mi *late = pcc_mi_start(&t, 1e6, 5, 0, 5000);
    late->expected_delay_us = 700000;
    cc_sent_packet d = packet(5, 5000);
    pcc_mi_on_sent(&t, &d);
    pcc_mi_close(&t, 6000);
    pcc_mi_expire(&t, 6000 + 700000 + 50000, 50000);
    CHECK(pcc_mi_pop_result(&t, 4000, &r) == 0);
    pcc_mi_expire(&t, 6000 + 700000 + 50001, 50000);
    CHECK(pcc_mi_pop_result(&t, 4000, &r) == 1);
    CHECK(r.timed_out && r.tag == 5);
    /* The open MI never times out. */
    pcc_mi_start(&t, 1e6, 0, 0, 100000);
    cc_sent_packet c = packet(4, 100000);
    pcc_mi_on_sent(&t, &c);
    pcc_mi_expire(&t, 10000000, 1000);
    CHECK(pcc_mi_pop_result(&t, 4000, &r) == 0);
    /* A full ring keeps the newest MI open instead of losing track of packets. */
    pcc_mi_tracker_init(&t);
    for (uint64_t i = 0; i < PCC_MI_CAPACITY + 5; i++) {
        pcc_mi *mi = pcc_mi_start(&t, 1e6, 0, 0, (int64_t)i * 10);
        if (i < PCC_MI_CAPACITY) CHECK(mi != NULL);
        else CHECK(mi == NULL);
        cc_sent_packet q = packet(i, (int64_t)i * 10);
        pcc_mi_on_sent(&t, &q);
    }
    CHECK(pcc_mi_count(&t) == PCC_MI_CAPACITY && pcc_mi_open(&t) != NULL);
    CHECK(pcc_mi_open(&t)->packets_sent == 6);
}

/* A fresh tracker with one MI of 10 packets of 1000 bytes sent 1 ms apart (8 Mbit/s), still open. */
static void send_ten_packets(pcc_mi_tracker *t) {
    pcc_mi_tracker_init(t);
    pcc_mi_start(t, 1e6, 0, 0, 0);
    for (uint64_t i = 0; i < 10; i++) {
        cc_sent_packet p = packet(i, (int64_t)i * 1000);
        pcc_mi_on_sent(t, &p);
    }
}

static void test_idle_sender(void) {
    /* 10 packets 1 ms apart, then the application has nothing to send for half a second (it says so): the
     * MI's duration is its sending time (10 ms), not 500 ms, so its rate is 8 Mbit/s, not 0.16. */
    pcc_mi_tracker t;
    send_ten_packets(&t);
    pcc_mi_mark_app_limited(&t);
    pcc_mi_start(&t, 1e6, 0, 0, 500000);
    for (uint64_t i = 0; i < 10; i++) {
        cc_sent_packet p = packet(i, (int64_t)i * 1000);
        pcc_mi_on_ack(&t, &p, 20000, 0);
    }
    pcc_mi_result r;
    CHECK(pcc_mi_pop_result(&t, 20000, &r) == 1);
    CHECK_NEAR(r.stats.duration_us, 10000, 1e-9);
    CHECK_NEAR(r.stats.send_rate_bps, 8e6, 1e-6);
}

static double stalled_mi_duration_us(int out_of_data) {
    /* 5 packets 1 ms apart, a 20 ms pause, 5 more, the MI closed 1 ms after the last: the pause is idle
     * only when the sender said it ran out of data before it. */
    pcc_mi_tracker t;
    pcc_mi_tracker_init(&t);
    pcc_mi_start(&t, 1e6, 0, 0, 0);
    for (uint64_t i = 0; i < 10; i++) {
        int64_t sent_us = (int64_t)i * 1000 + (i >= 5 ? 20000 : 0);
        if (i == 5 && out_of_data) pcc_mi_mark_app_limited(&t);
        cc_sent_packet p = packet(i, sent_us);
        pcc_mi_on_sent(&t, &p);
    }
    pcc_mi_start(&t, 1e6, 0, 0, 30000);
    for (uint64_t i = 0; i < 10; i++) {
        cc_sent_packet p = packet(i, (int64_t)i * 1000 + (i >= 5 ? 20000 : 0));
        pcc_mi_on_ack(&t, &p, 60000, 0);
    }
    pcc_mi_result r;
    CHECK(pcc_mi_pop_result(&t, 20000, &r) == 1);
    return r.stats.duration_us;
}

/* An MI of 10 packets sent 1 ms apart (8 Mbit/s) that the receiver stamped recv_spacing_us apart, packet 4 lost,
 * its ACKs in the given order. */
static double receiver_clock_throughput_bps(int reverse, int64_t recv_spacing_us) {
    pcc_mi_tracker t;
    send_ten_packets(&t);
    pcc_mi_start(&t, 1e6, 0, 0, 10000);
    for (uint64_t k = 0; k < 10; k++) {
        uint64_t i = reverse ? 9 - k : k;
        cc_sent_packet p = packet(i, (int64_t)i * 1000);
        if (i == 4) pcc_mi_on_loss(&t, &p);
        else pcc_mi_on_ack(&t, &p, 20000, 7000 + (int64_t)i * recv_spacing_us);
    }
    pcc_mi_result r;
    CHECK(pcc_mi_pop_result(&t, 20000, &r) == 1);
    CHECK_NEAR(r.stats.send_rate_bps, 8e6, 1e-6);
    return r.stats.throughput_bps;
}

static void test_receiver_clock(void) {
    /* Got 2 ms apart (a queue built): the 8 packets after the receiver's first time, over its 18 ms span; the
     * ACKs' order does not matter (a late ACK with an earlier time moves the span's start). */
    CHECK_NEAR(receiver_clock_throughput_bps(0, 2000), 8 * 8000 / 18e-3, 1e-6);
    CHECK_NEAR(receiver_clock_throughput_bps(1, 2000), 8 * 8000 / 18e-3, 1e-6);
    /* Stamped 100 us apart (a receiver that read a late batch at once): no faster than sent, 9 acked over 10 ms. */
    CHECK_NEAR(receiver_clock_throughput_bps(0, 100), 9 * 8000 / 10e-3, 1e-6);
    /* An MI with an idle pause keeps bytes over its send duration: the receiver's span holds the pause. */
    pcc_mi_tracker t;
    pcc_mi_tracker_init(&t);
    pcc_mi_start(&t, 1e6, 0, 0, 0);
    for (uint64_t i = 0; i < 10; i++) {
        if (i == 5) pcc_mi_mark_app_limited(&t);
        cc_sent_packet p = packet(i, (int64_t)i * 1000 + (i >= 5 ? 20000 : 0));
        pcc_mi_on_sent(&t, &p);
    }
    pcc_mi_start(&t, 1e6, 0, 0, 30000);
    for (uint64_t i = 0; i < 10; i++) {
        cc_sent_packet p = packet(i, (int64_t)i * 1000 + (i >= 5 ? 20000 : 0));
        pcc_mi_on_ack(&t, &p, 20000, p.sent_time_us + 30000);
    }
    pcc_mi_result r;
    CHECK(pcc_mi_pop_result(&t, 20000, &r) == 1);
    CHECK_NEAR(r.stats.throughput_bps, r.stats.send_rate_bps, 1e-6);
    CHECK_NEAR(r.stats.duration_us, 10000, 1e-9);
}

/* MI 0 (send_ten_packets) acknowledged in two ACK frames, receiver times 15 and 20 ms (one-way offset 11 ms), then MI 1:
 * its packets from first_pn sent 100 us apart from sent_us, closed 1 ms after its first send. */
static void ten_acked_then_mi(pcc_mi_tracker *t, uint64_t first_pn, uint64_t packets, int64_t sent_us) {
    send_ten_packets(t);
    for (uint64_t i = 0; i < 10; i++) {
        cc_sent_packet p = packet(i, (int64_t)i * 1000);
        pcc_mi_on_ack(t, &p, 20000, i < 5 ? 15000 : 20000);
    }
    pcc_mi_start(t, 1e6, 0, 0, sent_us);
    for (uint64_t i = 0; i < packets; i++) {
        cc_sent_packet p = packet(first_pn + i, sent_us + (int64_t)i * 100);
        pcc_mi_on_sent(t, &p);
    }
    pcc_mi_start(t, 1e6, 0, 0, sent_us + 1000);
}

static void test_one_frame_edges(void) {
    /* One packet sent after half a second idle, alone in its frame: from its earliest arrival on nothing else came, so
     * no span of its own; it keeps the send figure (1000 B over 1 ms), not 1000 B over the 491.5 ms since 20 ms. It
     * waits for its frame's end (a neighbour acknowledged later in that frame would count). */
    pcc_mi_tracker t;
    ten_acked_then_mi(&t, 10, 1, 500000);
    cc_sent_packet p = packet(10, 500000);
    CHECK(pcc_mi_on_ack(&t, &p, 20000, 511500) == 0); /* MI 1 complete, waiting */
    pcc_mi_result r;
    CHECK(pcc_mi_pop_result(&t, 20000, &r) == 1 && r.id == 0);
    CHECK(pcc_mi_pop_result(&t, 20000, &r) == 0);
    CHECK(pcc_mi_end_frame(&t) == 1);
    CHECK(pcc_mi_pop_result(&t, 20000, &r) == 1 && r.id == 1);
    CHECK_NEAR(r.stats.throughput_bps, 8e6, 1e-6);
    /* A late frame (its time before the latest seen) tells nothing of where earlier receipts ended: the three packets
     * it acknowledged keep the send figure, 3000 B over 1 ms, at once. */
    ten_acked_then_mi(&t, 10, 3, 10000);
    for (uint64_t i = 0; i < 3; i++) {
        p = packet(10 + i, 10000 + (int64_t)i * 100);
        CHECK(pcc_mi_on_ack(&t, &p, 20000, 18000) == (i == 2));
    }
    CHECK(pcc_mi_pop_result(&t, 20000, &r) == 1 && r.id == 0);
    CHECK(pcc_mi_pop_result(&t, 20000, &r) == 1 && r.id == 1);
    CHECK_NEAR(r.stats.throughput_bps, 24e6, 1e-6);
}

static void test_stalled_sender(void) {
    /* Issue 17: a sender that paused with data waiting (not scheduled, held by a window) sent at the rate
     * over the whole MI (thesis §4.4), so the pause is part of the duration; an idle sender's pause is not. */
    CHECK_NEAR(stalled_mi_duration_us(0), 30000, 1e-9);
    CHECK_NEAR(stalled_mi_duration_us(1), 30000 - 20000, 1e-9); /* the 21 ms gap less one paced gap */
}

/* An MI of 10 packets sent 1 ms apart whose RTT rose by rtt_rise_us per ms of send time while the receiver stamped
 * them owd_rise_us per ms later than their one-way delay at the start; without receiver times, unknown. */
static pcc_mi_result one_way_delay_mi(int64_t rtt_rise_us, int64_t owd_rise_us, int with_receiver_time) {
    pcc_mi_tracker t;
    send_ten_packets(&t);
    pcc_mi_start(&t, 1e6, 0, 0, 10000);
    for (uint64_t i = 0; i < 10; i++) {
        cc_sent_packet p = packet(i, (int64_t)i * 1000);
        int64_t recv_us = with_receiver_time ? 5000000 + (int64_t)i * (1000 + owd_rise_us) : 0;
        pcc_mi_on_ack(&t, &p, 20000 + (int64_t)i * rtt_rise_us, recv_us);
    }
    pcc_mi_result r;
    CHECK(pcc_mi_pop_result(&t, 20000, &r) == 1);
    return r;
}

static void test_one_way_delay_gradient(void) {
    /* a forward queue: the one-way delay rises with the RTT */
    pcc_mi_result forward = one_way_delay_mi(200, 200, 1);
    CHECK(forward.owd_gradient_known);
    CHECK_NEAR(forward.stats.rtt_gradient, 0.2, 1e-9);
    CHECK_NEAR(forward.owd_gradient, 0.2, 1e-9);
    /* a delay after the receiver's stamp (its acks held, the return path): the RTT alone rises */
    pcc_mi_result back = one_way_delay_mi(300, 0, 1);
    CHECK_NEAR(back.stats.rtt_gradient, 0.3, 1e-9);
    CHECK_NEAR(back.owd_gradient, 0.0, 1e-9);
    CHECK(!one_way_delay_mi(300, 0, 0).owd_gradient_known);
}

/* The rate the send ceiling lets through when `asked_bps` is asked for after one closed MI of 10 packets of 1000 bytes
 * sent spacing_us apart, the initial rate 1 Mbit/s (the floor 0.1). */
static double ceiling_after_mi(int64_t spacing_us, double asked_bps) {
    cc_context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.min_rate_bytes_per_s = 0.1e6 / 8;
    ctx.max_rate_bytes_per_s = 1e9 / 8;
    ctx.initial_rate_bytes_per_s = 1e6 / 8;
    pcc_mi_tracker t;
    pcc_mi_tracker_init(&t);
    pcc_mi_start(&t, 1e6 / 8, 0, 0, 0);
    for (uint64_t i = 0; i < 10; i++) {
        cc_sent_packet p = packet(i, (int64_t)i * spacing_us);
        pcc_mi_on_sent(&t, &p);
    }
    pcc_mi_start(&t, 1e6 / 8, 0, 0, 10 * spacing_us);
    return pcc_clamp_to_send_ceiling(&ctx, &t, asked_bps / 8) * 8;
}

static void test_send_ceiling_floor(void) {
    /* 0.04 Mbit/s sent (a silence's pace): 2.5 x that is 0.1, but the ceiling stays at the initial rate */
    CHECK_NEAR(ceiling_after_mi(200000, 8e6), 1e6, 1e-6);
    /* the controller's own choice below the initial rate stands: the floor is the ceiling's, not the rate's */
    CHECK_NEAR(ceiling_after_mi(200000, 0.5e6), 0.5e6, 1e-6);
    /* 2 Mbit/s sent: the ceiling is 2.5 x that, above the initial rate */
    CHECK_NEAR(ceiling_after_mi(4000, 8e6), 5e6, 1e-6);
}

/* The lowest RTT sample an MI keeps is the lowest of those its RTT gradient is fitted to (§4.4.4: per acked packet, by
 * the MI that sent it), not the connection's min RTT nor its mean (vivace_mi_queue_stood). */
static void test_lowest_sample_is_the_mis_own(void) {
    pcc_mi_tracker t;
    pcc_mi_tracker_init(&t);
    /* MI 0 holds the connection's lowest sample (20 ms); MI 1's samples 90, 45, 70, 60 ms: its lowest is 45 */
    const int64_t rtt_ms[2][4] = {{30, 20, 25, 40}, {90, 45, 70, 60}};
    for (uint64_t k = 0; k < 2; k++) {
        CHECK(pcc_mi_start(&t, 1e6, 0, 1, (int64_t)k * 100000) != NULL);
        for (uint64_t i = 0; i < 4; i++) {
            cc_sent_packet p = packet(4 * k + i, (int64_t)k * 100000 + (int64_t)i * 10000);
            pcc_mi_on_sent(&t, &p);
        }
    }
    pcc_mi_close(&t, 200000);
    for (uint64_t k = 0; k < 2; k++) {
        for (uint64_t i = 0; i < 4; i++) {
            cc_sent_packet p = packet(4 * k + i, (int64_t)k * 100000 + (int64_t)i * 10000);
            pcc_mi_on_ack(&t, &p, rtt_ms[k][i] * 1000, 0);
        }
    }
    pcc_mi_result r;
    CHECK(pcc_mi_pop_result(&t, 20000, &r));
    CHECK(r.lowest_rtt_us == 20000);
    CHECK(pcc_mi_pop_result(&t, 20000, &r));
    CHECK(r.stats.rtt_samples == 4);
    CHECK(r.lowest_rtt_us == 45000);
    CHECK_NEAR(r.stats.avg_rtt_us, 66250, 1e-6);
}

int main(void) {
    test_one_way_delay_gradient();
    test_idle_sender();
    test_stalled_sender();
    test_receiver_clock();
    test_one_frame_edges();
    test_association_and_order();
    test_regression_by_hand();
    test_clustered_samples();
    test_timeout_and_edge_cases();
    test_send_ceiling_floor();
    test_lowest_sample_is_the_mis_own();
    return check_summary("test_monitor_interval");
}
