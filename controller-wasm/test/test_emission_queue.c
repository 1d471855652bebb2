/* The RTT gradient the sender's own unevenness explains (monitor_interval.c, emission_gradient) and what Vivace's
 * latency term charges of it (vivace_utility.c): issue 17's 75 KB runs, where 80 % of the lossless MIs the term
 * charged were sent below the link's capacity, and the queue linkem held rose in them after a late send turn's
 * catch-up (bench/published/2026-11-25/latency-noise-source). */
#include <math.h>
#include <stdio.h>

#include "algorithms/vivace_state.h"
#include "check.h"
#include "monitor_interval.h"
#include "vivace_capture.h"

#define PACKET_BYTES 1000
#define RATE_BYTES_PER_S 10e6 /* 100 us a packet */
#define PACKETS 200

/* An MI of PACKETS packets at RATE_BYTES_PER_S; with a stall, packets 80-99 wait until the 100th's paced time and
 * leave at once (a late send turn, then its catch-up). Every ack comes back with rtt_us(i). */
static pcc_mi_result sent_mi(int stall, double rtt_rise_us_per_packet) {
    pcc_mi_tracker t;
    pcc_mi_tracker_init(&t);
    CHECK(pcc_mi_start(&t, RATE_BYTES_PER_S, VIVACE_TAG_PROBE_FIRST, 0, 0) != NULL); /* slow start keeps the whole gradient */
    cc_sent_packet sent[PACKETS];
    for (int i = 0; i < PACKETS; i++) {
        int64_t at_us = (int64_t)i * 100;
        if (stall && i >= 80 && i < 100) at_us = 100 * 100;
        sent[i] = (cc_sent_packet){.pn = (uint64_t)i, .bytes = PACKET_BYTES, .sent_time_us = at_us};
        pcc_mi_on_sent(&t, &sent[i]);
    }
    pcc_mi_close(&t, PACKETS * 100);
    for (int i = 0; i < PACKETS; i++) pcc_mi_on_ack(&t, &sent[i], 30000 + (int64_t)(rtt_rise_us_per_packet * i), 0);
    pcc_mi_result r;
    CHECK(pcc_mi_pop_result(&t, 30000, &r) == 1);
    return r;
}

static void test_emission_gradient(void) {
    /* evenly paced: one packet's queue throughout, flat */
    CHECK_NEAR(sent_mi(0, 0).emission_gradient, 0.0, 1e-12);
    /* the catch-up leaves 20 packets (2 ms) queued at the target rate, for the rest of the MI: a rising slope */
    pcc_mi_result stalled = sent_mi(1, 0);
    fprintf(stderr, "emission gradient after a 2-ms stall and catch-up: %.4f\n", stalled.emission_gradient);
    CHECK(stalled.emission_gradient > 0.05);
}

/* Vivace's utility of an MI whose RTT rose by rtt_rise_us_per_packet per packet (100 us). */
static double utility(int stall, double rtt_rise_us_per_packet) {
    cc_controller *cc = cc_create_with_ops(&capturing_ops, 1, 0);
    CHECK(cc != NULL && captured != NULL);
    vivace_enter_probing(captured, RATE_BYTES_PER_S);
    pcc_mi_result r = sent_mi(stall, rtt_rise_us_per_packet);
    double noise_var = 0;
    double u = vivace_mi_utility(captured, &r, &noise_var);
    cc_destroy(cc);
    return u;
}

static void test_latency_term(void) {
    double x = RATE_BYTES_PER_S * 8e-6; /* the MI's send rate, Mbit/s (closed at the 200th paced time) */
    double reward = pow(x, 0.9);
    /* no queue: the reward alone */
    CHECK_NEAR(utility(0, 0), reward, 1e-6);
    /* a rising RTT from an even sender (a rate above the capacity): charged in full, 900 x 0.03 */
    CHECK_NEAR(utility(0, 3.0), reward - 900 * x * 0.03, 1e-6);
    /* the same rise after a stall and its catch-up: what the catch-up explains is not charged (the stalled MI's RTTs
     * are those of the even one, so its whole slope is within what its emission explains only in part) */
    pcc_mi_result stalled = sent_mi(1, 3.0);
    double explained = stalled.emission_gradient - 1.0 / PACKETS;
    double expected = stalled.stats.rtt_gradient > explained ? stalled.stats.rtt_gradient - explained : 0.0;
    CHECK_NEAR(utility(1, 3.0), reward - 900 * x * expected, 1e-6);
    CHECK(utility(1, 3.0) > utility(0, 3.0));
    /* a slow-start MI keeps the whole gradient */
    pcc_mi_result slow = sent_mi(1, 3.0);
    slow.tag = VIVACE_TAG_SLOW_START;
    cc_controller *cc = cc_create_with_ops(&capturing_ops, 1, 0);
    double noise_var = 0;
    CHECK(vivace_mi_utility(captured, &slow, &noise_var) < vivace_mi_utility(captured, &stalled, &noise_var));
    cc_destroy(cc);
}

int main(void) {
    test_emission_gradient();
    test_latency_term();
    return check_summary("test_emission_queue");
}
