/* vivace-video's fade cut (vivace_video.c, video_fade_cut; issue 18, lte-abr-fix/why-gap.md §2): on the real path
 * (Verizon-LTE-short) capacity fell 3-4x while a large request was in flight and vivace-video's rate stayed at 2.6-3.8x
 * the capacity for seconds, filling the 300-kB droptail (1.4 s of queue). Here: an 8 Mbit/s link (40 ms, 300 kB) falls
 * to 1.5 Mbit/s in one step while a player with 1.5 s of buffer fetches a 4 Mbit/s rendition; the sender always has
 * data. With the rule the rate must be at the capacity within FADE_FOLLOW_US of the step (without it: 2.8 s) and the
 * queue must stay shorter than without it.
 * And no false drop: on a flat link with 0-30 ms of ack-timing noise (bottleneck_link.h's ack_lateness_us: a mean
 * above the real path's 8 ms median, lte-post-fade-sim) the rule must deliver what the controller without it does. */
#include <stdio.h>

#include "bottleneck_link.h"
#include "check.h"
#include "pcc/cc.h"

#define RTT_US 40000
#define BUFFER_BYTES 300000.0
#define LINK_BPS 8e6
#define FADED_BPS 1.5e6
#define FADE_AT_US 10000000
#define FADE_UNTIL_US 14000000
/* The rate must be within FOLLOW_SHARE x the faded capacity this soon after the step (the cut waits for 2 min RTTs
 * of acks behind the queue the step built). */
#define FADE_FOLLOW_US 1000000
#define FOLLOW_SHARE 1.25
#define REPORT_US 250000
#define BUFFER_MS 1500
#define BITRATE_BPS 4e6
#define NOISE_US 30000
#define FLAT_BPS 6e6
#define FLAT_RUN_US 20000000
#define FLAT_MEASURE_FROM_US 5000000

typedef struct fade_run {
    int64_t followed_us;      /* from the step until the rate first is within FOLLOW_SHARE x the capacity; -1: never */
    double max_queue_delay_us; /* in the fade */
    double delivered_bps;      /* flat link: from FLAT_MEASURE_FROM_US */
} fade_run;

static cc_controller *create(int rule) {
    cc_controller *cc = cc_create("vivace-video", 5, 0);
    CHECK(cc != NULL);
    CHECK(cc_param_set(cc, "video_fade_cut", rule) == CC_OK);
    return cc;
}

static void report_player(cc_controller *cc, int64_t now_us) {
    cc_app_state state = {.app_limited = 0, .buffer_ms = BUFFER_MS, .bitrate_bps = BITRATE_BPS, .deadline_us = CC_APP_UNKNOWN};
    cc_on_app_state(cc, &state, now_us);
}

static fade_run run_fade(int rule) {
    cc_controller *cc = create(rule);
    bottleneck_link *link = link_create(cc, LINK_BPS, RTT_US, BUFFER_BYTES);
    fade_run out = {.followed_us = -1};
    for (int64_t t = 10000; t <= FADE_UNTIL_US; t += 10000) {
        if (t == FADE_AT_US) {
            link->rate_bytes_per_s = FADED_BPS / 8;
            link->max_queue_delay_us = 0;
        }
        if (t % REPORT_US == 0) report_player(cc, link->now_us);
        link_run(link, t);
        if (t <= FADE_AT_US) continue;
        if (out.followed_us < 0 && cc_pacing_rate_bytes_per_s(cc) * 8 <= FOLLOW_SHARE * FADED_BPS) out.followed_us = t - FADE_AT_US;
    }
    out.max_queue_delay_us = link->max_queue_delay_us;
    free(link);
    cc_destroy(cc);
    return out;
}

static fade_run run_flat_noisy(int rule) {
    cc_controller *cc = create(rule);
    bottleneck_link *link = link_create(cc, FLAT_BPS, RTT_US, BUFFER_BYTES);
    link->ack_lateness_us = NOISE_US;
    fade_run out = {.followed_us = -1};
    uint64_t delivered_before = 0;
    for (int64_t t = 10000; t <= FLAT_RUN_US; t += 10000) {
        if (t % REPORT_US == 0) report_player(cc, link->now_us);
        link_run(link, t);
        if (t == FLAT_MEASURE_FROM_US) delivered_before = link->delivered_bytes;
    }
    out.delivered_bps = (double)(link->delivered_bytes - delivered_before) * 8 / ((FLAT_RUN_US - FLAT_MEASURE_FROM_US) * 1e-6);
    free(link);
    cc_destroy(cc);
    return out;
}

int main(void) {
    fade_run on = run_fade(1), off = run_fade(0);
    printf("vivace-video, %.0f -> %.1f Mbit/s with a 1.5-s player buffer: rate within %.2fx of the capacity after %.2f / %.2f s "
           "(on / off; -1: not within %.0f s), longest queue in the fade %.0f / %.0f ms\n",
           LINK_BPS * 1e-6, FADED_BPS * 1e-6, FOLLOW_SHARE, on.followed_us < 0 ? -1.0 : on.followed_us * 1e-6, off.followed_us < 0 ? -1.0 : off.followed_us * 1e-6,
           (FADE_UNTIL_US - FADE_AT_US) * 1e-6, on.max_queue_delay_us / 1000, off.max_queue_delay_us / 1000);
    fflush(stdout);
    CHECK(on.followed_us >= 0 && on.followed_us <= FADE_FOLLOW_US);
    CHECK(on.max_queue_delay_us < off.max_queue_delay_us);

    fade_run flat_on = run_flat_noisy(1), flat_off = run_flat_noisy(0);
    printf("vivace-video, flat %.0f Mbit/s with 0-%d ms of ack-timing noise: delivered %.2f / %.2f Mbit/s (on / off)\n",
           FLAT_BPS * 1e-6, NOISE_US / 1000, flat_on.delivered_bps * 1e-6, flat_off.delivered_bps * 1e-6);
    CHECK(flat_on.delivered_bps >= 0.95 * flat_off.delivered_bps);
    CHECK(flat_on.delivered_bps >= 0.8 * FLAT_BPS);
    return check_summary("test_video_fade_cut");
}
