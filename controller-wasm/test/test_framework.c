/* The framework (controller.c) through the public API, with a recording algorithm to observe what
 * reaches an ops table: sanitised events, RTT view, bytes in flight, delivery rate, params, clamping. */
#include <stdint.h>
#include <string.h>

#include "cc_algorithm.h"
#include "app_state.h"
#include "check.h"
#include "pcc/cc.h"

/* ---- a recording algorithm ---- */
static const cc_param_desc recorder_params[] = {
    {"knob", 5, 0, 10, "a test parameter"},
};

typedef struct recorder {
    cc_context *ctx;
    int sent, acked, lost, ticks, param_changes, common_changes, app_states;
    cc_app_state last_app;
    cc_ack_event last_ack;
    cc_sent_packet last_ack_packet;
    uint64_t last_lost_pn;
    int64_t last_now_us;
    double rate_to_return;
    double cwnd_to_return;
} recorder;

static recorder *the_recorder;

static void rec_init(void *state, cc_context *ctx, int64_t now_us) {
    recorder *r = state;
    r->ctx = ctx;
    r->last_now_us = now_us;
    r->rate_to_return = 125000;
    r->cwnd_to_return = 50000;
    the_recorder = r;
}
static void rec_sent(void *state, const cc_sent_packet *p) {
    recorder *r = state;
    r->sent++;
    r->last_now_us = p->sent_time_us;
}
static void rec_ack(void *state, const cc_ack_event *e) {
    recorder *r = state;
    r->acked++;
    r->last_ack = *e;
    r->last_ack_packet = *e->packet;
    r->last_now_us = e->now_us;
}
static void rec_loss(void *state, const cc_loss_event *e) {
    recorder *r = state;
    r->lost++;
    r->last_lost_pn = e->packet->pn;
}
static void rec_tick(void *state, int64_t now_us) {
    recorder *r = state;
    r->ticks++;
    r->last_now_us = now_us;
}
static void rec_app_state(void *state, const cc_app_state *app, int64_t now_us) {
    recorder *r = state;
    r->app_states++;
    r->last_app = *app;
    r->last_now_us = now_us;
}
static double rec_rate(const void *state) { return ((const recorder *)state)->rate_to_return; }
static double rec_cwnd(const void *state) { return ((const recorder *)state)->cwnd_to_return; }
static void rec_param(void *state, size_t index) {
    recorder *r = state;
    if (index == CC_COMMON_PARAMS_CHANGED) r->common_changes++;
    else r->param_changes++;
}
static void rec_telemetry(const void *state, cc_telemetry *out) {
    (void)state;
    out->state = "recording";
    out->gradient = 0.0 / 0.0; /* must be scrubbed by the framework */
}

static const cc_ops recorder_ops = {
    .name = "recorder", .description = "test", .state_size = sizeof(recorder),
    .params = recorder_params, .param_count = 1, .accepts_custom_utility = 1,
    .init = rec_init, .on_packet_sent = rec_sent, .on_ack = rec_ack, .on_loss = rec_loss, .on_tick = rec_tick,
    .pacing_rate_bytes_per_s = rec_rate, .cwnd_bytes = rec_cwnd, .get_telemetry = rec_telemetry,
    .on_param_changed = rec_param, .on_app_state = rec_app_state,
};

static void test_registry(void) {
    CHECK(cc_algorithm_count() >= 1);
    int found_fixed = 0;
    for (size_t i = 0; i < cc_algorithm_count(); i++) {
        const char *name = cc_algorithm_name_at(i);
        CHECK(name != NULL);
        if (name != NULL && strcmp(name, "fixed") == 0) found_fixed = 1;
        cc_controller *cc = cc_create(name, 1, 0);
        CHECK(cc != NULL);
        if (cc != NULL) CHECK(strcmp(cc_algorithm(cc), name) == 0);
        cc_destroy(cc);
    }
    CHECK(found_fixed);
    CHECK(cc_algorithm_name_at(cc_algorithm_count()) == NULL);
    CHECK(cc_create("no-such-algorithm", 1, 0) == NULL);
    CHECK(cc_create(NULL, 1, 0) == NULL);
    cc_destroy(NULL);
    /* A NULL controller is refused everywhere rather than crashing. */
    cc_on_packet_sent(NULL, 1, 1200, 0);
    cc_on_ack(NULL, 1, 0, 0, 0);
    cc_on_loss(NULL, 1, 0);
    cc_on_tick(NULL, 0);
    mark_app_limited(NULL, 0);
    cc_on_app_state(NULL, NULL, 0);
    CHECK(cc_pacing_rate_bytes_per_s(NULL) == 0 && cc_cwnd_bytes(NULL) == 0 && cc_bytes_in_flight(NULL) == 0);
    CHECK(cc_param_count(NULL) == 0 && cc_param_at(NULL, 0) == NULL && cc_algorithm(NULL) == NULL);
    CHECK(cc_param_set(NULL, "mss_bytes", 1200) == CC_ERR_UNKNOWN);
    CHECK(cc_set_utility(NULL, NULL, NULL) == CC_ERR_INVALID);
    cc_telemetry t;
    cc_get_telemetry(NULL, &t);
    CHECK(strcmp(t.state, "none") == 0);
}

