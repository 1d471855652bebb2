/* The app-limited rule's validated rate (src/validated_rate.h) after a fade that held the acks (issue 18,
 * bench/published/2026-11-25/floor-collapse: vivace-video at 0.1 Mbit/s for 23.7 s on TMobile-LTE-driving). The
 * acks' timeline is that run's (origin telemetry, linkem's up/down logs; session clock): acks at 6 Mbit/s until
 * 3.87 s at an sRTT of ~415 ms, lone acks at 4.025 and 4.33 s, then the ~230 packets the faded link's queue still held,
 * acked 4.69-4.95 s at sRTTs rising to 940 ms, their delivery samples rising to 2.4 Mbit/s; then, the queue gone,
 * two PTO probes acked at 5.374 s and a few retransmissions at the path's 45 ms, the sRTT falling back to ~0.1 s.
 * An MI the sender could not fill finished at 5.443 s. Its rate must not come down below what the path delivered
 * through the fade (1.25 x 2.4 Mbit/s) to what the probes' samples show (tens of kbit/s: the 0.1-Mbit/s floor). */
#include <string.h>

#include "cc_algorithm.h"
#include "check.h"
#include "path_silence.h"
#include "validated_rate.h"

#define HELD_MAX_BPS 2.4e6
#define PATH_RTT_US 45000

typedef struct timeline {
    cc_validated_rate v;
    cc_path_silence silence;
    cc_rtt_view rtt;
    int64_t last_ack_us; /* the delivery clock: the latest ack's time */
    int64_t last_acked_sent_us;
} timeline;

/* One ack at now_us of a packet sent at sent_us (after the previous ack: not from idle), whose tcp_rate.c sample is
 * rate_bps, and the RTT view as RFC 9002's EWMA leaves it. */
static void ack(timeline *t, int64_t now_us, int64_t sent_us, double rate_bps) {
    cc_sent_packet p;
    memset(&p, 0, sizeof p);
    p.bytes = 1421;
    p.sent_time_us = sent_us;
    p.delivered_time_at_send_us = t->last_ack_us;
    p.first_sent_time_at_send_us = t->last_acked_sent_us;
    int64_t sample_us = now_us - sent_us;
    t->rtt.latest_rtt_us = sample_us;
    if (t->rtt.smoothed_rtt_us == 0) {
        t->rtt.smoothed_rtt_us = sample_us;
        t->rtt.rtt_var_us = sample_us / 2;
        t->rtt.min_rtt_us = sample_us;
    } else {
        int64_t dev = t->rtt.smoothed_rtt_us > sample_us ? t->rtt.smoothed_rtt_us - sample_us : sample_us - t->rtt.smoothed_rtt_us;
        t->rtt.rtt_var_us = (3 * t->rtt.rtt_var_us + dev) / 4;
        t->rtt.smoothed_rtt_us = (7 * t->rtt.smoothed_rtt_us + sample_us) / 8;
        if (sample_us < t->rtt.min_rtt_us) t->rtt.min_rtt_us = sample_us;
    }
    cc_path_silence_on_ack(&t->silence, &p, 0, now_us, &t->rtt);
    cc_ack_event e = {.packet = &p, .rtt_us = sample_us, .now_us = now_us, .delivery_rate_bytes_per_s = rate_bps / 8.0,
                      .rtt = &t->rtt, .silence = &t->silence};
    cc_validated_rate_on_ack(&t->v, &e);
    t->last_ack_us = now_us;
    t->last_acked_sent_us = sent_us;
}

static void run_fade(timeline *t) {
    memset(t, 0, sizeof *t);
    /* before the fade: a standing queue of ~370 ms at 6 Mbit/s, RTT samples 390-440 ms */
    for (int64_t now = 2640000; now <= 3870000; now += 10000) ack(t, now, now - ((now / 10000) % 2 ? 390000 : 440000), 6e6);
    /* acks in the fade (the uplink log's 4.025 and 4.33 s) */
    ack(t, 4025000, 3600000, 0.3e6);
    ack(t, 4025500, 3600500, 0.3e6);
    ack(t, 4330000, 3880000, 0.2e6);
    /* the faded link's queue: 230 packets sent 3.85-4.0 s, acked 4.69-4.95 s */
    for (int k = 0; k < 230; k++) {
        int64_t now = 4690000 + (int64_t)k * 1130;
        ack(t, now, 3850000 + (int64_t)k * 650, HELD_MAX_BPS * (k + 1) / 230.0);
    }
    /* the queue is gone: two PTO probes, then retransmissions at the path's RTT */
    ack(t, 5374000, 5374000 - 50000, 23e3);
    ack(t, 5374400, 5374400 - 50000, 23e3);
    for (int64_t now = 5400000; now <= 5440000; now += 2500) ack(t, now, now - PATH_RTT_US, 60e3);
}

