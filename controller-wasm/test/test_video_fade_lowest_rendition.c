/* vivace-video after a capacity dip whose player fell to its lowest rendition (issue 18, lte-abr-gap): dash.js
 * abandons a segment in the dip and then fetches its lowest rendition (300 kbit/s) for 10 s with its buffer near
 * empty. The sender's rate after the dip (0.4-0.6 Mbit/s on the real path) is already above that bitrate, so the
 * starving player's restart (vivace_video.c), which went only up to the bitrate, never fired; Vivace's own fade
 * recovery waited 3.5 s for two clean probe rounds at ~1 s each while the link was back at 6 Mbit/s. With the
 * fade pending, the restart's target is the rate the fade began from, whatever the bitrate. */
#include <stdio.h>
#include <string.h>

#include "bottleneck_link.h"
#include "check.h"
#include "pcc/cc.h"

#define LINK_BPS 6e6
#define DIP_BPS 0.8e6
#define RTT_US 40000
#define LINK_BUFFER_BYTES 50000.0
#define BEFORE_US 8000000
#define DIP_US 6000000
#define AFTER_US 6000000
#define REPORT_US 250000
/* before the dip: 2 Mbit/s segments fetched back to back (500 kB a second); after it: the 300 kbit/s rendition
 * (75 kB), asked for faster than a slow sender delivers it, as a near-empty buffer makes a player do */
#define HIGH_SEGMENT_BYTES 500000.0
#define HIGH_PERIOD_US 1000000
#define LOW_BITRATE_BPS 0.3e6
#define LOW_SEGMENT_BYTES 75000.0
#define LOW_PERIOD_US 250000
#define RECOVERED_BPS 3e6
#define DELIVERED_US 2000000
#define TRACE_POINTS ((BEFORE_US + DIP_US + AFTER_US) / 10000)

typedef struct recovery {
    int64_t recovered_us;     /* from the link's return until the pacing rate first reaches RECOVERED_BPS; -1: never */
    double delivered_bps;     /* over the DELIVERED_US after the return */
    double peak_rate_bps;     /* the highest pacing rate after the return */
    double rate_before_dip_bps;
} recovery;

static recovery run(double buffer_ms, int restart, double *rates_out) {
    cc_controller *cc = cc_create("vivace-video", 3, 0);
    CHECK(cc != NULL);
    CHECK(cc_param_set(cc, "video_starved_restart", restart) == CC_OK);
    bottleneck_link *link = link_create(cc, LINK_BPS, RTT_US, LINK_BUFFER_BYTES);
    link->app_segment_period_us = HIGH_PERIOD_US;
    link->app_segment_bytes = HIGH_SEGMENT_BYTES;
    int64_t dip_us = BEFORE_US, returned_us = BEFORE_US + DIP_US;
    recovery out = {.recovered_us = -1};
    size_t index = 0;
    uint64_t delivered_at_return = 0, delivered_after = 0;
    for (int64_t t = 10000; t <= returned_us + AFTER_US; t += 10000) {
        int low = t > dip_us;
        link->rate_bytes_per_s = (low && t <= returned_us ? DIP_BPS : LINK_BPS) / 8;
        if (low) {
            link->app_segment_period_us = LOW_PERIOD_US;
            link->app_segment_bytes = LOW_SEGMENT_BYTES;
        }
        if (t % REPORT_US == 0) {
            cc_app_state state = {.app_limited = 0, .buffer_ms = buffer_ms, .bitrate_bps = low ? LOW_BITRATE_BPS : 2e6,
                                  .deadline_us = CC_APP_UNKNOWN};
            cc_on_app_state(cc, &state, link->now_us);
        }
        if (t == returned_us) delivered_at_return = link->delivered_bytes;
        link_run(link, t);
        if (t == returned_us + DELIVERED_US) delivered_after = link->delivered_bytes;
        double rate_bps = cc_pacing_rate_bytes_per_s(cc) * 8;
        if (rates_out != NULL && index < TRACE_POINTS) rates_out[index++] = rate_bps;
        if (t == dip_us) out.rate_before_dip_bps = rate_bps;
        if (t > returned_us) {
            if (out.recovered_us < 0 && rate_bps >= RECOVERED_BPS) out.recovered_us = t - returned_us;
            if (rate_bps > out.peak_rate_bps) out.peak_rate_bps = rate_bps;
        }
    }
    out.delivered_bps = (double)(delivered_after - delivered_at_return) * 8 / (DELIVERED_US * 1e-6);
    free(link);
    cc_destroy(cc);
    return out;
}

static void test_starving_player_at_lowest_rendition_recovers(void) {
    recovery on = run(1300, 1, NULL), off = run(1300, 0, NULL);
    printf("6 Mbit/s, 6 s dip to 0.8, then 300 kbit/s segments at a 1.3 s buffer: %.2f Mbit/s before the dip; "
           "3 Mbit/s %.2f s after the return with the restart, %.2f s without (-1: never); delivered over the first 2 s "
           "%.2f vs %.2f Mbit/s; peak %.2f Mbit/s\n",
           on.rate_before_dip_bps * 1e-6, on.recovered_us * 1e-6, off.recovered_us * 1e-6, on.delivered_bps * 1e-6,
           off.delivered_bps * 1e-6, on.peak_rate_bps * 1e-6);
    CHECK(on.recovered_us >= 0);
    CHECK(off.recovered_us < 0 || on.recovered_us < off.recovered_us);
    CHECK(on.delivered_bps > off.delivered_bps);
    /* up to the rate the fade began from, not past it into a queue: the doubling's target and its delivery cap */
    CHECK(on.peak_rate_bps <= 2.0 * LINK_BPS);
}

static void test_healthy_buffer_is_left_to_vivace(void) {
    static double on[TRACE_POINTS], off[TRACE_POINTS];
    run(20000, 1, on);
    run(20000, 0, off);
    CHECK(memcmp(on, off, sizeof on) == 0);
}

int main(void) {
    test_starving_player_at_lowest_rendition_recovers();
    test_healthy_buffer_is_left_to_vivace();
    return check_summary("test_video_fade_lowest_rendition");
}
