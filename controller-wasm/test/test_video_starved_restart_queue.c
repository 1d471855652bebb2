/* The starving player's restart (vivace_video.c) and its standing-queue test (vivace_mi_queue_stood, issue 18,
 * floor-collapse): at the 0.1-Mbit/s floor on an LTE link a lone packet waits for the link's next transmit
 * opportunity, so an MI's mean RTT passed 1.5 x the min RTT with no queue of the flow's own, and the restart stayed
 * shut for 11 s while the player's buffer was empty. A queue that stands delays every packet of the MI; the test
 * reads the MI's lowest RTT sample. Here: a link that delivers in bursts every 70 ms behind 40 ms of propagation (a
 * lone packet waits 0-70 ms), the rate held at the floor until the player starves (buffer 0, a 2-Mbit/s rendition);
 * then the restart must take the rate to that bitrate within a few MIs. With 50 ms of queue kept standing at the
 * bottleneck (every sample above the allowance) it must not fire: the rates are those with the restart off, bit for
 * bit. Both values of video_starved_restart_lowest_rtt: with 0 (the mean) the restart stays shut at the floor too.
 * (The MI's lowest sample: test_monitor_interval.) */
#include <stdio.h>
#include <string.h>

#include "bottleneck_link.h"
#include "check.h"
#include "pcc/cc.h"

#define LINK_BPS 8e6
#define RTT_US 40000
#define TRANSMIT_PERIOD_US 70000
#define FLOOR_BPS 0.1e6
#define BITRATE_BPS 2e6
#define STARVE_US 15000000   /* the rate is held at the floor until here, then the player reports an empty buffer */
#define QUEUE_FROM_US (STARVE_US - 3000000)
#define WINDOW_US 5000000    /* how long after that the restart has */
#define REPORT_US 500000
#define TRACE_POINTS ((STARVE_US + WINDOW_US) / 10000)

typedef struct starved_run {
    double rates_bps[TRACE_POINTS]; /* pacing rate every 10 ms */
    double peak_after_bps;          /* highest pacing rate within WINDOW_US of the starvation */
    int floor_mis;                  /* MIs finished at the floor after the starvation, until the rate first left it */
    int floor_mis_mean_high;        /* those whose mean RTT was above 1.5 x the min RTT */
} starved_run;

typedef struct observed {
    int64_t from_us;
    int left_floor;
    int floor_mis, floor_mis_mean_high;
} observed;

static void observe(const cc_mi_report *mi, void *user) {
    observed *o = user;
    if (mi->end_time_us < o->from_us || o->left_floor || mi->app_limited || mi->timed_out) return;
    if (mi->stats.target_rate_bps > 1.2 * FLOOR_BPS) {
        o->left_floor = 1;
        return;
    }
    o->floor_mis++;
    if (mi->stats.avg_rtt_us > 1.5 * mi->stats.min_rtt_us) o->floor_mis_mean_high++;
}