static cc_context context(const cc_rtt_view *rtt) {
    cc_context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.min_rate_bytes_per_s = 100e3 / 8;
    ctx.max_rate_bytes_per_s = 1e12 / 8;
    ctx.initial_rate_bytes_per_s = 1e6 / 8;
    ctx.rtt = rtt;
    return ctx;
}

/* The window follows the sRTT, which fell from 0.94 s to ~0.1 s in the last acks: the sub-window that the lone ack at
 * 4.33 s began, and the held acks filled, must still count. (Where the sub-windows begin depends on the acks since
 * the flow's start; the run kept no recording, so this phase, sub-windows begun at 2.64, 3.47 and 4.33 s, is chosen:
 * the one the floor needs. Whatever the phase, a sub-window must not drop out while its samples are in the window.) */
static void test_window_keeps_the_fade(void) {
    timeline t;
    run_fade(&t);
    int64_t query_us = 5443000;
    double validated_bps = cc_validated_rate_bytes_per_s(&t.v, &t.rtt, query_us) * 8;
    printf("sRTT at the query %.0f ms (window %.2f s); validated %.3f Mbit/s (held acks' max %.1f)\n",
           t.rtt.smoothed_rtt_us / 1e3, 10 * t.rtt.smoothed_rtt_us / 1e6, validated_bps * 1e-6, HELD_MAX_BPS * 1e-6);
    CHECK(t.rtt.smoothed_rtt_us < 200000); /* the timeline does shrink the window below the held acks' span */
    CHECK(validated_bps >= 0.9 * HELD_MAX_BPS);
    cc_context ctx = context(&t.rtt);
    double ceiling_bps = cc_app_limited_rate_ceiling(&t.v, &ctx, query_us, CC_RATE_OVER_VALIDATED) * 8;
    printf("app-limited ceiling %.3f Mbit/s\n", ceiling_bps * 1e-6);
    CHECK(ceiling_bps >= CC_RATE_OVER_VALIDATED * 0.9 * HELD_MAX_BPS);
    /* and the window still ends: 10 s later, with acks at the path's RTT, the fade's samples are gone */
    for (int64_t now = 5450000; now <= 15450000; now += 10000) ack(&t, now, now - PATH_RTT_US, 0.5e6);
    CHECK_NEAR(cc_validated_rate_bytes_per_s(&t.v, &t.rtt, 15450000) * 8, 0.5e6, 1.0);
}

/* What a sender could not fill validates nothing below where a new flow starts (RFC 5681 §4.1's restart window; the
 * send-rate ceiling's floor, pcc_rate_limits.c): only PTO probes' samples in the window leave the ceiling at the
 * initial rate, not at 1.25 x their tens of kbit/s. */
static void test_ceiling_floor(void) {
    timeline t;
    memset(&t, 0, sizeof t);
    for (int64_t now = 1000000; now <= 1100000; now += 20000) ack(&t, now, now - PATH_RTT_US, 30e3);
    cc_context ctx = context(&t.rtt);
    double ceiling_bps = cc_app_limited_rate_ceiling(&t.v, &ctx, 1100000, CC_RATE_OVER_VALIDATED) * 8;
    printf("only 30-kbit/s samples: ceiling %.3f Mbit/s\n", ceiling_bps * 1e-6);
    CHECK_NEAR(ceiling_bps, 1e6, 1.0);
    /* above the initial rate the rule is as before */
    for (int64_t now = 1120000; now <= 1200000; now += 20000) ack(&t, now, now - PATH_RTT_US, 4e6);
    CHECK_NEAR(cc_app_limited_rate_ceiling(&t.v, &ctx, 1200000, CC_RATE_OVER_VALIDATED) * 8, 5e6, 1.0);
}

int main(void) {
    test_window_keeps_the_fade();
    test_ceiling_floor();
    return check_summary("test_validated_window");
}
