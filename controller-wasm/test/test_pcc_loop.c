/* The PCC loop (src/pcc_loop.h) through the smallest variant it can carry: "stepper" holds one rate, opens
 * one MI after another and makes a decision (a new epoch) every third result. What the loop promises every
 * variant - results in send order and only from the current epoch, MI floors, the timeout with RFC 9002's
 * initial RTT before any sample, unknown packets counted as lost unless the variant handles timeouts, a
 * custom utility in place of the built-in one, probe pairs in random order - is checked here once. */
#include <math.h>
#include <string.h>

#include "cc_algorithm.h"
#include "check.h"
#include "pcc_driver.h"
#include "pcc_loop.h"

#define RTT_US 30000
#define MAX_SEEN 4096
#define TIMEOUT_RTTS 5.0

typedef struct stepper {
    pcc_loop loop;              /* first, as the loop requires */
    double rate_bytes_per_s;
    uint64_t next_tag;
    /* what on_result and on_timeout saw */
    size_t results;
    uint64_t last_id;
    int out_of_order, stale, saw_timed_out;
    double timed_out_loss_rate;
    uint32_t fewest_packets;
    double last_utility;
    size_t timeouts_handled;
} stepper;

static stepper *last_created; /* the state of the controller created last, for direct checks */
static int handle_timeouts;   /* 1: the next stepper created has an on_timeout hook */

static void next_mi(void *state, pcc_next_mi *next) {
    stepper *s = state;
    next->rate_bytes_per_s = s->rate_bytes_per_s;
    next->tag = (int)(s->next_tag++ % 1000);
}

static double pending_rate(const void *state) { return ((const stepper *)state)->rate_bytes_per_s; }

static double mi_span_us(void *state) { return (double)((stepper *)state)->loop.ctx->rtt->smoothed_rtt_us; }

static double mi_timeout_rtts(const void *state) {
    (void)state;
    return TIMEOUT_RTTS;
}

static double utility(void *state, const pcc_mi_result *r, double *noise_var) {
    (void)state;
    *noise_var = 1.0;
    return r->stats.target_rate_bps * 1e-6;
}

static void on_result(void *state, const pcc_mi_outcome *outcome) {
    stepper *s = state;
    const pcc_mi_result *r = outcome->result;
    if (s->results > 0 && r->id <= s->last_id) s->out_of_order = 1;
    if (r->epoch != s->loop.epoch) s->stale = 1;
    if (r->timed_out) {
        s->saw_timed_out = 1;
        s->timed_out_loss_rate = r->stats.loss_rate;
    } else if (s->results == 0 || r->stats.packets_sent < s->fewest_packets) {
        s->fewest_packets = r->stats.packets_sent;
    }
    s->last_id = r->id;
    s->last_utility = outcome->utility;
    if (++s->results % 3 == 0) pcc_loop_new_epoch(&s->loop); /* a decision */
}

static void on_timeout(void *state, const pcc_mi_result *r) {
    stepper *s = state;
    (void)r;
    s->timeouts_handled++;
}

static void rebound(void *state, int nothing_sent) {
    stepper *s = state;
    if (nothing_sent) s->rate_bytes_per_s = s->loop.ctx->initial_rate_bytes_per_s;
}

static const char *state_name(const void *state) {
    (void)state;
    return "stepping";
}

static const pcc_hooks stepper_hooks = {
    .next_mi = next_mi, .pending_rate = pending_rate, .mi_span_us = mi_span_us, .mi_timeout_rtts = mi_timeout_rtts,
    .utility = utility, .on_result = on_result, .rebound = rebound, .state_name = state_name,
};
static const pcc_hooks stepper_hooks_with_timeouts = {
    .next_mi = next_mi, .pending_rate = pending_rate, .mi_span_us = mi_span_us, .mi_timeout_rtts = mi_timeout_rtts,
    .utility = utility, .on_result = on_result, .rebound = rebound, .state_name = state_name, .on_timeout = on_timeout,
};

static void stepper_init(void *state, cc_context *ctx, int64_t now_us) {
    (void)now_us;
    stepper *s = state;
    pcc_loop_init(&s->loop, ctx, handle_timeouts ? &stepper_hooks_with_timeouts : &stepper_hooks);
    s->rate_bytes_per_s = ctx->initial_rate_bytes_per_s;
    last_created = s;
}

