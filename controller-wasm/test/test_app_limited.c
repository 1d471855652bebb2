/* The app-limited rule (src/validated_rate.h) for every rate-based controller but `fixed`: a sender that could
 * not fill its rate keeps no rate it never validated. A flow at ~40 Mbit/s turns into a video sender (5 Mbit/s in
 * 2 s segments, paced at the controller's rate) for 10 s while the link varies like LTE (8-20 Mbit/s), then has
 * bulk data again: its first rate must be near the delivery rate it measured, not the 40 Mbit/s of before. */
#include <stdio.h>
#include <string.h>

#include "bottleneck_link.h"
#include "check.h"
#include "pcc/cc.h"

#define RTT_US 40000
#define BULK_RATE_BPS 40e6
#define VIDEO_RATE_BPS 5e6
#define SEGMENT_US 2000000
#define VIDEO_US 10000000
/* LTE-like capacity, Mbit/s, one value per 500 ms (the shape of a cellular trace: swings of 2x within seconds). */
static const double lte_mbps[] = {14, 9, 18, 12, 8, 16, 20, 11, 9, 13, 17, 10, 8, 15, 19, 12, 9, 14, 11, 10};
#define LTE_STEP_US 500000
/* After the video spell the link settles at this capacity. */
#define RESUME_LINK_BPS 12e6

typedef struct resume_result {
    double before_bps;      /* pacing rate at the end of the bulk spell */
    double first_bps;       /* pacing rate of the first packets of bulk data after the video spell */
    double delivered_bps;   /* what the link delivered in the video spell's last two segments */
} resume_result;

static resume_result run(const char *algorithm) {
    cc_controller *cc = cc_create(algorithm, 3, 0);
    CHECK(cc != NULL);
    CHECK(cc_param_set(cc, "max_rate_bps", BULK_RATE_BPS) == CC_OK);
    bottleneck_link *link = link_create(cc, 50e6, RTT_US, 50e6 / 8 * RTT_US * 1e-6);
    link_run(link, 6000000);
    resume_result r = {.before_bps = cc_pacing_rate_bytes_per_s(cc) * 8};
    /* video: a segment every 2 s */
    link->app_segment_period_us = SEGMENT_US;
    link->app_segment_bytes = VIDEO_RATE_BPS / 8 * SEGMENT_US * 1e-6;
    link->app_next_segment_us = link->now_us;
    int64_t start_us = link->now_us;
    for (size_t i = 0; i < sizeof lte_mbps / sizeof lte_mbps[0]; i++) {
        link->rate_bytes_per_s = lte_mbps[i] * 1e6 / 8;
        if ((int64_t)i * LTE_STEP_US == VIDEO_US - 2 * 2 * SEGMENT_US) link_reset_stats(link);
        link_run(link, start_us + (int64_t)(i + 1) * LTE_STEP_US);
    }
    r.delivered_bps = (double)link->delivered_bytes * 8 / (2 * SEGMENT_US * 1e-6 * 2);
    /* bulk again, after the last segment has gone out */
    link->rate_bytes_per_s = RESUME_LINK_BPS / 8;
    link->app_segment_period_us = 0;
    link_run(link, link->now_us + 2000);
    r.first_bps = cc_pacing_rate_bytes_per_s(cc) * 8;
    free(link);
    cc_destroy(cc);
    return r;
}

/* A session's first packets are a few control packets (the WebTransport session, a request), sent app-limited at a
 * pace far below the initial rate: their delivery rate is the application's, not the path's. Their samples
 * validate nothing (validated_rate.c), so the MIs they fill do not cap a start-up phase at 2x their rate. Returns
 * the pacing rate when bulk data begins, and the rate 1 s later, bits/s. */
#define CONTROL_RATE_BPS 0.1e6
#define CONTROL_US 1500000
static void control_only_start(const char *algorithm, double *at_data_bps, double *after_bps) {
    cc_controller *cc = cc_create(algorithm, 3, 0);
    CHECK(cc != NULL);
    bottleneck_link *link = link_create(cc, 20e6, RTT_US, 20e6 / 8 * RTT_US * 1e-6);
    link->app_rate_bytes_per_s = CONTROL_RATE_BPS / 8;
    link_run(link, CONTROL_US);
    *at_data_bps = cc_pacing_rate_bytes_per_s(cc) * 8;
    link->app_rate_bytes_per_s = 0;
    link_run(link, CONTROL_US + 1000000);
    *after_bps = cc_pacing_rate_bytes_per_s(cc) * 8;
    free(link);
    cc_destroy(cc);
}

int main(void) {
    const char *const rate_based[] = {"vivace", "vivace-loss", "allegro", "pcp"};
    for (size_t i = 0; i < sizeof rate_based / sizeof rate_based[0]; i++) {
        resume_result r = run(rate_based[i]);
        printf("%s: %.1f Mbit/s before, video delivered %.1f Mbit/s, first rate after the video spell %.1f Mbit/s\n",
               rate_based[i], r.before_bps * 1e-6, r.delivered_bps * 1e-6, r.first_bps * 1e-6);
        fflush(stdout);
        CHECK(r.before_bps > 30e6);       /* the flow had a rate to lose */
        CHECK(r.first_bps < 2.0 * RESUME_LINK_BPS);
        CHECK(r.first_bps < 0.5 * r.before_bps);
    }
    const char *const starting[] = {"vivace", "vivace-video", "allegro"};
    for (size_t i = 0; i < sizeof starting / sizeof starting[0]; i++) {
        double initial_bps = 0, at_data_bps, after_bps;
        cc_controller *probe = cc_create(starting[i], 3, 0);
        CHECK(probe != NULL && cc_param_get(probe, "initial_rate_bps", &initial_bps) == CC_OK);
        cc_destroy(probe);
        control_only_start(starting[i], &at_data_bps, &after_bps);
        printf("%s: control packets only for %.1f s: %.2f Mbit/s when data begins (initial %.2f), %.2f Mbit/s 1 s later\n",
               starting[i], CONTROL_US * 1e-6, at_data_bps * 1e-6, initial_bps * 1e-6, after_bps * 1e-6);
        fflush(stdout);
        CHECK(at_data_bps >= initial_bps);
        CHECK(after_bps > 4.0 * initial_bps); /* slow start went on from there */
    }
    return check_summary("test_app_limited");
}