static void test_fixed_and_params(void) {
    cc_controller *cc = cc_create("fixed", 1, 0);
    double v = 0;
    CHECK(cc_param_get(cc, "rate_bps", &v) == CC_OK && v == 10e6);
    CHECK_NEAR(cc_pacing_rate_bytes_per_s(cc), 10e6 / 8, 1e-9);
    CHECK(cc_cwnd_bytes(cc) == CC_CWND_UNLIMITED_BYTES);
    CHECK(cc_param_set(cc, "rate_bps", 40e6) == CC_OK);
    CHECK_NEAR(cc_pacing_rate_bytes_per_s(cc), 5e6, 1e-9);
    /* Output clamped to [min, max]. */
    CHECK(cc_param_set(cc, "max_rate_bps", 8e6) == CC_OK);
    CHECK_NEAR(cc_pacing_rate_bytes_per_s(cc), 1e6, 1e-9);
    CHECK(cc_param_set(cc, "rate_bps", 2e3) == CC_OK);
    CHECK_NEAR(cc_pacing_rate_bytes_per_s(cc), 100e3 / 8, 1e-9);
    /* Rejections leave the value unchanged. */
    CHECK(cc_param_set(cc, "rate_bps", 0.0 / 0.0) == CC_ERR_INVALID);
    CHECK(cc_param_set(cc, "rate_bps", 1.0 / 0.0) == CC_ERR_INVALID);
    CHECK(cc_param_set(cc, "rate_bps", -5) == CC_ERR_INVALID);
    CHECK(cc_param_set(cc, "rate_bps", 1e13) == CC_ERR_INVALID);
    CHECK(cc_param_get(cc, "rate_bps", &v) == CC_OK && v == 2e3);
    CHECK(cc_param_set(cc, "min_rate_bps", 9e6) == CC_ERR_INVALID); /* above max */
    CHECK(cc_param_set(cc, "max_rate_bps", 50e3) == CC_ERR_INVALID); /* below min */
    CHECK(cc_param_set(cc, "nope", 1) == CC_ERR_UNKNOWN);
    CHECK(cc_param_set(cc, NULL, 1) == CC_ERR_UNKNOWN);
    CHECK(cc_param_get(cc, "nope", &v) == CC_ERR_UNKNOWN);
    CHECK(cc_param_get(cc, "mss_bytes", NULL) == CC_ERR_INVALID);
    CHECK(cc_param_count(cc) == 5);
    CHECK(strcmp(cc_param_at(cc, 0)->name, "min_rate_bps") == 0);
    CHECK(strcmp(cc_param_at(cc, 4)->name, "rate_bps") == 0);
    CHECK(cc_param_at(cc, 5) == NULL);
    /* fixed is not a PCC algorithm. */
    CHECK(cc_set_utility(cc, NULL, NULL) == CC_ERR_INVALID);
    cc_telemetry t;
    cc_get_telemetry(cc, &t);
    CHECK(strcmp(t.algorithm, "fixed") == 0 && strcmp(t.state, "fixed") == 0);
    CHECK_NEAR(t.pacing_rate_bps, 100e3, 1e-6);
    cc_destroy(cc);
}

