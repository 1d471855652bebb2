/* slow_start_delivery_plateau (vivace_slow_start.c, issue 18 lte-slow-start-plateau): §4.4's slow start learns that a
 * doubling overshot only from that MI's finished utility, an RTT or more after its first acks showed the path
 * delivering no faster than before; vivace-video at a low buffer (w = 0.0015) barely weighs the RTT rise, so its
 * doubling goes on to the 2x-delivery cap. With the rule at f = 0.5 the first slow start ends on the 8th ack in a row
 * of packets sent after a doubling whose delivery rate stayed below 1.5 x the rate acknowledged when it went out.
 * Here: 6 Mbit/s, 40 ms, a 300 kB buffer, a player at a 1 s buffer: with the rule slow start ends earlier and its
 * queue is shorter; the first 5 s still deliver most of the link. At 0 the rates are the thesis's step for step
 * (the default); plain vivace takes the same rule. */
#include <stdio.h>
#include <string.h>

#include "bottleneck_link.h"
#include "check.h"
#include "pcc/cc.h"

#define LINK_BPS 6e6
#define RTT_US 40000
#define LINK_BUFFER_BYTES 300000.0
#define STARTUP_US 2000000
#define RUN_US 5000000
#define STEP_US 10000
#define REPORT_US 250000
#define BITRATE_BPS 8e5
#define TRACE_POINTS (RUN_US / STEP_US)

typedef struct outcome {
    int64_t slow_start_end_us;   /* when the first slow start ended (the run's length if it did not) */
    double startup_max_queue_ms; /* the longest queue over the first 2 s */
    double delivered_mbit;       /* over the whole run */
} outcome;

static outcome run(const char *scheme, double plateau, double *rates_out) {
    cc_controller *cc = cc_create(scheme, 3, 0);
    CHECK(cc != NULL);
    if (plateau >= 0) CHECK(cc_param_set(cc, "slow_start_delivery_plateau", plateau) == CC_OK); /* < 0: default */
    bottleneck_link *link = link_create(cc, LINK_BPS, RTT_US, LINK_BUFFER_BYTES);
    outcome out = {RUN_US, 0, 0};
    size_t index = 0;
    for (int64_t t = 0; t <= RUN_US; t += STEP_US) {
        if (t % REPORT_US == 0) {
            cc_app_state state = {.app_limited = 0, .buffer_ms = 1000, .bitrate_bps = BITRATE_BPS,
                                  .deadline_us = CC_APP_UNKNOWN};
            cc_on_app_state(cc, &state, link->now_us);
        }
        if (t > 0) link_run(link, t);
        cc_telemetry telemetry;
        cc_get_telemetry(cc, &telemetry);
        if (out.slow_start_end_us == RUN_US && strcmp(telemetry.state, "slow_start") != 0) out.slow_start_end_us = t;
        if (t == STARTUP_US) out.startup_max_queue_ms = link->max_queue_delay_us / 1000.0;
        if (rates_out != NULL && t > 0 && index < TRACE_POINTS) rates_out[index++] = cc_pacing_rate_bytes_per_s(cc);
    }
    out.delivered_mbit = (double)link->delivered_bytes * 8e-6;
    free(link);
    cc_destroy(cc);
    return out;
}

static void test_plateau_ends_the_doubling_earlier(const char *scheme) {
    outcome on = run(scheme, 0.5, NULL), off = run(scheme, 0, NULL);
    printf("%s, 6 Mbit/s, 40 ms, 300 kB: first slow start ends at %.2f s with the plateau exit, %.2f s without; "
           "max queue over 2 s %.0f / %.0f ms; delivered over 5 s %.1f / %.1f Mbit\n",
           scheme, on.slow_start_end_us * 1e-6, off.slow_start_end_us * 1e-6, on.startup_max_queue_ms,
           off.startup_max_queue_ms, on.delivered_mbit, off.delivered_mbit);
    CHECK(on.slow_start_end_us < off.slow_start_end_us);
    CHECK(on.startup_max_queue_ms < off.startup_max_queue_ms);
    CHECK(on.delivered_mbit > 0.8 * LINK_BPS * 1e-6 * RUN_US * 1e-6);
}

/* off by default: the default controller's rates are the rule-off ones step for step, and differ with it on */
static void test_off_is_the_default(void) {
    static double deflt[TRACE_POINTS], off[TRACE_POINTS], on[TRACE_POINTS];
    cc_controller *cc = cc_create("vivace-video", 3, 0);
    double value = -1;
    CHECK(cc != NULL && cc_param_get(cc, "slow_start_delivery_plateau", &value) == CC_OK && value == 0);
    cc_destroy(cc);
    run("vivace-video", -1, deflt);
    run("vivace-video", 0, off);
    run("vivace-video", 0.5, on);
    CHECK(memcmp(deflt, off, sizeof off) == 0);
    CHECK(memcmp(on, off, sizeof off) != 0);
}

int main(void) {
    test_plateau_ends_the_doubling_earlier("vivace-video");
    test_plateau_ends_the_doubling_earlier("vivace");
    test_off_is_the_default();
    return check_summary("test_slow_start_plateau");
}
