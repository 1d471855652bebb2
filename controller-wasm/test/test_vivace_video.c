/* vivace-video (src/algorithms/vivace_video.c) through the public API: without application state and without its
 * two rules of its own (video_fade_cut, regain_without_queue) it is Vivace to the bit; with a low buffer it does not back off on an RTT that rises without any queue; with a healthy buffer and
 * a known bitrate it paces near Sammy's 2.8-3.2x the bitrate instead of filling the link. */
#include <stdio.h>
#include <string.h>

#include "bottleneck_link.h"
#include "check.h"
#include "pcc/cc.h"

#define RTT_US 30000
#define REPORT_US 500000 /* a player reports with every request; here twice a second */

typedef struct run_result {
    double mean_rate_bps;     /* pacing rate averaged over the measured part */
    double delivered_bps;
    double mean_queue_delay_us;
    uint64_t dropped_packets;
} run_result;

static void report(cc_controller *cc, double buffer_ms, double bitrate_bps, int64_t now_us) {
    if (buffer_ms < 0 && bitrate_bps < 0) return; /* no application state at all */
    cc_app_state state = {.app_limited = 0, .buffer_ms = buffer_ms, .bitrate_bps = bitrate_bps, .deadline_us = CC_APP_UNKNOWN};
    cc_on_app_state(cc, &state, now_us);
}

/* 1: run() turns vivace-video's own rules off (the fade cut, regain_without_queue and slow_start_persistent_queue, on
 * by default), so only the utility can differ from Vivace's. */
static int own_rules_off;

/* A path whose propagation delay (no queue) climbs by ramp_ms_per_s for a second, then falls back, over and over, as
 * an LTE scheduler's or a Wi-Fi link's delay does; rate_bps of capacity. Measures the last measure_us. */
static run_result run(const char *algorithm, double rate_bps, double ramp_ms_per_s, double buffer_ms, double bitrate_bps,
                      int64_t duration_us, int64_t measure_us, double *rates_out, size_t rates_count) {
    cc_controller *cc = cc_create(algorithm, 5, 0);
    CHECK(cc != NULL);
    CHECK(cc_param_set(cc, "max_rate_bps", 200e6) == CC_OK);
    if (own_rules_off && strcmp(algorithm, "vivace-video") == 0) {
        CHECK(cc_param_set(cc, "video_fade_cut", 0) == CC_OK);
        CHECK(cc_param_set(cc, "regain_without_queue", 0) == CC_OK);
        CHECK(cc_param_set(cc, "slow_start_persistent_queue", 0) == CC_OK);
    }
    bottleneck_link *link = link_create(cc, rate_bps, RTT_US, rate_bps / 8 * RTT_US * 1e-6 * 2);
    double rate_sum = 0;
    long rate_samples = 0;
    size_t rate_index = 0;
    for (int64_t t = 10000; t <= duration_us; t += 10000) {
        if (t % REPORT_US == 0) report(cc, buffer_ms, bitrate_bps, link->now_us);
        if (t == duration_us - measure_us) link_reset_stats(link);
        int64_t phase_us = t % 2000000;
        link->rtt_us = RTT_US + (phase_us < 1000000 ? (int64_t)(ramp_ms_per_s * (double)phase_us / 1000.0) : 0);
        link_run(link, t);
        double rate = cc_pacing_rate_bytes_per_s(cc) * 8;
        if (rates_out != NULL && rate_index < rates_count) rates_out[rate_index++] = rate;
        if (t > duration_us - measure_us) {
            rate_sum += rate;
            rate_samples++;
        }
    }
    run_result r = {.mean_rate_bps = rate_sum / (double)rate_samples,
                    .delivered_bps = (double)link->delivered_bytes * 8 / ((double)measure_us * 1e-6),
                    .mean_queue_delay_us = link_mean_queue_delay_us(link),
                    .dropped_packets = link->dropped_packets};
    free(link);
    cc_destroy(cc);
    return r;
}

#define TRACE_POINTS 800

