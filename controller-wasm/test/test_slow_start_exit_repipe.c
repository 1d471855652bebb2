/* slow_start_exit_repipe (vivace_slow_start.c), on the registry's "vivace" and the bottleneck fixture: 100 Mbit/s,
 * 30 ms, 1 MB buffer. A 5-ms dip of the link to 30 Mbit/s (another flow's burst) while slow start sends below the
 * capacity puts a queue into an MI at ~0.7 C: its gradient ends slow start an RTT later, when the acks have measured
 * delivery only at the rates before it, so the exit's base rate is ~0.7 C. The MIs already sent at 2x and 4x saturate
 * the link; their acks come back during the drain MI. With the parameter on, the first probe round starts from what
 * they measured (just below C, never above it); off, probing's small steps (§4.4.2) climb from ~0.7 C. Without a dip
 * the exit has seen C already and the parameter changes next to nothing (the drain's acks may read C a hair higher). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bottleneck_link.h"
#include "check.h"

#define LINK_BPS 100e6

typedef struct exit_run {
    int64_t exit_us;        /* first time the controller is out of slow start (0: never) */
    double probe_mbps;      /* mean pacing rate over exit + 150 ms .. exit + 350 ms: the first probe rounds */
    double delivered_mbps;  /* over 0-2 s */
    double max_queue_ms;
} exit_run;

static const char *state_of(cc_controller *cc) {
    cc_telemetry t;
    cc_get_telemetry(cc, &t);
    return t.state;
}

static exit_run run_exit(int repipe, int dip) {
    cc_controller *cc = cc_create("vivace", 1, 0);
    CHECK(cc != NULL);
    CHECK(cc_param_set(cc, "slow_start_exit_repipe", repipe) == CC_OK);
    bottleneck_link *link = link_create(cc, LINK_BPS, 30000, 1e6);
    exit_run run = {0};
    double rate_sum = 0.0;
    int rate_n = 0;
    for (int64_t t_us = 1000; t_us <= 2000000; t_us += 1000) {
        int dipped = dip && t_us > 460000 && t_us <= 465000;
        link->rate_bytes_per_s = (dipped ? 30e6 : LINK_BPS) / 8.0;
        link_run(link, t_us);
        if (run.exit_us == 0 && strcmp(state_of(cc), "slow_start") != 0) run.exit_us = t_us;
        if (run.exit_us > 0 && t_us > run.exit_us + 150000 && t_us <= run.exit_us + 350000) {
            rate_sum += cc_pacing_rate_bytes_per_s(cc) * 8 / 1e6;
            rate_n++;
        }
    }
    run.probe_mbps = rate_n > 0 ? rate_sum / rate_n : 0.0;
    run.delivered_mbps = (double)link->delivered_bytes * 8 / 2.0 / 1e6;
    run.max_queue_ms = link->max_queue_delay_us / 1e3;
    free(link);
    cc_destroy(cc);
    return run;
}

static void report(const char *name, exit_run r) {
    fprintf(stderr, "%s: exit %.3f s, first probe rounds %.1f Mbit/s, delivered 0-2 s %.1f Mbit/s, max queue %.1f ms\n",
            name, r.exit_us / 1e6, r.probe_mbps, r.delivered_mbps, r.max_queue_ms);
}

int main(void) {
    exit_run off = run_exit(0, 1), on = run_exit(1, 1);
    report("dip, repipe off", off);
    report("dip, repipe on ", on);
    CHECK(off.exit_us > 0 && on.exit_us == off.exit_us);
    /* the mechanism this test rests on: off, the exit's base stays well under the link */
    CHECK(off.probe_mbps < 0.8 * LINK_BPS / 1e6);
    /* on: just below the link, not above it (probes at base x (1 + epsilon) are the most it sends) */
    CHECK(on.probe_mbps > 0.9 * LINK_BPS / 1e6);
    CHECK(on.probe_mbps < 1.0 * LINK_BPS / 1e6);
    CHECK(on.delivered_mbps > off.delivered_mbps + 5.0);
    /* the raise adds no queue beyond slow start's own */
    CHECK(on.max_queue_ms <= off.max_queue_ms + 1.0);

    exit_run clean_off = run_exit(0, 0), clean_on = run_exit(1, 0);
    report("no dip, repipe off", clean_off);
    report("no dip, repipe on ", clean_on);
    CHECK(clean_off.probe_mbps > 0.9 * LINK_BPS / 1e6);
    CHECK(fabs(clean_on.probe_mbps - clean_off.probe_mbps) < 0.01 * clean_off.probe_mbps);
    CHECK(fabs(clean_on.delivered_mbps - clean_off.delivered_mbps) < 0.01 * clean_off.delivered_mbps);
    return check_summary("test_slow_start_exit_repipe");
}
