/* Issue 17's startup target: the first slow start must not end on an MI the sender fell short in (descheduled on a
 * loaded host) when it sent no faster than slow start's acks had already seen the path deliver, even with an RTT
 * gradient beyond the jitter allowance (vivace_slow_start.c, measurement_error_only). Recorded on the real path
 * (100 Mbit/s, 30 ms, load 7.5): an MI at 42.1 Mbit/s sent 21.6 with g = 0.14 after the acks had measured ~24, and
 * slow start ended at 42 Mbit/s. Driven one MI result at a time on Vivace's own state. The same MI ends slow start
 * when it sent faster than the path was seen to deliver (it may have queued at the bottleneck), and so does an MI
 * that sent its whole rate. */
#include <math.h>
#include <stdio.h>

#include "algorithms/vivace_state.h"
#include "check.h"
#include "vivace_capture.h"

#define MBPS (1e6 / 8.0) /* bytes/s per Mbit/s */

/* A slow-start MI result: target and sent rates, Mbit/s, all of it delivered, nothing lost, this RTT gradient. */
static pcc_mi_result slow_start_mi(double target_mbps, double sent_mbps, double rtt_gradient) {
    pcc_mi_result r = {.tag = VIVACE_TAG_SLOW_START};
    r.stats.target_rate_bps = target_mbps * 1e6;
    r.stats.send_rate_bps = r.stats.throughput_bps = sent_mbps * 1e6;
    r.stats.rtt_gradient = rtt_gradient;
    r.stats.avg_rtt_us = 32000.0;
    r.stats.min_rtt_us = 30500.0;
    r.stats.packets_sent = r.stats.packets_acked = 60;
    return r;
}

/* First slow start with the acks' delivery rate at delivery_mbps: a rising MI at 23.3 Mbit/s, then a utility drop on
 * the given MI. Returns whether slow start goes on. */
static int goes_on(double delivery_mbps, pcc_mi_result drop) {
    cc_controller *cc = cc_create_with_ops(&capturing_ops, 1, 0);
    CHECK(cc != NULL && captured != NULL);
    vivace_state *s = captured;
    s->delivery_max = delivery_mbps * MBPS;
    pcc_mi_result rising = slow_start_mi(23.3, 23.3, 0.0);
    vivace_on_slow_start_result(s, &rising, 17.0, 1.0);
    CHECK(s->phase == STATE_SLOW_START);
    vivace_on_slow_start_result(s, &drop, -2700.0, 1.0);
    int on = s->phase == STATE_SLOW_START;
    cc_destroy(cc);
    return on;
}

int main(void) {
    /* the recorded case: sent 21.6 of 42.1, g 0.14, the acks had measured 23.8 */
    int stalled = goes_on(23.8, slow_start_mi(42.1, 21.6, 0.14));
    fprintf(stderr, "sender short, sent below the measured delivery rate: %s\n", stalled ? "goes on" : "ended");
    CHECK(stalled);
    /* the same MI when the path was seen to deliver less than it sent: a bottleneck queue is possible */
    int above = goes_on(15.0, slow_start_mi(42.1, 21.6, 0.14));
    fprintf(stderr, "sender short, sent above the measured delivery rate: %s\n", above ? "goes on" : "ended");
    CHECK(!above);
    /* an MI that sent its rate with that gradient: a queue */
    int full = goes_on(23.8, slow_start_mi(42.1, 42.1, 0.14));
    fprintf(stderr, "sent its rate: %s\n", full ? "goes on" : "ended");
    CHECK(!full);
    return check_summary("test_startup_sender_short");
}
