/*
 * An MI timeout on a stall that cleared before the halving (vivace_timeout.c, cleared_before_halving): the acks of a
 * 15 Mbit/s video stream stop for 300 ms and then come back on time, as in Chromium on the seed-changing-rtt suite
 * (bench/published/2026-11-25/changing-rtt-halving: the receiving host read and acknowledged nothing for 200-400 ms
 * while the link queue stayed under 13 ms). The MI timeout (5 min RTTs = 200 ms here) halves the rate; the acks of
 * the packets sent just before the halving then come back on time through an empty forward path, so the delay cleared
 * while the sender still sent the rate that timed out, and the halving is undone. For contrast, the capacity falls to
 * a quarter of the rate for 2 s (the sender's own queue): those cuts stand.
 */
#include <stdio.h>
#include <string.h>

#include "bottleneck_link.h"
#include "check.h"
#include "pcc/cc.h"

#define LINK_BPS 16.5e6
#define VIDEO_BPS 15e6
#define EVENT_US 10000000
#define HELD_UNTIL_US 10300000    /* the acks' stall: 300 ms */
#define CAPACITY_DROP_BPS 4e6
#define CAPACITY_BACK_US 12000000
#define STEP_US 10000

enum event { NONE, ACKS_HELD, CAPACITY_DROP };

/* The lowest pacing rate over the 2 s after the stall, bit/s: 16.5 Mbit/s, 40 ms, 300 KB; the sender offers 2 s
 * segments of 15 Mbit/s video, and vivace-video hears of a player holding 0.4 s. */
static double lowest_rate_after(const char *algorithm, enum event event) {
    cc_controller *cc = cc_create(algorithm, 5, 0);
    bottleneck_link *link = link_create(cc, LINK_BPS, 40000, 300e3);
    link->app_segment_period_us = 2000000;
    link->app_segment_bytes = VIDEO_BPS / 8 * 2;
    if (event == ACKS_HELD) {
        link->ack_outage_from_us = EVENT_US;
        link->ack_outage_until_us = HELD_UNTIL_US;
    }
    int video = strcmp(algorithm, "vivace-video") == 0;
    double lowest_bps = 1e18;
    for (int64_t t = 0; t < HELD_UNTIL_US + 2000000; t += STEP_US) {
        if (event == CAPACITY_DROP && t == EVENT_US) link->rate_bytes_per_s = CAPACITY_DROP_BPS / 8;
        if (event == CAPACITY_DROP && t == CAPACITY_BACK_US) link->rate_bytes_per_s = LINK_BPS / 8;
        if (video) {
            cc_app_state state = {.app_limited = 0, .buffer_ms = 400, .bitrate_bps = VIDEO_BPS, .deadline_us = CC_APP_UNKNOWN};
            cc_on_app_state(cc, &state, link->now_us);
        }
        link_run(link, t + STEP_US);
        double rate_bps = cc_pacing_rate_bytes_per_s(cc) * 8;
        if (t >= HELD_UNTIL_US && rate_bps < lowest_bps) lowest_bps = rate_bps;
    }
    free(link);
    cc_destroy(cc);
    return lowest_bps;
}

int main(void) {
    const char *algorithms[] = {"vivace", "vivace-video"};
    for (size_t i = 0; i < sizeof algorithms / sizeof algorithms[0]; i++) {
        double none = lowest_rate_after(algorithms[i], NONE);
        double held = lowest_rate_after(algorithms[i], ACKS_HELD);
        double drop = lowest_rate_after(algorithms[i], CAPACITY_DROP);
        printf("%s, lowest rate in the 2 s after: %.2f Mbit/s with no event, %.2f after acks held 300 ms, %.2f after the "
               "capacity fell to %.0f Mbit/s\n",
               algorithms[i], none / 1e6, held / 1e6, drop / 1e6, CAPACITY_DROP_BPS / 1e6);
        fflush(stdout);
        /* Kept, the halving left 7.76 (vivace) and 7.82 (vivace-video) Mbit/s, and the gradient climbed back from there */
        CHECK(held > 0.9 * none);
        /* The sender's own queue: the packets sent before the halving met it, the halvings stand */
        CHECK(drop < 1.5 * CAPACITY_DROP_BPS);
    }
    return check_summary("test_timeout_stall_cleared");
}
