/* slow_start_persistent_queue (vivace_slow_start.c; issue 18, lte-fade-cut-regain/why-tmobile.md finding 2): on
 * TMobile-LTE-short (capacity swinging 3x within 100 ms) every first slow start ended on one MI's RTT gradient, and
 * where that MI met a capacity dip before the doubling had overshot, probing started at a third to a half of the link.
 * Here, on bottleneck_link.h with a deep buffer (no loss): a 24 Mbit/s link whose capacity falls to a sixth for one MI
 * while slow start's rate first passes 6 Mbit/s. Without the rule the dip ends slow start far below the link; with it
 * the doubling goes on to the link. And on the same link without a dip (a real, persistent queue) the rule still ends
 * slow start within a few MIs of where Vivace's exit is, with the queue bounded. */
#include <stdio.h>
#include <string.h>

#include "bottleneck_link.h"
#include "check.h"
#include "pcc/cc.h"

#define LINK_BPS 24e6
#define RTT_US 40000
#define BUFFER_BYTES 3e6 /* 1 s at the link rate: a gradient, never a loss, ends slow start */
#define DIP_AT_BPS 6e6
#define DIP_SHARE (1.0 / 6.0)
#define DIP_US 40000 /* one MI (one RTT) */
#define RUN_US 3000000
#define STEP_US 5000

typedef struct start_up {
    int64_t exit_us;        /* when the state first left slow_start; -1: never */
    double exit_rate_bps;   /* the pacing rate 400 ms after that (the drain MI is over) */
    double max_queue_ms;
    int64_t dip_us;         /* when the dip began; -1: none */
} start_up;

static start_up run(const char *algorithm, int rule, int dip) {
    cc_controller *cc = cc_create(algorithm, 3, 0);
    CHECK(cc != NULL);
    if (rule >= 0) CHECK(cc_param_set(cc, "slow_start_persistent_queue", rule) == CC_OK);
    bottleneck_link *link = link_create(cc, LINK_BPS, RTT_US, BUFFER_BYTES);
    start_up out = {.exit_us = -1, .exit_rate_bps = -1, .dip_us = -1};
    for (int64_t t = STEP_US; t <= RUN_US; t += STEP_US) {
        double rate_bps = cc_pacing_rate_bytes_per_s(cc) * 8;
        if (dip && out.dip_us < 0 && rate_bps >= DIP_AT_BPS) out.dip_us = t;
        int dipping = out.dip_us >= 0 && t - out.dip_us < DIP_US;
        link->rate_bytes_per_s = (dipping ? LINK_BPS * DIP_SHARE : LINK_BPS) / 8;
        link_run(link, t);
        cc_telemetry telemetry;
        cc_get_telemetry(cc, &telemetry);
        if (out.exit_us < 0 && strcmp(telemetry.state, "slow_start") != 0) out.exit_us = t;
        if (out.exit_us >= 0 && out.exit_rate_bps < 0 && t - out.exit_us >= 400000) {
            out.exit_rate_bps = cc_pacing_rate_bytes_per_s(cc) * 8;
        }
    }
    out.max_queue_ms = link->max_queue_delay_us / 1000.0;
    CHECK(link->dropped_packets == 0);
    free(link);
    cc_destroy(cc);
    return out;
}

static void print(const char *name, start_up r) {
    printf("%-34s dip at %.3f s, slow start left at %.3f s, rate 400 ms later %.1f Mbit/s, max queue %.0f ms\n", name,
           r.dip_us * 1e-6, r.exit_us * 1e-6, r.exit_rate_bps * 1e-6, r.max_queue_ms);
}

int main(void) {
    /* one MI's capacity dip in the doubling */
    start_up dip_off = run("vivace", 0, 1), dip_on = run("vivace", 1, 1), dip_video = run("vivace-video", -1, 1);
    print("vivace, dip, rule off:", dip_off);
    print("vivace, dip, rule on:", dip_on);
    print("vivace-video (defaults), dip:", dip_video);
    CHECK(dip_off.dip_us > 0 && dip_on.dip_us > 0);
    /* without the rule the dip ends the doubling below half the link */
    CHECK(dip_off.exit_us > 0 && dip_off.exit_rate_bps < 0.5 * LINK_BPS);
    /* with it the doubling goes past the dip and ends near the link */
    CHECK(dip_on.exit_us > dip_off.exit_us && dip_on.exit_rate_bps >= 0.75 * LINK_BPS);
    /* vivace-video has it on by default */
    CHECK(dip_video.exit_rate_bps >= 0.75 * LINK_BPS);

    /* a persistent queue: the rate's own overshoot still ends slow start within a few MIs, the queue bounded */
    start_up queue_off = run("vivace", 0, 0), queue_on = run("vivace", 1, 0);
    print("vivace, no dip, rule off:", queue_off);
    print("vivace, no dip, rule on:", queue_on);
    CHECK(queue_off.exit_us > 0 && queue_on.exit_us > 0);
    CHECK(queue_on.exit_us - queue_off.exit_us <= 3 * RTT_US);
    CHECK(queue_on.exit_rate_bps >= 0.75 * LINK_BPS && queue_on.exit_rate_bps <= 1.1 * LINK_BPS);
    /* one held MI at most past Vivace's exit: the queue grows by about one MI of overshoot (at most the link's rate
     * for one RTT, slow_start_delivery_gain 2), so no more than ~2 RTTs over Vivace's maximum */
    CHECK(queue_on.max_queue_ms <= queue_off.max_queue_ms + 2.0 * RTT_US / 1000.0);
    return check_summary("test_slow_start_persistent_queue");
}