static const cc_ops stepper_ops = {
    .name = "stepper", .description = "test variant on the PCC loop", .state_size = sizeof(stepper),
    .delivery_rate_unused = 1, .init = stepper_init, PCC_LOOP_OPS,
};

static cc_controller *create(int with_timeouts, double rate_bps) {
    handle_timeouts = with_timeouts;
    cc_controller *cc = cc_create_with_ops(&stepper_ops, 1, 0);
    CHECK(cc != NULL);
    CHECK(cc_param_set(cc, "min_rate_bps", 10e3) == CC_OK);
    CHECK(cc_param_set(cc, "initial_rate_bps", rate_bps) == CC_OK);
    return cc;
}

static void test_results_in_order_from_the_current_epoch(void) {
    cc_controller *cc = create(0, 8e6);
    stepper *s = last_created;
    driver d;
    driver_init(&d, cc, RTT_US);
    driver_run(&d, 2000000);
    cc_telemetry t;
    cc_get_telemetry(cc, &t);
    /* ~60 MIs of one RTT; each decision drops the MIs sent before it that were still in flight */
    CHECK(s->results > 20);
    CHECK(t.mi_completed > s->results);
    CHECK(!s->out_of_order && !s->stale);
    CHECK(strcmp(t.state, "stepping") == 0 && t.mi_rate_bps == 8e6 && t.cwnd_bytes == CC_CWND_UNLIMITED_BYTES);
    CHECK(t.last_mi_utility == 8.0 && s->last_utility == 8.0); /* the built-in utility: target rate in Mbit/s */
    driver_release(&d);
    cc_destroy(cc);
}

static void test_mi_floors(void) {
    /* 100 kbit/s of 1200-byte packets: one packet per 96 ms, so an RTT of 30 ms holds none; an MI still carries
     * PCC_MI_MIN_PACKETS. */
    cc_controller *cc = create(0, 100e3);
    stepper *s = last_created;
    driver d;
    driver_init(&d, cc, RTT_US);
    driver_run(&d, 20000000);
    CHECK(s->results >= 3);
    CHECK(s->fewest_packets >= PCC_MI_MIN_PACKETS);
    driver_release(&d);
    cc_destroy(cc);
}

static void test_timeout(void) {
    /* Before any RTT sample the timeout counts RFC 9002's 333 ms; then sRTTs, never below the floor. */
    cc_controller *cc = create(0, 8e6);
    stepper *s = last_created;
    CHECK(pcc_loop_mi_timeout_us(&s->loop) == (int64_t)(TIMEOUT_RTTS * CC_INITIAL_RTT_US));
    driver d;
    driver_init(&d, cc, RTT_US);
    driver_run(&d, 1000000);
    CHECK(pcc_loop_mi_timeout_us(&s->loop) == (int64_t)(TIMEOUT_RTTS * RTT_US));
    CHECK(!s->saw_timed_out);
    /* Silence: without an on_timeout hook a timed-out MI is an ordinary result whose unknown packets are lost. */
    d.feedback_enabled = 0;
    driver_run(&d, 2000000);
    CHECK(s->saw_timed_out && s->timed_out_loss_rate == 1.0);
    driver_release(&d);
    cc_destroy(cc);

    /* With the hook, timed-out MIs of the current epoch go there instead, once each. */
    cc = create(1, 8e6);
    s = last_created;
    driver_init(&d, cc, 2000);
    driver_run(&d, 500000);
    CHECK(pcc_loop_mi_timeout_us(&s->loop) == (int64_t)PCC_MI_TIMEOUT_MIN_US); /* 5 x 2 ms is below the floor */
    d.feedback_enabled = 0;
    size_t before = s->results;
    driver_run(&d, 1500000);
    CHECK(s->timeouts_handled >= 1 && !s->saw_timed_out && s->results == before);
    driver_release(&d);
    cc_destroy(cc);
}

static double constant_utility(const cc_mi_stats *mi, void *user) {
    (void)mi;
    return *(const double *)user;
}

static void test_custom_utility(void) {
    cc_controller *cc = create(0, 8e6);
    stepper *s = last_created;
    double value = -42.5;
    CHECK(cc_set_utility(cc, constant_utility, &value) == CC_OK);
    driver d;
    driver_init(&d, cc, RTT_US);
    driver_run(&d, 1000000);
    CHECK(s->results > 5 && s->last_utility == -42.5);
    value = NAN; /* not a number: handed on as invalid, 0 */
    driver_run(&d, 2000000);
    cc_telemetry t;
    cc_get_telemetry(cc, &t);
    CHECK(s->last_utility == 0.0 && t.last_mi_utility == 0.0);
    driver_release(&d);
    cc_destroy(cc);
}