static void test_events_and_rtt(void) {
    cc_controller *cc = cc_create_with_ops(&recorder_ops, 7, 1000);
    recorder *r = the_recorder;
    CHECK(r->ctx->mss_bytes == 1200);
    CHECK_NEAR(r->ctx->initial_rate_bytes_per_s, 1e6 / 8, 1e-9);
    for (uint64_t pn = 0; pn < 10; pn++) cc_on_packet_sent(cc, pn, 1000, 1000 + (int64_t)pn * 100);
    CHECK(r->sent == 10);
    CHECK(cc_bytes_in_flight(cc) == 10000);
    /* Non-increasing packet numbers and empty packets are ignored. */
    cc_on_packet_sent(cc, 5, 1000, 3000);
    cc_on_packet_sent(cc, 9, 1000, 3000);
    cc_on_packet_sent(cc, 10, 0, 3000);
    CHECK(r->sent == 10);
    cc_telemetry t;
    cc_get_telemetry(cc, &t);
    CHECK(t.events_ignored == 3);

    /* A valid RTT sample is used as given. */
    cc_on_ack(cc, 0, 20000, 0, 21000);
    CHECK(r->acked == 1 && r->last_ack.rtt_us == 20000);
    CHECK(cc_bytes_in_flight(cc) == 9000 && r->last_ack.bytes_in_flight == 9000);
    cc_get_telemetry(cc, &t);
    CHECK(t.srtt_us == 20000 && t.min_rtt_us == 20000 && t.latest_rtt_us == 20000);
    /* Zero and negative samples fall back to now - sent time. */
    cc_on_ack(cc, 1, 0, 0, 21100 + 15000);
    CHECK(r->last_ack.rtt_us == 35000);
    cc_on_ack(cc, 2, -5, 0, 21200 + 15000);
    CHECK(r->last_ack.rtt_us == 35000);
    /* A sample longer than the time since send is impossible: replaced too. */
    cc_on_ack(cc, 3, 1000000, 0, 1300 + 38000);
    CHECK(r->last_ack.rtt_us == 38000);
    /* RFC 9002 smoothing: 20000, then 35000, 35000, 38000. */
    int64_t srtt = 20000;
    srtt = (7 * srtt + 35000) / 8;
    srtt = (7 * srtt + 35000) / 8;
    srtt = (7 * srtt + 38000) / 8;
    cc_get_telemetry(cc, &t);
    CHECK(t.srtt_us == (double)srtt && t.min_rtt_us == 20000 && t.latest_rtt_us == 38000);

    /* Duplicate, unknown, lost-after-ack and ack-after-loss events are ignored. */
    int acked = r->acked;
    cc_on_ack(cc, 0, 20000, 0, 40000);
    cc_on_ack(cc, 999, 20000, 0, 40000);
    cc_on_loss(cc, 1, 40000);
    cc_on_loss(cc, 4, 40000);
    CHECK(r->lost == 1 && r->last_lost_pn == 4);
    cc_on_ack(cc, 4, 20000, 0, 40000);
    cc_on_loss(cc, 4, 40000);
    CHECK(r->acked == acked && r->lost == 1);
    cc_get_telemetry(cc, &t);
    CHECK(t.events_ignored == 3 + 5);
    CHECK(t.packets_sent == 10 && t.packets_acked == 4 && t.packets_lost == 1);
    CHECK(cc_bytes_in_flight(cc) == 5000);

    /* A clock going backwards is clamped to the latest time seen. */
    cc_on_tick(cc, 100);
    CHECK(r->ticks == 1 && r->last_now_us == 40000);
    cc_on_ack(cc, 5, 0, 0, 50);
    CHECK(r->last_ack.now_us == 40000 && r->last_ack.rtt_us == 40000 - 1500);
    cc_on_tick(cc, 40000);
    /* A packet sent and acked in the same microsecond still gets a positive RTT. */
    cc_on_packet_sent(cc, 20, 1000, 40000);
    cc_on_ack(cc, 20, 0, 0, 40000);
    CHECK(r->last_ack.rtt_us == 1);

    /* Parameters of the algorithm and common ones notify it. */
    CHECK(cc_param_set(cc, "knob", 7) == CC_OK && r->param_changes == 1 && r->ctx->params[0] == 7);
    CHECK(cc_param_set(cc, "knob", 11) == CC_ERR_INVALID && r->ctx->params[0] == 7);
    CHECK(cc_param_set(cc, "mss_bytes", 1452) == CC_OK && r->common_changes == 1 && r->ctx->mss_bytes == 1452);
    CHECK(cc_param_set(cc, "initial_rate_bps", 1e12) == CC_OK);
    CHECK_NEAR(r->ctx->initial_rate_bytes_per_s, 10e9 / 8, 1e-3); /* initial rate is held within [min,max] */

    /* Output clamping and finiteness. */
    r->rate_to_return = 0.0 / 0.0;
    CHECK(cc_pacing_rate_bytes_per_s(cc) == r->ctx->initial_rate_bytes_per_s);
    r->rate_to_return = 1.0 / 0.0;
    CHECK(cc_pacing_rate_bytes_per_s(cc) == 10e9 / 8);
    r->rate_to_return = -1;
    CHECK(cc_pacing_rate_bytes_per_s(cc) == 100e3 / 8);
    r->cwnd_to_return = 0.0 / 0.0;
    CHECK(cc_cwnd_bytes(cc) == CC_CWND_UNLIMITED_BYTES);
    r->cwnd_to_return = 1;
    CHECK(cc_cwnd_bytes(cc) == 1452);
    cc_get_telemetry(cc, &t);
    CHECK(t.gradient == 0 && strcmp(t.state, "recording") == 0 && strcmp(t.algorithm, "recorder") == 0);
    CHECK(cc_set_utility(cc, NULL, NULL) == CC_OK);
    cc_destroy(cc);
}

