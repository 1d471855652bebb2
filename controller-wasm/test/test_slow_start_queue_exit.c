/* Issue 17's 1 MB buffer (100 Mbit/s, 30 ms): the first slow start's overshoot. §4.4's slow start learns that a rate
 * overshot only from a finished MI's utility; on the real path an MI at 191 Mbit/s finished 190 ms late behind the
 * queue it built while four more went out at 209, and the 1 MB buffer filled (vivace_slow_start.c,
 * vivace_slow_start_on_ack). With slow_start_queue_exit = 0.5 the first slow start ends on the 8th ack in a row whose
 * forward queue (one-way delay on the receiver's clock over its lowest) exceeds half the min RTT, before any MI
 * finished; 7 such acks, a queue below the threshold, the parameter at 0, or a recovery's slow start leave it
 * running. Driven through the public API on Vivace's own state: packets every 100 µs (1200 B, 96 Mbit/s), each
 * acknowledged 30 ms after it was sent plus its queue. */
#include <stdio.h>

#include "algorithms/vivace_state.h"
#include "check.h"
#include "vivace_capture.h"

#define MBPS (1e6 / 8.0) /* bytes/s per Mbit/s */
#define ONE_WAY_US 15000
#define RECEIVER_CLOCK_US 7000000 /* the receiver's clock is unrelated to ours */

/* Sends 400 packets; acknowledges the first 20 with no queue, then `queued` with queue_us of forward queue (the
 * RTT grows with it). recovery: the slow start is an MI-timeout recovery's. Returns the phase after. */
static vivace_phase after_acks(double queue_exit, int recovery, int queued, int64_t queue_us, double *base_rate) {
    cc_controller *cc = cc_create_with_ops(&capturing_ops, 1, 0);
    CHECK(cc != NULL && captured != NULL);
    vivace_state *s = captured;
    CHECK(cc_param_set(cc, "slow_start_queue_exit", queue_exit) == CC_OK);
    int64_t t = 1000;
    for (uint64_t pn = 0; pn < 400; pn++) cc_on_packet_sent(cc, pn, 1200, t + (int64_t)pn * 100);
    if (recovery) s->recovery_target = 200 * MBPS;
    s->slow_start_have_best = 1;
    s->slow_start_best_rate = 40 * MBPS;
    for (uint64_t pn = 0; pn < (uint64_t)(20 + queued); pn++) {
        int64_t sent_us = t + (int64_t)pn * 100, queue = pn < 20 ? 0 : queue_us;
        cc_on_ack(cc, pn, 2 * ONE_WAY_US + queue, RECEIVER_CLOCK_US + sent_us + ONE_WAY_US + queue,
                  sent_us + 2 * ONE_WAY_US + queue);
    }
    vivace_phase phase = s->phase;
    *base_rate = s->base_rate;
    cc_destroy(cc);
    return phase;
}

int main(void) {
    double base = 0;
    /* the rule: 8 acks in a row 20 ms behind a queue (above 0.5 x 30 ms) end the first slow start */
    CHECK(after_acks(0.5, 0, 8, 20000, &base) == STATE_PROBING);
    fprintf(stderr, "8 queued acks: probing from %.1f Mbit/s\n", base / MBPS);
    CHECK(base >= 40 * MBPS); /* no lower than the best MI's rate */
    /* 7 are not enough; a 10 ms queue is below the threshold; 0 is the thesis's slow start; a recovery keeps its own
     * exits */
    CHECK(after_acks(0.5, 0, 7, 20000, &base) == STATE_SLOW_START);
    CHECK(after_acks(0.5, 0, 30, 10000, &base) == STATE_SLOW_START);
    CHECK(after_acks(0, 0, 30, 20000, &base) == STATE_SLOW_START);
    CHECK(after_acks(0.5, 1, 30, 20000, &base) == STATE_SLOW_START);
    return check_summary("test_slow_start_queue_exit");
}
