/* The path-silence tracker (src/path_silence.h): which ack gaps are silences of the path (a PTO from the RTT as of
 * the ack before the gap, at least CC_SILENCE_MIN_US, with data out through it), which delivery intervals span one,
 * and the receiver's forward gap. */
#include <string.h>

#include "cc_algorithm.h"
#include "check.h"
#include "path_silence.h"

static cc_sent_packet packet(int64_t sent_us, int64_t delivered_time_at_send_us, int64_t first_sent_time_at_send_us) {
    cc_sent_packet p;
    memset(&p, 0, sizeof p);
    p.bytes = 1200;
    p.sent_time_us = sent_us;
    p.delivered_time_at_send_us = delivered_time_at_send_us;
    p.first_sent_time_at_send_us = first_sent_time_at_send_us;
    return p;
}

static cc_rtt_view rtt_of(int64_t srtt_us, int64_t var_us) {
    return (cc_rtt_view){
        .latest_rtt_us = srtt_us, .smoothed_rtt_us = srtt_us, .rtt_var_us = var_us, .min_rtt_us = srtt_us};
}

/* Acks every 10 ms up to last_ack_us of packets sent 20 ms before, on a 20 ms path. */
static void steady_acks(cc_path_silence *s, int64_t last_ack_us) {
    cc_rtt_view rtt = rtt_of(20000, 1000);
    for (int64_t t = 100000; t <= last_ack_us; t += 10000) {
        cc_sent_packet p = packet(t - 20000, t - 30000, t - 30000);
        cc_path_silence_on_ack(s, &p, t - 10000, t, &rtt);
    }
}

/* A gap of the acks beyond CC_SILENCE_MIN_US with data out through it is a silence; intervals that start before its
 * end span it, later ones do not. */
static void test_ack_silence_and_spans(void) {
    cc_path_silence s;
    memset(&s, 0, sizeof s);
    steady_acks(&s, 1000000);
    CHECK(s.ack_silence_end_us == 0);
    cc_rtt_view rtt = rtt_of(20000, 1000);
    int64_t end_us = 1000000 + (int64_t)CC_SILENCE_MIN_US + 50000;
    cc_sent_packet held = packet(990000, 980000, 980000); /* sent before the gap: its delivery clock ran through it */
    cc_path_silence_on_ack(&s, &held, 0, end_us, &rtt);
    CHECK(s.ack_silence_end_us == end_us);
    CHECK(cc_path_silence_spans(&s, &held));
    cc_sent_packet sent_into_it = packet(end_us + 5000, end_us, end_us - 10); /* first_sent: a held packet's send */
    CHECK(cc_path_silence_spans(&s, &sent_into_it));
    cc_sent_packet after = packet(end_us + 30000, end_us + 20000, end_us + 20000);
    CHECK(!cc_path_silence_spans(&s, &after));
}

/* Gaps a silence is not: one shorter than CC_SILENCE_MIN_US at a short RTT, and one the application made (the flow
 * restarted from idle: the packet's delivery clock starts after the last ack). */
static void test_short_and_idle_gaps(void) {
    cc_path_silence s;
    memset(&s, 0, sizeof s);
    steady_acks(&s, 1000000);
    cc_rtt_view rtt = rtt_of(20000, 1000);
    int64_t t = 1000000 + (int64_t)CC_SILENCE_MIN_US - 10000;
    cc_sent_packet p = packet(990000, 980000, 980000);
    cc_path_silence_on_ack(&s, &p, 0, t, &rtt);
    CHECK(s.ack_silence_end_us == 0);
    t += 2000000; /* idle for 2 s: the next packet was sent from idle, after the last ack */
    cc_sent_packet from_idle = packet(t - 20000, t - 20000, t - 20000);
    cc_path_silence_on_ack(&s, &from_idle, 0, t, &rtt);
    CHECK(s.ack_silence_end_us == 0);
}

/* The limit is a PTO (sRTT + 4 rttvar) once that exceeds CC_SILENCE_MIN_US, taken from the RTT as of the ack before
 * the gap: the ack ending it, whose sample holds the silence, does not stretch it. */
static void test_limit_from_rtt_before_the_gap(void) {
    cc_path_silence s;
    memset(&s, 0, sizeof s);
    cc_rtt_view rtt = rtt_of(400000, 25000); /* PTO 500 ms */
    cc_sent_packet p = packet(600000, 590000, 590000);
    cc_path_silence_on_ack(&s, &p, 0, 1000000, &rtt);
    cc_sent_packet q = packet(700000, 1000000 - 1, 1000000 - 1);
    cc_path_silence_on_ack(&s, &q, 0, 1450000, &rtt); /* 450 ms: within the PTO */
    CHECK(s.ack_silence_end_us == 0);
    cc_rtt_view after_silence = rtt_of(3000000, 1000000); /* the late ack's own sample in the view */
    cc_sent_packet r = packet(800000, 1000000, 1000000);
    cc_path_silence_on_ack(&s, &r, 0, 1450000 + 510000, &after_silence); /* 510 ms: beyond the PTO of before */
    CHECK(s.ack_silence_end_us == 1960000);
    CHECK(s.limit_us == 3000000 + 4000000); /* the next gap is judged by this ack's view */
}

/* The forward gap: the receiver's time since the latest packet it received before; 0 without a timestamp (or a
 * forged one, which does not move the latest), negative for a packet received before the latest. */
static void test_forward_gap(void) {
    cc_path_silence s;
    memset(&s, 0, sizeof s);
    cc_rtt_view rtt = rtt_of(20000, 1000);
    cc_sent_packet p = packet(0, 0, 0);
    cc_path_silence_on_ack(&s, &p, 500000, 520000, &rtt);
    CHECK(cc_path_silence_forward_gap_us(&s) == 0); /* the first timestamp: nothing before it */
    cc_path_silence_on_ack(&s, &p, 3500000, 3520000, &rtt);
    CHECK(cc_path_silence_forward_gap_us(&s) == 3000000);
    cc_path_silence_on_ack(&s, &p, 0, 3530000, &rtt);
    CHECK(cc_path_silence_forward_gap_us(&s) == 0);
    cc_path_silence_on_ack(&s, &p, (int64_t)1 << 60, 3540000, &rtt);
    CHECK(cc_path_silence_forward_gap_us(&s) == 0);
    cc_path_silence_on_ack(&s, &p, 3510000, 3550000, &rtt);
    CHECK(cc_path_silence_forward_gap_us(&s) == 10000);
    cc_path_silence_on_ack(&s, &p, 3505000, 3560000, &rtt);
    CHECK(cc_path_silence_forward_gap_us(&s) == -5000);
    CHECK(s.last_recv_us == 3510000);
}

int main(void) {
    test_ack_silence_and_spans();
    test_short_and_idle_gaps();
    test_limit_from_rtt_before_the_gap();
    test_forward_gap();
    return check_summary("test_path_silence");
}