static void test_without_app_state_it_is_vivace(void) {
    static double vivace[TRACE_POINTS], video[TRACE_POINTS];
    own_rules_off = 1;
    run("vivace", 20e6, 20, -1, -1, 8000000, 4000000, vivace, TRACE_POINTS);
    run("vivace-video", 20e6, 20, -1, -1, 8000000, 4000000, video, TRACE_POINTS);
    own_rules_off = 0;
    CHECK(memcmp(vivace, video, sizeof vivace) == 0);
    /* video fields unknown (only app-limited news) also leave it Vivace */
    cc_controller *a = cc_create("vivace", 1, 0), *b = cc_create("vivace-video", 1, 0);
    CHECK(cc_param_set(b, "slow_start_persistent_queue", 0) == CC_OK); /* Vivace's parameters, vivace-video's utility */
    cc_app_state unknown = {.app_limited = 0, .buffer_ms = CC_APP_UNKNOWN, .bitrate_bps = 4e6, .deadline_us = CC_APP_UNKNOWN};
    cc_on_app_state(b, &unknown, 0);
    bottleneck_link *la = link_create(a, 30e6, RTT_US, 1e5), *lb = link_create(b, 30e6, RTT_US, 1e5);
    int same = 1;
    for (int64_t t = 10000; t <= 5000000; t += 10000) {
        link_run(la, t);
        link_run(lb, t);
        same &= cc_pacing_rate_bytes_per_s(a) == cc_pacing_rate_bytes_per_s(b);
    }
    CHECK(same);
    free(la);
    free(lb);
    cc_destroy(a);
    cc_destroy(b);
}

static void test_low_buffer_keeps_rate_through_delay_drift(void) {
    /* 20 ms per second of delay drift, no queue: Vivace's latency term sees a gradient of 0.02 and backs off */
    run_result vivace = run("vivace", 20e6, 20, -1, -1, 20000000, 10000000, NULL, 0);
    run_result low = run("vivace-video", 20e6, 20, 1000, 3e6, 20000000, 10000000, NULL, 0);
    run_result healthy = run("vivace-video", 20e6, 20, 30000, -1, 20000000, 10000000, NULL, 0);
    printf("delay drift 20 ms/s on 20 Mbit/s: delivered vivace %.1f, vivace-video low buffer %.1f, healthy buffer (no bitrate) %.1f Mbit/s\n",
           vivace.delivered_bps * 1e-6, low.delivered_bps * 1e-6, healthy.delivered_bps * 1e-6);
    CHECK(low.delivered_bps > 1.3 * vivace.delivered_bps);
    CHECK(low.delivered_bps > 0.8 * 20e6);
    /* a healthy buffer values latency as Vivace does */
    CHECK(healthy.delivered_bps < 0.8 * low.delivered_bps);
}

static void test_low_buffer_fills_the_bottleneck(void) {
    /* A steady 10 Mbit/s path (30 ms, a 2-BDP buffer): Vivace settles where its upper probe r(1+ε) meets the
     * capacity, near C/(1+ε), which is short of a bitrate with less than ε of headroom. A low buffer must let the
     * upper probe overshoot by its step, so the base rate sits at the capacity, its queue drained by the lower
     * probe: the link full, the queue a few ms, no loss. */
    run_result vivace = run("vivace", 10e6, 0, -1, -1, 30000000, 20000000, NULL, 0);
    run_result low = run("vivace-video", 10e6, 0, 1000, 9.5e6, 30000000, 20000000, NULL, 0);
    printf("steady 10 Mbit/s: delivered vivace %.2f, vivace-video low buffer %.2f Mbit/s (mean queue %.1f / %.1f ms, drops %llu / %llu)\n",
           vivace.delivered_bps * 1e-6, low.delivered_bps * 1e-6, vivace.mean_queue_delay_us * 1e-3,
           low.mean_queue_delay_us * 1e-3, (unsigned long long)vivace.dropped_packets, (unsigned long long)low.dropped_packets);
    CHECK(low.delivered_bps > 0.98 * 10e6);
    CHECK(low.delivered_bps > vivace.delivered_bps + 0.02 * 10e6);
    CHECK(low.dropped_packets == 0);
    CHECK(low.mean_queue_delay_us < RTT_US); /* a standing queue would be the bottleneck's buffer, 60 ms */
}

static void test_healthy_buffer_paces_near_sammy_multiple(void) {
    const double bitrate_bps = 5e6;
    run_result vivace = run("vivace", 100e6, 0, -1, -1, 15000000, 5000000, NULL, 0);
    run_result healthy = run("vivace-video", 100e6, 0, 20000, bitrate_bps, 15000000, 5000000, NULL, 0);
    run_result low = run("vivace-video", 100e6, 0, 2000, bitrate_bps, 15000000, 5000000, NULL, 0);
    printf("100 Mbit/s, 5 Mbit/s video: mean rate vivace %.1f, vivace-video healthy buffer %.1f, low buffer %.1f Mbit/s\n",
           vivace.mean_rate_bps * 1e-6, healthy.mean_rate_bps * 1e-6, low.mean_rate_bps * 1e-6);
    /* 20 s of buffer: k = 3.2 - 0.4 x (20 - 12) / 12 = 2.93, so about 14.7 Mbit/s; never below 1.4x the bitrate */
    CHECK(healthy.mean_rate_bps > 2.2 * bitrate_bps && healthy.mean_rate_bps < 3.6 * bitrate_bps);
    CHECK(vivace.mean_rate_bps > 60e6);
    CHECK(low.mean_rate_bps > 60e6); /* a low buffer takes what the link gives */
}