static void test_delivery_rate(void) {
    cc_controller *cc = cc_create_with_ops(&recorder_ops, 7, 0);
    recorder *r = the_recorder;
    /* 1000 bytes every 1 ms = 1e6 bytes/s, 10 ms RTT. */
    for (uint64_t pn = 0; pn < 100; pn++) {
        int64_t now = (int64_t)pn * 1000;
        if (pn >= 10) cc_on_ack(cc, pn - 10, 0, 0, now);
        cc_on_packet_sent(cc, pn, 1000, now);
    }
    CHECK(r->last_ack.rtt_us == 10000);
    CHECK_NEAR(r->last_ack.delivery_rate_bytes_per_s, 1e6, 1e6 * 0.02);
    CHECK(r->last_ack_packet.delivered_bytes_at_send > 0);
    CHECK(r->last_ack.delivered_bytes == 90 * 1000);
    CHECK(!r->last_ack.delivery_rate_app_limited);
    /* App-limited marks samples until what is in flight now is delivered. */
    mark_app_limited(cc, 100000);
    cc_on_packet_sent(cc, 100, 1000, 100000);
    for (uint64_t pn = 90; pn <= 100; pn++) cc_on_ack(cc, pn, 0, 0, 110000 + (int64_t)pn);
    CHECK(r->last_ack.delivery_rate_app_limited);
    cc_on_packet_sent(cc, 101, 1000, 111000);
    cc_on_ack(cc, 101, 0, 0, 121000);
    CHECK(!r->last_ack.delivery_rate_app_limited);
    cc_destroy(cc);

    /* An algorithm that declares delivery_rate_unused gets 0 ("no sample") on the same traffic; everything
     * else in the event is unchanged. */
    cc_ops blind_ops = recorder_ops;
    blind_ops.delivery_rate_unused = 1;
    cc = cc_create_with_ops(&blind_ops, 7, 0);
    r = the_recorder;
    for (uint64_t pn = 0; pn < 100; pn++) {
        int64_t now = (int64_t)pn * 1000;
        if (pn >= 10) cc_on_ack(cc, pn - 10, 0, 0, now);
        cc_on_packet_sent(cc, pn, 1000, now);
    }
    CHECK(r->acked == 90 && r->last_ack.rtt_us == 10000);
    CHECK(r->last_ack.delivery_rate_bytes_per_s == 0.0);
    CHECK(r->last_ack.delivered_bytes == 90 * 1000);
    cc_destroy(cc);
}

static void test_ledger_growth_and_gaps(void) {
    cc_controller *cc = cc_create_with_ops(&recorder_ops, 7, 0);
    recorder *r = the_recorder;
    /* 50000 packets in flight with gaps of 3: the ring grows beyond its initial size. */
    for (uint64_t i = 0; i < 50000; i++) cc_on_packet_sent(cc, i * 3, 1200, (int64_t)i);
    CHECK(cc_bytes_in_flight(cc) == 50000ull * 1200);
    CHECK(r->sent == 50000);
    /* Ack in reverse order: all are found. */
    for (uint64_t i = 50000; i-- > 0;) cc_on_ack(cc, i * 3, 0, 0, 100000);
    CHECK(r->acked == 50000 && cc_bytes_in_flight(cc) == 0);
    cc_telemetry t;
    cc_get_telemetry(cc, &t);
    CHECK(t.events_ignored == 0);
    /* Numbers in the gaps are unknown. */
    cc_on_ack(cc, 1, 0, 0, 100000);
    cc_get_telemetry(cc, &t);
    CHECK(t.events_ignored == 1);
    /* A jump far beyond the ledger's reach evicts (declares lost) the packets it cannot span. */
    cc_on_packet_sent(cc, 200000, 1200, 100001);
    cc_on_packet_sent(cc, 200001, 1200, 100002);
    cc_on_packet_sent(cc, 200000 + (1ull << 40), 1200, 100003);
    CHECK(r->lost == 2 && cc_bytes_in_flight(cc) == 1200);
    cc_on_ack(cc, 200000 + (1ull << 40), 0, 0, 120000);
    CHECK(cc_bytes_in_flight(cc) == 0);
    /* From an empty ledger any larger number re-bases without loss. */
    cc_on_packet_sent(cc, UINT64_MAX - 1, 1200, 120001);
    CHECK(cc_bytes_in_flight(cc) == 1200 && r->lost == 2);
    /* ... but not the very last number, and nothing after it. */
    cc_on_packet_sent(cc, UINT64_MAX, 1200, 120002);
    CHECK(cc_bytes_in_flight(cc) == 1200 && r->sent == 50000 + 3 + 1);
    cc_on_ack(cc, UINT64_MAX - 1, 0, 0, 130000);
    CHECK(cc_bytes_in_flight(cc) == 0);
    cc_destroy(cc);
}

