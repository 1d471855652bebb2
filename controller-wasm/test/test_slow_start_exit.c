/* Where a recovery's slow start exits to (vivace_slow_start.c, exit_delivered), driven one MI result at a time on
 * Vivace's own state (a controller made from VIVACE_OPS keeps a pointer to it). A recovery that doubles back toward
 * a rate the path carried meets a utility drop on an MI that sent its rate, lost nothing and delivered it with a
 * jitter-level RTT gradient: it must continue at about what that MI delivered (less ε and its queue), not at the
 * best MI's rate a doubling below; without a recovery, or when the MI lost nothing and delivered less than it sent,
 * the best rate stays the fallback (§4.4). */
#include <math.h>
#include <stdio.h>

#include "algorithms/vivace_state.h"
#include "check.h"
#include "vivace_capture.h"

#define MBPS (1e6 / 8.0) /* bytes/s per Mbit/s */
#define MIN_RTT_US 40000.0
#define AVG_RTT_US 44000.0

/* A slow-start MI's result at rate_mbps that sent its rate and lost nothing; delivered_share of it got through. */
static pcc_mi_result slow_start_mi(double rate_mbps, double delivered_share, double rtt_gradient, uint32_t lost) {
    pcc_mi_result r = {.tag = VIVACE_TAG_SLOW_START};
    r.stats.target_rate_bps = r.stats.send_rate_bps = rate_mbps * 1e6;
    r.stats.throughput_bps = delivered_share * rate_mbps * 1e6;
    r.stats.rtt_gradient = rtt_gradient;
    r.stats.avg_rtt_us = AVG_RTT_US;
    r.stats.min_rtt_us = MIN_RTT_US;
    r.stats.packets_sent = 20;
    r.stats.packets_lost = lost;
    r.stats.packets_acked = 20 - lost;
    r.stats.loss_rate = lost / 20.0;
    return r;
}

/* Slow start (a recovery up to recovery_target_mbps, or the first when 0) takes a rising MI at 2 Mbit/s, then a
 * drop at 4 Mbit/s (the given result); returns the rate it continues at, Mbit/s. */
static double exit_rate_mbps(double recovery_target_mbps, pcc_mi_result drop) {
    cc_controller *cc = cc_create_with_ops(&capturing_ops, 1, 0);
    CHECK(cc != NULL && captured != NULL);
    vivace_state *s = captured;
    if (recovery_target_mbps > 0) vivace_reenter_slow_start(s, recovery_target_mbps * MBPS);
    pcc_mi_result rising = slow_start_mi(2.0, 1.0, 0.0, 0);
    vivace_on_slow_start_result(s, &rising, 100.0, 1.0);
    CHECK(s->phase == STATE_SLOW_START);
    vivace_on_slow_start_result(s, &drop, -100.0, 1.0);
    double rate_mbps = s->phase == STATE_SLOW_START ? NAN : s->base_rate / MBPS;
    cc_destroy(cc);
    return rate_mbps;
}

int main(void) {
    /* within a doubling of the target (near_carried_rate: the gradient is not forgiven), so the drop ends it */
    double delivered_mbps = 4.0 * (1.0 - 0.05) * MIN_RTT_US / AVG_RTT_US;
    double recovery = exit_rate_mbps(6.0, slow_start_mi(4.0, 1.0, 0.05, 0));
    fprintf(stderr, "recovery, clean exit MI: %.3f Mbit/s (delivered less eps and queue %.3f)\n", recovery, delivered_mbps);
    CHECK(fabs(recovery - delivered_mbps) < 1e-9);
    /* the same MI in the first slow start: a deep buffer still filling, the best rate drains it */
    double first = exit_rate_mbps(0.0, slow_start_mi(4.0, 1.0, 0.2, 0));
    fprintf(stderr, "first slow start, no loss: %.3f Mbit/s\n", first);
    CHECK(fabs(first - 2.0) < 1e-9);
    /* a recovery's MI that delivered clearly less than it sent is a queue, not jitter: the best rate */
    double queued = exit_rate_mbps(6.0, slow_start_mi(4.0, 0.8, 0.05, 0));
    fprintf(stderr, "recovery, MI short of what it sent: %.3f Mbit/s\n", queued);
    CHECK(fabs(queued - 2.0) < 1e-9);
    return check_summary("test_slow_start_exit");
}
