/* Recovery after a fade (issue 18, the LTE traces' recoveries): a Vivace flow at a 7 Mbit/s link meets a fade that
 * steps down to 0.5 Mbit/s over 4 s, with the acks still flowing (the fade's queue delays a few past the MI
 * timeout); then the link offers 7 Mbit/s again. Within
 * FADE_RECOVERY_MAX_MIS monitor intervals of the capacity's return the rate must reach 80% of it. Without the
 * recovery rule (vivace_recovery.c) the climb is ω-bounded, a few percent per round of probes. The same fade with
 * 20 Mbit/s back: the starting phase stops at the rate before the fade. The same fade again with a receiver that
 * stamps its packets in batches (bottleneck_link.h's recv_batch_us), as the real path's clients do.
 *
 * And no fade where there is none: on a steady link whose receiver stamps in batches, probes above the capacity
 * overshoot into the flow's own queue and read delivered fractions below 1, which made the decrease bound mark a
 * fade and the fade recovery re-enter the starting phase (a doubling) on an unchanged link. */
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
/* With the receiver's batches the fade's probe rounds are noisier and the recovery starts later; the ω-bounded climb
 * alone takes over 50 MIs there. */
#define FADE_RECOVERY_MAX_MIS_BATCHED 42
/* A link that returns with more than it had before the fade: the starting phase goes back up to the rate the fade
 * began from, the capacity last seen (vivace_recovery.c), and the gradient climbs on from there; its doubling stays
 * below PEAK_MAX_SHARE x that rate (a probe or a pacing step above it). A doubling with no bound runs on past it. */
#define WIDER_RETURN_BPS 20e6
#define PEAK_MAX_SHARE 1.2
/* The receiver reads and stamps what arrived every 8 ms of its clock (a client's event loop). */
#define RECV_BATCH_US 8000

/* The steady link: changing-rtt-8mbps's capacity and buffer (bench/scenarios) at a fixed 35 ms. */
#define STEADY_LINK_BPS 8.8e6
#define STEADY_RTT_US 35000
#define STEADY_BUFFER_BYTES 300000.0
#define STEADY_RUN_US 30000000
/* A probe MI that lost nothing and got less than this share of what it sent through: an overshoot read on the
 * receiver's clock (the scenario has to produce them for the check to mean anything). */
#define OVERSHOOT_FRACTION 0.9

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