/* One application-state event: the framework keeps the latest state for every algorithm (cc_context.app), with
 * negative numbers as "unknown", refuses what is not a number, and marks delivery samples app-limited only when
 * the sender said it ran out of data. */
static void test_app_state(void) {
    cc_controller *cc = cc_create_with_ops(&recorder_ops, 7, 0);
    recorder *r = the_recorder;
    const cc_app_view *app = r->ctx->app;
    CHECK(app->updated_us == 0 && app->buffer_ms < 0 && app->bitrate_bps < 0 && app->deadline_us < 0);
    cc_app_state video = {.app_limited = 0, .buffer_ms = 4500, .bitrate_bps = 3e6, .deadline_us = 2000000};
    cc_on_app_state(cc, &video, 50000);
    CHECK(r->app_states == 1 && r->last_app.buffer_ms == 4500 && r->last_now_us == 50000);
    CHECK(app->updated_us == 50000 && app->buffer_ms == 4500 && app->bitrate_bps == 3e6 && app->deadline_us == 2000000);
    /* video fields alone do not mark anything app-limited */
    for (uint64_t pn = 0; pn < 20; pn++) cc_on_packet_sent(cc, pn, 1000, 60000 + (int64_t)pn * 1000);
    cc_on_ack(cc, 0, 0, 0, 90000);
    CHECK(!r->last_ack.delivery_rate_app_limited);
    /* any negative number is "unknown"; the whole state is replaced */
    cc_app_state partly = {.app_limited = 1, .buffer_ms = -7, .bitrate_bps = 2.5e6, .deadline_us = -1};
    cc_on_app_state(cc, &partly, 91000);
    CHECK(app->buffer_ms == CC_APP_UNKNOWN && app->bitrate_bps == 2.5e6 && app->deadline_us == CC_APP_UNKNOWN);
    cc_on_packet_sent(cc, 20, 1000, 92000);
    cc_on_ack(cc, 20, 0, 0, 120000);
    CHECK(r->last_ack.delivery_rate_app_limited);
    /* refused: not a number, app_limited not 0/1, no state; nothing changes and the event is counted */
    cc_telemetry t;
    cc_get_telemetry(cc, &t);
    uint64_t ignored = t.events_ignored;
    cc_app_state bad = {.app_limited = 0, .buffer_ms = 0.0 / 0.0, .bitrate_bps = 1e6, .deadline_us = 0};
    cc_on_app_state(cc, &bad, 130000);
    bad = (cc_app_state){.app_limited = 2, .buffer_ms = 100, .bitrate_bps = 1e6, .deadline_us = 0};
    cc_on_app_state(cc, &bad, 130000);
    bad = (cc_app_state){.app_limited = 0, .buffer_ms = 100, .bitrate_bps = 1.0 / 0.0, .deadline_us = 0};
    cc_on_app_state(cc, &bad, 130000);
    cc_on_app_state(cc, NULL, 130000);
    cc_get_telemetry(cc, &t);
    CHECK(t.events_ignored == ignored + 4 && r->app_states == 2 && app->bitrate_bps == 2.5e6 && app->updated_us == 91000);
    cc_destroy(cc);
}

int main(void) {
    test_registry();
    test_fixed_and_params();
    test_events_and_rtt();
    test_delivery_rate();
    test_ledger_growth_and_gaps();
    test_app_state();
    return check_summary("test_framework");
}