static void test_probe_round(void) {
    cc_controller *cc = create(0, 8e6);
    stepper *s = last_created;
    int higher_first = 0, lower_first = 0;
    for (int round_index = 0; round_index < 200; round_index++) {
        pcc_probe_round round;
        pcc_probe_round_start(&round, s->loop.ctx);
        for (int pair = 0; pair < PCC_PROBE_PAIRS; pair++) {
            int first = round.order[2 * pair], second = round.order[2 * pair + 1];
            /* a pair's two probes go out back to back, one higher and one lower */
            CHECK(pcc_probe_slot_pair(first) == pair && pcc_probe_slot_pair(second) == pair);
            CHECK(pcc_probe_slot_lower(first) != pcc_probe_slot_lower(second));
            if (pcc_probe_slot_lower(first)) lower_first++;
            else higher_first++;
        }
        int taken[PCC_PROBE_SLOTS];
        for (int i = 0; i < PCC_PROBE_SLOTS; i++) {
            CHECK(pcc_probe_round_peek(&round) == round.order[i]);
            taken[i] = pcc_probe_round_take(&round);
        }
        CHECK(pcc_probe_round_take(&round) == -1 && pcc_probe_round_peek(&round) == -1);
        /* complete only when every slot's result is in; a repeated result does not count twice */
        CHECK(pcc_probe_round_record(&round, taken[0]) == 0);
        CHECK(pcc_probe_round_record(&round, taken[0]) == 0);
        CHECK(pcc_probe_round_record(&round, taken[1]) == 0);
        CHECK(pcc_probe_round_record(&round, PCC_PROBE_SLOTS) == 0);
        CHECK(pcc_probe_round_record(&round, taken[2]) == 0);
        CHECK(pcc_probe_round_record(&round, taken[3]) == 1);
    }
    /* the order is random per pair (seeded): both occur, about equally */
    CHECK(higher_first > 150 && lower_first > 150);
    cc_destroy(cc);
}

static cc_mi_report observed_mi;

static void observe_mi_1(const cc_mi_report *mi, void *user) {
    (void)user;
    if (mi->id == 1) observed_mi = *mi;
}

/* Issue 17: a burst of 100 packets sent in 2 ms (the sender was held, then caught up; a decision cut the MI short)
 * that the receiver got evenly over 20 ms, 40 Mbit/s, the bottleneck's pace, and whose ACKs (one per 4 packets,
 * each with the receive time of its largest, as the origin passes them) all arrive at once. What the MI delivered
 * is what the receiver saw; with no receiver times it stays the bytes acknowledged over the send duration. */
static double burst_mi_throughput_bps(int with_receiver_times) {
    cc_controller *cc = create(0, 40e6);
    stepper *s = last_created;
    memset(&observed_mi, 0, sizeof observed_mi);
    CHECK(cc_set_mi_observer(cc, observe_mi_1, NULL) == CC_OK);
    const int64_t recv_origin_us = 5000000; /* the receiver's clock has its own origin */
    cc_on_packet_sent(cc, 0, 1000, 0);
    cc_on_ack(cc, 0, 20000, with_receiver_times ? recv_origin_us : 0, 20000);
    for (uint64_t pn = 1; pn < 10; pn++) cc_on_packet_sent(cc, pn, 1000, 20000 + (int64_t)pn); /* fills MI 0 */
    for (uint64_t i = 0; i < 100; i++) cc_on_packet_sent(cc, 10 + i, 1000, 20010 + (int64_t)i * 20); /* MI 1 */
    pcc_loop_new_epoch(&s->loop);
    cc_on_packet_sent(cc, 110, 1000, 22000); /* closes MI 1: sent over 1,990 us */
    for (uint64_t pn = 1; pn < 10; pn++) cc_on_ack(cc, pn, 20000, with_receiver_times ? recv_origin_us + 10 : 0, 42000);
    for (uint64_t i = 0; i < 100; i++) {
        int64_t frame_recv_us = recv_origin_us + 1000 + (int64_t)(i / 4 * 4 + 4) * 200; /* the frame's largest */
        cc_on_ack(cc, 10 + i, 0, with_receiver_times ? frame_recv_us : 0, 45000);
    }
    CHECK(observed_mi.id == 1 && observed_mi.stats.packets_acked == 100 && !observed_mi.timed_out);
    CHECK_NEAR(observed_mi.stats.send_rate_bps, 100 * 8000 / 1990e-6, 1.0);
    cc_telemetry t;
    cc_get_telemetry(cc, &t);
    CHECK(t.last_mi_throughput_bps == observed_mi.stats.throughput_bps);
    cc_destroy(cc);
    return observed_mi.stats.throughput_bps;
}

