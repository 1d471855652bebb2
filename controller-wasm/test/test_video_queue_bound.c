/* vivace-video's queue below a healthy buffer (issue 18, lte-video-queue): with the latency term scaled down for a
 * low buffer, nothing but loss held the base rate at the capacity, and on Verizon-LTE-short the sender kept a queue
 * the bottleneck's whole 300 kB deep (p95 490 ms on the real path, 480-1300 ms per second in the dips). The queue bound
 * (vivace_video.c, bound_queue_to_spare) sets the base rate to an MI's delivery less epsilon once the MI's standing
 * queue is longer than 1/20 of the player's spare. Here: 6 Mbit/s, a dip to 4 for 6 s, a 300 kB buffer, a player
 * at a 2 s buffer; with the bound the mean queue is lower and the delivery not lower by more than the queue it
 * did not keep; at a healthy buffer the bound stays out (the rates are the same step for step). */
#include <stdio.h>
#include <string.h>

#include "bottleneck_link.h"
#include "check.h"
#include "pcc/cc.h"

#define LINK_BPS 6e6
#define DIP_BPS 4e6
#define RTT_US 40000
#define LINK_BUFFER_BYTES 300000.0
#define BEFORE_US 10000000
#define DIP_US 6000000
#define AFTER_US 4000000
#define REPORT_US 250000
#define BITRATE_BPS 4e6
#define TRACE_POINTS ((BEFORE_US + DIP_US + AFTER_US) / 10000)

typedef struct outcome {
    double mean_queue_ms;
    double max_queue_ms;
    double delivered_mbit;
} outcome;

static outcome run(double buffer_ms, double share, double *rates_out) {
    cc_controller *cc = cc_create("vivace-video", 3, 0);
    CHECK(cc != NULL);
    CHECK(cc_param_set(cc, "video_queue_spare_share", share) == CC_OK);
    bottleneck_link *link = link_create(cc, LINK_BPS, RTT_US, LINK_BUFFER_BYTES);
    size_t index = 0;
    for (int64_t t = 10000; t <= BEFORE_US + DIP_US + AFTER_US; t += 10000) {
        int dip = t > BEFORE_US && t <= BEFORE_US + DIP_US;
        link->rate_bytes_per_s = (dip ? DIP_BPS : LINK_BPS) / 8;
        if (t % REPORT_US == 0) {
            cc_app_state state = {.app_limited = 0, .buffer_ms = buffer_ms, .bitrate_bps = BITRATE_BPS,
                                  .deadline_us = CC_APP_UNKNOWN};
            cc_on_app_state(cc, &state, link->now_us);
        }
        link_run(link, t);
        if (rates_out != NULL && index < TRACE_POINTS) rates_out[index++] = cc_pacing_rate_bytes_per_s(cc) * 8;
    }
    outcome out = {link_mean_queue_delay_us(link) / 1000.0, link->max_queue_delay_us / 1000.0,
                   (double)link->delivered_bytes * 8e-6};
    free(link);
    cc_destroy(cc);
    return out;
}

static void test_low_buffer_queue_is_bounded(void) {
    outcome on = run(2000, 0.05, NULL), off = run(2000, 0, NULL);
    printf("6 Mbit/s with a 6 s dip to 4, 300 kB, player at a 2 s buffer: mean queue %.1f ms with the bound, %.1f "
           "without (max %.0f / %.0f ms); delivered %.1f / %.1f Mbit\n",
           on.mean_queue_ms, off.mean_queue_ms, on.max_queue_ms, off.max_queue_ms, on.delivered_mbit, off.delivered_mbit);
    CHECK(on.mean_queue_ms < 0.5 * off.mean_queue_ms);
    /* what the bound gave up is at most the queue it did not keep: 300 kB = 2.4 Mbit, plus ε of the run */
    CHECK(on.delivered_mbit > off.delivered_mbit - 2.4 - 0.05 * off.delivered_mbit);
}

static void test_healthy_buffer_is_left_to_vivace(void) {
    static double on[TRACE_POINTS], off[TRACE_POINTS];
    run(20000, 0.05, on);
    run(20000, 0, off);
    CHECK(memcmp(on, off, sizeof on) == 0);
}

int main(void) {
    test_low_buffer_queue_is_bounded();
    test_healthy_buffer_is_left_to_vivace();
    return check_summary("test_video_queue_bound");
}
