/* vivace-video's return after a long dip (issue 18, lte-queue-bound-bitrate): on Verizon-LTE-short the rate came back
 * slowly after the trace's 6 s dip, because the fade a recovery aims at began inside the dip (recoveries during the
 * dip had used up the earlier fades). vivace_video.c's return_to_pre_dip_rate keeps the rate the first fade began
 * from and, once a clean MI delivers more than the dip's last measured capacity, re-enters the starting phase up to
 * it. Here: 6 Mbit/s, a 6 s dip through 1.2, 2 and 0.8 Mbit/s (the shape of Verizon-LTE-short's 11-16 s), 6 Mbit/s
 * again, 300 kB, a player at a 2 s buffer fetching 300 kbit/s: with the held rate the pacing rate is back at 90 % of
 * its pre-dip level sooner and carries more in the first 3 s after the dip, with at most a quarter more queue in the dip. */
#include <stdio.h>

#include "bottleneck_link.h"
#include "check.h"
#include "pcc/cc.h"

#define LINK_BPS 6e6
#define RTT_US 40000
#define LINK_BUFFER_BYTES 300000.0
#define BEFORE_US 10000000
#define DIP_STEP_US 2000000
#define DIP_STEPS 3
#define AFTER_US 6000000
#define REPORT_US 250000
#define BITRATE_BPS 3e5
#define STEP_US 10000
#define EARLY_US 3000000

static const double dip_bps[DIP_STEPS] = {1.2e6, 2e6, 0.8e6};

typedef struct outcome {
    double before_mbps;       /* mean pacing rate over the last second before the dip */
    double back_after_s;      /* from the link's return to the first sample at 90 % of before_mbps; -1: never */
    double early_mbit;        /* delivered in the first EARLY_US after the return */
    double dip_mean_queue_ms; /* mean queueing delay over the dip's samples */
} outcome;

static outcome run(double hold) {
    cc_controller *cc = cc_create("vivace-video", 3, 0);
    CHECK(cc != NULL);
    CHECK(cc_param_set(cc, "video_hold_pre_dip_rate", hold) == CC_OK);
    bottleneck_link *link = link_create(cc, LINK_BPS, RTT_US, LINK_BUFFER_BYTES);
    const int64_t dip_end_us = BEFORE_US + DIP_STEPS * DIP_STEP_US;
    outcome out = {0, -1, 0, 0};
    double before_sum = 0, dip_queue_sum = 0;
    int before_n = 0, dip_n = 0;
    uint64_t delivered_at_return = 0;
    for (int64_t t = STEP_US; t <= dip_end_us + AFTER_US; t += STEP_US) {
        int in_dip = t > BEFORE_US && t <= dip_end_us;
        double rate_bps = in_dip ? dip_bps[(t - BEFORE_US - 1) / DIP_STEP_US] : LINK_BPS;
        link->rate_bytes_per_s = rate_bps / 8;
        if (t % REPORT_US == 0) {
            cc_app_state state = {.app_limited = 0, .buffer_ms = 2000, .bitrate_bps = BITRATE_BPS,
                                  .deadline_us = CC_APP_UNKNOWN};
            cc_on_app_state(cc, &state, link->now_us);
        }
        link_run(link, t);
        double pacing_mbps = cc_pacing_rate_bytes_per_s(cc) * 8e-6;
        if (t > BEFORE_US - 1000000 && t <= BEFORE_US) {
            before_sum += pacing_mbps;
            before_n++;
        }
        if (in_dip) {
            double queue_us = link->link_free_at_us - (double)link->now_us;
            dip_queue_sum += (queue_us > 0 ? queue_us : 0) / 1000.0;
            dip_n++;
        }
        if (t == dip_end_us) delivered_at_return = link->delivered_bytes;
        if (t == dip_end_us + EARLY_US) out.early_mbit = (double)(link->delivered_bytes - delivered_at_return) * 8e-6;
        if (t > dip_end_us && out.back_after_s < 0 && pacing_mbps >= 0.9 * before_sum / before_n)
            out.back_after_s = (double)(t - dip_end_us) / 1e6;
    }
    out.before_mbps = before_sum / before_n;
    out.dip_mean_queue_ms = dip_queue_sum / dip_n;
    free(link);
    cc_destroy(cc);
    return out;
}

static void test_return_after_a_long_dip(void) {
    outcome on = run(1), off = run(0);
    printf("6 Mbit/s, a 6 s dip (1.2, 2, 0.8), 6 again, player at 2 s: before the dip %.2f / %.2f Mbit/s; back at 90%% "
           "%.2f s / %.2f s after the link returned; %.2f / %.2f Mbit delivered in its first 3 s; dip mean queue %.0f / "
           "%.0f ms (held rate / none)\n",
           on.before_mbps, off.before_mbps, on.back_after_s, off.back_after_s, on.early_mbit, off.early_mbit,
           on.dip_mean_queue_ms, off.dip_mean_queue_ms);
    CHECK(on.back_after_s >= 0);
    CHECK(off.back_after_s < 0 || on.back_after_s < off.back_after_s);
    CHECK(on.early_mbit > off.early_mbit);
    /* the recoveries it starts inside the dip (a clean MI past the dip's measured capacity) cost little queue there */
    CHECK(on.dip_mean_queue_ms < 1.25 * off.dip_mean_queue_ms);
}

int main(void) {
    test_return_after_a_long_dip();
    return check_summary("test_video_pre_dip_rate");
}