/* lowest_rtt: video_starved_restart_lowest_rtt (1: the MI's lowest RTT sample, 0: its mean) */
static void run(int restart, int lowest_rtt, int64_t standing_queue_us, starved_run *out) {
    cc_controller *cc = cc_create("vivace-video", 5, 0);
    CHECK(cc != NULL);
    CHECK(cc_param_set(cc, "video_starved_restart", restart) == CC_OK);
    CHECK(cc_param_set(cc, "video_starved_restart_lowest_rtt", lowest_rtt) == CC_OK);
    /* the floor, however it was reached (floor-collapse: the app-limited rule's ceiling); held there until the player
     * starves */
    CHECK(cc_param_set(cc, "initial_rate_bps", FLOOR_BPS) == CC_OK);
    CHECK(cc_param_set(cc, "max_rate_bps", FLOOR_BPS) == CC_OK);
    observed o = {.from_us = STARVE_US};
    CHECK(cc_set_mi_observer(cc, observe, &o) == CC_OK);
    bottleneck_link *link = link_create(cc, LINK_BPS, RTT_US, 300000);
    link->transmit_period_us = TRANSMIT_PERIOD_US;
    memset(out, 0, sizeof *out);
    size_t index = 0;
    for (int64_t t = 10000; t <= STARVE_US + WINDOW_US; t += 10000) {
        if (t == STARVE_US) CHECK(cc_param_set(cc, "max_rate_bps", 200e6) == CC_OK);
        if (t >= STARVE_US && t % REPORT_US == 0) {
            cc_app_state state = {.app_limited = 0, .buffer_ms = 0, .bitrate_bps = BITRATE_BPS, .deadline_us = CC_APP_UNKNOWN};
            cc_on_app_state(cc, &state, link->now_us);
        }
        /* from a few MIs before the starvation other flows keep the bottleneck's queue at standing_queue_us: every
         * packet waits behind it */
        if (t >= QUEUE_FROM_US && link->link_free_at_us < (double)(link->now_us + standing_queue_us)) {
            link->link_free_at_us = (double)(link->now_us + standing_queue_us);
        }
        link_run(link, t);
        double rate_bps = cc_pacing_rate_bytes_per_s(cc) * 8;
        if (index < TRACE_POINTS) out->rates_bps[index++] = rate_bps;
        if (t > STARVE_US && rate_bps > out->peak_after_bps) out->peak_after_bps = rate_bps;
    }
    out->floor_mis = o.floor_mis;
    out->floor_mis_mean_high = o.floor_mis_mean_high;
    free(link);
    cc_destroy(cc);
}

/* The three runs a case compares: the restart with either queue test, and the restart off. */
typedef struct three_runs {
    starved_run on, mean, off;
} three_runs;

static void run_three(int64_t standing_queue_us, const char *label, three_runs *t) {
    run(1, 1, standing_queue_us, &t->on);
    run(1, 0, standing_queue_us, &t->mean);
    run(0, 1, standing_queue_us, &t->off);
    printf("%s: peak within %.0f s %.2f Mbit/s with the restart, %.2f with its mean-RTT test, %.2f without; %d of %d "
           "MIs at the floor without it had their mean RTT above 1.5 x min\n",
           label, WINDOW_US * 1e-6, t->on.peak_after_bps * 1e-6, t->mean.peak_after_bps * 1e-6,
           t->off.peak_after_bps * 1e-6, t->off.floor_mis_mean_high, t->off.floor_mis);
}

static void test_waits_for_transmit_slots_are_no_queue(void) {
    static three_runs t;
    run_three(0, "floor, 70-ms transmit slots, starving player", &t);
    /* the case: the link's own waits put the mean RTT of the floor's MIs above the allowance */
    CHECK(t.off.floor_mis >= 3);
    CHECK(t.off.floor_mis_mean_high * 4 >= t.off.floor_mis * 3);
    CHECK(t.on.peak_after_bps >= BITRATE_BPS);
    CHECK(t.off.peak_after_bps < 5 * FLOOR_BPS);
    /* the mean (video_starved_restart_lowest_rtt 0) takes those waits for a queue: the restart stays shut */
    CHECK(t.mean.peak_after_bps < 5 * FLOOR_BPS);
}

static void test_a_standing_queue_holds_the_restart(void) {
    static three_runs t;
    run_three(50000, "floor, 70-ms transmit slots behind 50 ms of standing queue", &t);
    CHECK(t.off.floor_mis >= 3);
    CHECK(t.off.floor_mis_mean_high == t.off.floor_mis);
    /* either test sees a queue that stood */
    CHECK(memcmp(t.on.rates_bps, t.off.rates_bps, sizeof t.on.rates_bps) == 0);
    CHECK(memcmp(t.mean.rates_bps, t.off.rates_bps, sizeof t.mean.rates_bps) == 0);
}

int main(void) {
    test_waits_for_transmit_slots_are_no_queue();
    test_a_standing_queue_holds_the_restart();
    return check_summary("test_video_starved_restart_queue");
}