/* A long fade under the bitrate (an LTE trace's, ATT-LTE-driving at 17-28 s) leaves the rate at a fraction of a
 * Mbit/s; when the capacity returns a probe round there lasts a second or more (each MI needs its packets). The time
 * from the return until the pacing rate reaches the bitrate the player is fetching, in simulated µs (-1: never), and
 * the pacing rates every 10 ms. */
#define FADE_LINK_BPS 8e6
#define FADE_BITRATE_BPS 2e6
#define FADE_STEADY_US 8000000
#define FADE_US 16000000
#define FADE_AFTER_US 12000000
#define FADE_CAPACITY_BPS 0.5e6
#define FADE_TRACE_POINTS ((FADE_STEADY_US + FADE_US + FADE_AFTER_US) / 10000)

static int64_t recovery_after_fade(double buffer_ms, int restart, double *rates_out) {
    cc_controller *cc = cc_create("vivace-video", 7, 0);
    CHECK(cc != NULL);
    CHECK(cc_param_set(cc, "video_starved_restart", restart) == CC_OK);
    /* the restart alone is compared: with slow_start_persistent_queue on, the first slow start ends elsewhere and the
     * restart's return is no sooner than the recovery without it on this link (both 1.59 s) */
    CHECK(cc_param_set(cc, "slow_start_persistent_queue", 0) == CC_OK);
    bottleneck_link *link = link_create(cc, FADE_LINK_BPS, 40000, FADE_LINK_BPS / 8 * 0.04 * 2);
    int64_t returned_us = FADE_STEADY_US + FADE_US, recovered_us = -1;
    size_t index = 0;
    for (int64_t t = 10000; t <= returned_us + FADE_AFTER_US; t += 10000) {
        if (t % REPORT_US == 0) report(cc, buffer_ms, FADE_BITRATE_BPS, link->now_us);
        link->rate_bytes_per_s = (t > FADE_STEADY_US && t <= returned_us ? FADE_CAPACITY_BPS : FADE_LINK_BPS) / 8;
        link_run(link, t);
        double rate_bps = cc_pacing_rate_bytes_per_s(cc) * 8;
        if (rates_out != NULL && index < FADE_TRACE_POINTS) rates_out[index++] = rate_bps;
        if (t > returned_us && recovered_us < 0 && rate_bps >= FADE_BITRATE_BPS) recovered_us = t - returned_us;
    }
    free(link);
    cc_destroy(cc);
    return recovered_us;
}

static void test_starving_player_restarts_after_a_fade(void) {
    static double healthy_on[FADE_TRACE_POINTS], healthy_off[FADE_TRACE_POINTS];
    int64_t low_on = recovery_after_fade(500, 1, NULL), low_off = recovery_after_fade(500, 0, NULL);
    int64_t healthy = recovery_after_fade(30000, 1, healthy_on);
    recovery_after_fade(30000, 0, healthy_off);
    printf("8 Mbit/s, 16 s fade to 0.5, 2 Mbit/s video: back at the bitrate after %.2f s with the restart, %.2f s without "
           "(low buffer); %.2f s at a healthy buffer\n", low_on * 1e-6, low_off * 1e-6, healthy * 1e-6);
    CHECK(low_on >= 0);
    /* a starving player: the starting phase from the first clean MI after the return, doubling per MI, where Vivace
     * waits for its fade recovery's clean probe rounds */
    CHECK(low_off < 0 || low_on < low_off);
    /* a healthy buffer is no reason to hurry: Vivace's own recovery, bit for bit */
    CHECK(memcmp(healthy_on, healthy_off, sizeof healthy_on) == 0);
}

int main(void) {
    test_without_app_state_it_is_vivace();
    test_low_buffer_keeps_rate_through_delay_drift();
    test_low_buffer_fills_the_bottleneck();
    test_healthy_buffer_paces_near_sammy_multiple();
    test_starving_player_restarts_after_a_fade();
    return check_summary("test_vivace_video");
}