static void test_delivery_on_receiver_clock(void) {
    /* 96 packets after the first frame's time, over the 19.2 ms from it to the last frame's */
    CHECK_NEAR(burst_mi_throughput_bps(1), 40e6, 1.0);
    CHECK_NEAR(burst_mi_throughput_bps(0), 100 * 8000 / 1990e-6, 1.0);
}

/* Issue 17: MI 1, ten packets sent in 1 ms (80 Mbit/s) idle_us after MI 0, that one ACK frame acknowledges together
 * with the first two of MI 2 (receiver time 35 ms + idle_us); the frame before it acknowledged MI 0 at 30 ms. Both
 * clocks start at the first packet's (one-way offset 0 there, the lowest seen). */
static double one_frame_mi_throughput_bps(int64_t idle_us) {
    cc_controller *cc = create(0, 8e6);
    stepper *s = last_created;
    memset(&observed_mi, 0, sizeof observed_mi);
    CHECK(cc_set_mi_observer(cc, observe_mi_1, NULL) == CC_OK);
    const int64_t recv_origin_us = 5000000;
    cc_on_packet_sent(cc, 0, 1000, 0);
    cc_on_ack(cc, 0, 20000, recv_origin_us, 20000);
    for (uint64_t pn = 1; pn < 10; pn++) cc_on_packet_sent(cc, pn, 1000, 20000 + (int64_t)pn);
    for (uint64_t pn = 1; pn < 10; pn++) cc_on_ack(cc, pn, 20000, recv_origin_us + 30000, 20100);
    pcc_loop_new_epoch(&s->loop);
    for (uint64_t i = 0; i < 10; i++) cc_on_packet_sent(cc, 10 + i, 1000, 21000 + idle_us + (int64_t)i * 100);
    pcc_loop_new_epoch(&s->loop);
    cc_on_packet_sent(cc, 20, 1000, 22000 + idle_us); /* closes MI 1: sent over 1 ms */
    cc_on_packet_sent(cc, 21, 1000, 22100 + idle_us);
    for (uint64_t pn = 10; pn < 22; pn++) cc_on_ack(cc, pn, 0, recv_origin_us + 35000 + idle_us, 47000 + idle_us);
    cc_on_packet_sent(cc, 22, 1000, 47100 + idle_us); /* the next send: that frame has ended */
    CHECK(observed_mi.id == 1 && observed_mi.stats.packets_acked == 10 && !observed_mi.timed_out);
    CHECK_NEAR(observed_mi.stats.send_rate_bps, 80e6, 1.0);
    cc_destroy(cc);
    return observed_mi.stats.throughput_bps;
}

static void test_delivery_of_an_mi_acked_in_one_frame(void) {
    /* The receiver got the frame's 12 packets over the 5 ms since the previous frame's receipts: 19.2 Mbit/s, not the
     * 80 Mbit/s it was sent at (an MI with no receiver span of its own read its send figure) */
    CHECK_NEAR(one_frame_mi_throughput_bps(0), 12 * 8000 / 5000e-6, 1.0);
    /* After half a second idle the previous frame is long past: the span starts when MI 1's first packet could
     * arrive (21 ms + idle on the receiver's clock) and counts the 11 packets after it, not 12 over 505 ms. */
    CHECK_NEAR(one_frame_mi_throughput_bps(500000), 11 * 8000 / 14000e-6, 1.0);
}

int main(void) {
    test_delivery_of_an_mi_acked_in_one_frame();
    test_delivery_on_receiver_clock();
    test_results_in_order_from_the_current_epoch();
    test_mi_floors();
    test_timeout();
    test_custom_utility();
    test_probe_round();
    return check_summary("test_pcc_loop");
}
