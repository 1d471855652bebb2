/* Recovery after a fade (issue 18, the LTE traces' recoveries): a Vivace flow at a 7 Mbit/s link meets a fade that
 * steps down to 0.5 Mbit/s over 4 s, with the acks still flowing (the fade's queue delays a few past the MI
 * timeout); then the link offers 7 Mbit/s again. Within
 * FADE_RECOVERY_MAX_MIS monitor intervals of the capacity's return the rate must reach 80% of it. Without the
 * recovery rule (vivace_recovery.c) the climb is ω-bounded, a few percent per round of probes. The same fade with
 * 20 Mbit/s back: the starting phase stops at the rate before the fade. */
#include <stdio.h>
#include <string.h>

#include "bottleneck_link.h"
#include "check.h"
#include "pcc/cc.h"

#define RTT_US 40000
#define LINK_BPS 7e6
/* The fade, one capacity per second down to 0.5 Mbit/s (an LTE fade takes seconds, ATT-LTE-driving-2016's 1.9 -> 0.3
 * Mbit/s over 7-10 s), so the rate follows it down through its probes' decisions with the acks flowing. */
static const double fade_mbps[] = {3.5, 1.8, 0.9, 0.5};
#define FADE_STEP_US 1000000
#define BUFFER_BYTES 60000.0
#define STEADY_US 10000000
#define FADE_END_US (STEADY_US + (int64_t)(sizeof fade_mbps / sizeof fade_mbps[0]) * FADE_STEP_US)
#define AFTER_US 6000000
/* The bound on the MIs after the capacity returns (the queue the fade left drains first): a starting phase from
 * ~1 Mbit/s doubles to 7 in three MIs, after two probe rounds (4 MIs each plus their feedback) that say "up". */
#define FADE_RECOVERY_MAX_MIS 30
/* A link that returns with more than it had before the fade: the starting phase goes back up to the rate the fade
 * began from, the capacity last seen (vivace_recovery.c), and the gradient climbs on from there; its doubling stays
 * below PEAK_MAX_SHARE x that rate (a probe or a pacing step above it). A doubling with no bound runs on past it. */
#define WIDER_RETURN_BPS 20e6
#define PEAK_MAX_SHARE 1.2

typedef struct mi_count {
    unsigned finished, timed_out;
} mi_count;

static void count_mi(const cc_mi_report *mi, void *user_data) {
    mi_count *count = user_data;
    count->finished++;
    if (mi->timed_out) count->timed_out++;
}

typedef struct fade_result {
    double steady_bps;        /* the rate before the fade */
    double peak_bps;          /* the highest rate of a starting phase after the return */
    double fade_bps;          /* the rate at the end of the fade */
    int mis_to_recover;       /* MIs after the return until the rate held 80% of the capacity, -1: never */
    unsigned timeouts;        /* MIs that timed out during the run */
} fade_result;

static fade_result run(const char *algorithm, double return_bps) {
    cc_controller *cc = cc_create(algorithm, 7, 0);
    CHECK(cc != NULL);
    mi_count mis = {0, 0};
    CHECK(cc_set_mi_observer(cc, count_mi, &mis) == CC_OK);
    bottleneck_link *link = link_create(cc, LINK_BPS, RTT_US, BUFFER_BYTES);
    link_run(link, STEADY_US);
    fade_result r = {.steady_bps = cc_pacing_rate_bytes_per_s(cc) * 8, .mis_to_recover = -1};
    for (size_t i = 0; i < sizeof fade_mbps / sizeof fade_mbps[0]; i++) {
        link->rate_bytes_per_s = fade_mbps[i] * 1e6 / 8;
        link_run(link, STEADY_US + (int64_t)(i + 1) * FADE_STEP_US);
    }
    r.fade_bps = cc_pacing_rate_bytes_per_s(cc) * 8;
    link->rate_bytes_per_s = return_bps / 8;
    unsigned returned_at = mis.finished;
    for (int64_t t = FADE_END_US; t < FADE_END_US + AFTER_US; t += 10000) {
        link_run(link, t + 10000);
        double rate_bps = cc_pacing_rate_bytes_per_s(cc) * 8;
        cc_telemetry telemetry;
        cc_get_telemetry(cc, &telemetry);
        int starting = telemetry.state != NULL && strcmp(telemetry.state, "slow_start") == 0;
        if (starting && rate_bps > r.peak_bps) r.peak_bps = rate_bps;
        if (r.mis_to_recover < 0 && rate_bps >= 0.8 * return_bps) r.mis_to_recover = (int)(mis.finished - returned_at);
    }
    r.timeouts = mis.timed_out;
    free(link);
    cc_destroy(cc);
    return r;
}

int main(void) {
    const char *const algorithms[] = {"vivace", "vivace-video"};
    for (size_t i = 0; i < sizeof algorithms / sizeof algorithms[0]; i++) {
        fade_result r = run(algorithms[i], LINK_BPS);
        printf("%s: %.2f Mbit/s before the fade, %.2f at its end, %d MIs to 80%% of %.1f Mbit/s (%u MI timeouts)\n",
               algorithms[i], r.steady_bps * 1e-6, r.fade_bps * 1e-6, r.mis_to_recover, LINK_BPS * 1e-6, r.timeouts);
        fflush(stdout);
        CHECK(r.steady_bps > 0.8 * LINK_BPS);   /* the flow had the link before the fade */
        CHECK(r.fade_bps < 0.5 * r.steady_bps);           /* and followed it down */
        CHECK(r.mis_to_recover >= 0 && r.mis_to_recover <= FADE_RECOVERY_MAX_MIS);
        fade_result wider = run(algorithms[i], WIDER_RETURN_BPS);
        printf("%s, %.0f Mbit/s back: %.2f Mbit/s before the fade, starting phase up to %.2f after the return\n",
               algorithms[i], WIDER_RETURN_BPS * 1e-6, wider.steady_bps * 1e-6, wider.peak_bps * 1e-6);
        fflush(stdout);
        CHECK(wider.peak_bps > wider.fade_bps);                       /* it recovered */
        CHECK(wider.peak_bps <= PEAK_MAX_SHARE * wider.steady_bps);  /* up to the rate before the fade */
    }
    return check_summary("test_fade_recovery");
}