static fade_result run(const char *algorithm, double return_bps, int64_t recv_batch_us) {
    cc_controller *cc = cc_create(algorithm, 7, 0);
    CHECK(cc != NULL);
    mi_count mis = {0, 0};
    CHECK(cc_set_mi_observer(cc, count_mi, &mis) == CC_OK);
    bottleneck_link *link = link_create(cc, LINK_BPS, RTT_US, BUFFER_BYTES);
    link->recv_batch_us = recv_batch_us;
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

typedef struct steady_count {
    int started;              /* the first starting phase is over */
    unsigned timed_out;
    unsigned overshoots;      /* probe MIs with no loss that got less than OVERSHOOT_FRACTION of their bytes through */
} steady_count;

static void count_steady_mi(const cc_mi_report *mi, void *user_data) {
    steady_count *count = user_data;
    if (mi->timed_out) count->timed_out++;
    double sent_bps = mi->stats.send_rate_bps;
    if (count->started && mi->stats.packets_lost == 0 && sent_bps > 0 &&
        mi->stats.throughput_bps < OVERSHOOT_FRACTION * sent_bps) {
        count->overshoots++;
    }
}

/* A steady link, a receiver stamping in batches: the starting phase must not come back (no fade was marked). */
static void check_no_fade_on_steady_link(const char *algorithm) {
    cc_controller *cc = cc_create(algorithm, 7, 0);
    CHECK(cc != NULL);
    steady_count count = {0, 0, 0};
    CHECK(cc_set_mi_observer(cc, count_steady_mi, &count) == CC_OK);
    bottleneck_link *link = link_create(cc, STEADY_LINK_BPS, STEADY_RTT_US, STEADY_BUFFER_BYTES);
    link->recv_batch_us = RECV_BATCH_US;
    unsigned reentries = 0;
    double peak_after_start_bps = 0;
    for (int64_t t = 0; t < STEADY_RUN_US; t += 10000) {
        link_run(link, t + 10000);
        cc_telemetry telemetry;
        cc_get_telemetry(cc, &telemetry);
        int starting = telemetry.state != NULL && strcmp(telemetry.state, "slow_start") == 0;
        if (!starting) count.started = 1;
        else if (count.started) {
            reentries++;
            count.started = 0;   /* count each re-entered starting phase once */
        }
        double rate_bps = cc_pacing_rate_bytes_per_s(cc) * 8;
        if (count.started && rate_bps > peak_after_start_bps) peak_after_start_bps = rate_bps;
    }
    double delivered_bps = (double)link->delivered_bytes * 8e6 / STEADY_RUN_US;
    printf("%s, steady %.1f Mbit/s, receiver stamps every %d ms: %u overshooting probe MIs, %u starting phases "
           "re-entered, %u MI timeouts, delivered %.2f Mbit/s, highest rate after the start %.2f Mbit/s\n",
           algorithm, STEADY_LINK_BPS * 1e-6, RECV_BATCH_US / 1000, count.overshoots, reentries, count.timed_out,
           delivered_bps * 1e-6, peak_after_start_bps * 1e-6);
    fflush(stdout);
    CHECK(count.overshoots > 0);               /* the probes did overshoot into the flow's own queue */
    CHECK(count.timed_out == 0);               /* so no MI-timeout fade either */
    CHECK(delivered_bps > 0.8 * STEADY_LINK_BPS);
    CHECK(reentries == 0);
    free(link);
    cc_destroy(cc);
}

int main(void) {
    const char *const algorithms[] = {"vivace", "vivace-video"};
    for (size_t i = 0; i < sizeof algorithms / sizeof algorithms[0]; i++) {
        check_no_fade_on_steady_link(algorithms[i]);
        const int64_t batches_us[] = {0, RECV_BATCH_US};
        for (size_t b = 0; b < sizeof batches_us / sizeof batches_us[0]; b++) {
            fade_result r = run(algorithms[i], LINK_BPS, batches_us[b]);
            printf("%s, receiver stamps every %d ms: %.2f Mbit/s before the fade, %.2f at its end, %d MIs to 80%% of "
                   "%.1f Mbit/s (%u MI timeouts)\n", algorithms[i], (int)(batches_us[b] / 1000), r.steady_bps * 1e-6,
                   r.fade_bps * 1e-6, r.mis_to_recover, LINK_BPS * 1e-6, r.timeouts);
            fflush(stdout);
            CHECK(r.steady_bps > 0.8 * LINK_BPS);   /* the flow had the link before the fade */
            CHECK(r.fade_bps < 0.5 * r.steady_bps);           /* and followed it down */
            CHECK(r.mis_to_recover >= 0 &&
                  r.mis_to_recover <= (batches_us[b] > 0 ? FADE_RECOVERY_MAX_MIS_BATCHED : FADE_RECOVERY_MAX_MIS));
        }
        fade_result wider = run(algorithms[i], WIDER_RETURN_BPS, 0);
        printf("%s, %.0f Mbit/s back: %.2f Mbit/s before the fade, starting phase up to %.2f after the return\n",
               algorithms[i], WIDER_RETURN_BPS * 1e-6, wider.steady_bps * 1e-6, wider.peak_bps * 1e-6);
        fflush(stdout);
        CHECK(wider.peak_bps > wider.fade_bps);                       /* it recovered */
        CHECK(wider.peak_bps <= PEAK_MAX_SHARE * wider.steady_bps);  /* up to the rate before the fade */
    }
    return check_summary("test_fade_recovery");
}
