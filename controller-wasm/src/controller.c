/*
 * The framework behind include/pcc/cc.h: sanitises every input once, keeps the sent-packet ledger,
 * bytes in flight, the RTT view and delivery-rate samples, then hands clean events to the algorithm's
 * ops table (cc_algorithm.h) and clamps whatever comes back.
 */
#include "pcc/cc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cc_algorithm.h"
#include "packet_ledger.h"
#include "registry.h"
#include "seeded_random.h"

/* Common parameters, shared by every algorithm; listed before the algorithm's own. */
enum { COMMON_MIN_RATE, COMMON_MAX_RATE, COMMON_INITIAL_RATE, COMMON_MSS, COMMON_COUNT };

static const cc_param_desc common_params[COMMON_COUNT] = {
    {"min_rate_bps", 100e3, 1e3, 1e12, "lowest pacing rate the controller may output, bits/s"},
    {"max_rate_bps", 10e9, 1e3, 1e12, "highest pacing rate the controller may output, bits/s"},
    /* 1 Mbit/s: below any video rung we serve, so a new flow never overshoots a thin link; slow start
     * doubles per monitor interval (thesis §4.4), reaching 100 Mbit/s in about 7 RTTs. */
    {"initial_rate_bps", 1e6, 1e3, 1e12, "rate at start, before any feedback, bits/s"},
    {"mss_bytes", 1200, 100, 65535, "packet size the algorithm plans with, bytes"},
};

/* An RTT sample above this is treated as garbage and replaced by now - sent time. */
#define MAX_RTT_SAMPLE_US ((int64_t)120 * 1000 * 1000)

struct cc_controller {
    const cc_ops *ops;
    void *state;
    cc_context ctx;
    double common_values[COMMON_COUNT];
    double *algorithm_values;
    cc_rtt_view rtt;
    cc_path_silence silence;
    cc_packet_ledger ledger;
    int64_t now_us;                   /* monotonic: max of every `now` seen */
    uint64_t prng[4];                 /* xoshiro256** */
    uint64_t bytes_in_flight;
    /* Delivery-rate state, as Linux tcp_rate.c. */
    uint64_t delivered_bytes;
    int64_t delivered_time_us;
    int64_t first_sent_time_us;
    uint64_t app_limited_until_bytes; /* 0 = not app-limited */
    cc_app_view app;                  /* cc_on_app_state */
    /* Counters for telemetry. */
    uint64_t packets_sent;
    uint64_t packets_acked;
    uint64_t packets_lost;
    uint64_t events_ignored;
};

/* ---- seeded PRNG (src/seeded_random.h): one xoshiro256** stream per controller ---- */

static uint64_t context_random_u64(cc_context *ctx) {
    return cc_xoshiro256_next(((cc_controller *)ctx->framework)->prng);
}

static double context_random_unit(cc_context *ctx) {
    return cc_xoshiro256_unit(((cc_controller *)ctx->framework)->prng);
}

/* ---- helpers ---- */

static int64_t advance_clock(cc_controller *cc, int64_t now_us) {
    if (now_us > cc->now_us) cc->now_us = now_us; /* a clock going backwards is clamped */
    return cc->now_us;
}

static void sync_context_from_common(cc_controller *cc) {
    cc->ctx.min_rate_bytes_per_s = cc->common_values[COMMON_MIN_RATE] / 8.0;
    cc->ctx.max_rate_bytes_per_s = cc->common_values[COMMON_MAX_RATE] / 8.0;
    double initial = cc->common_values[COMMON_INITIAL_RATE];
    if (initial < cc->common_values[COMMON_MIN_RATE]) initial = cc->common_values[COMMON_MIN_RATE];
    if (initial > cc->common_values[COMMON_MAX_RATE]) initial = cc->common_values[COMMON_MAX_RATE];
    cc->ctx.initial_rate_bytes_per_s = initial / 8.0;
    cc->ctx.mss_bytes = (uint32_t)cc->common_values[COMMON_MSS];
}

static void update_rtt(cc_rtt_view *rtt, int64_t sample_us) {
    rtt->latest_rtt_us = sample_us;
    if (rtt->min_rtt_us == 0 || sample_us < rtt->min_rtt_us) rtt->min_rtt_us = sample_us;
    if (rtt->smoothed_rtt_us == 0) {
        /* RFC 9002 §5.3: first sample */
        rtt->smoothed_rtt_us = sample_us;
        rtt->rtt_var_us = sample_us / 2;
        return;
    }
    int64_t deviation = rtt->smoothed_rtt_us > sample_us ? rtt->smoothed_rtt_us - sample_us
                                                         : sample_us - rtt->smoothed_rtt_us;
    rtt->rtt_var_us = (3 * rtt->rtt_var_us + deviation) / 4;
    rtt->smoothed_rtt_us = (7 * rtt->smoothed_rtt_us + sample_us) / 8;
    if (rtt->smoothed_rtt_us < 1) rtt->smoothed_rtt_us = 1;
}

static double finite_or(double value, double fallback) { return isfinite(value) ? value : fallback; }

static double clamp(double value, double lo, double hi) {
    if (value < lo) return lo;
    if (value > hi) return hi;
    return value;
}

/* Removes a packet that is leaving flight (acked, lost or evicted) from the byte count. */
static void take_out_of_flight(cc_controller *cc, const cc_sent_packet *packet) {
    cc->bytes_in_flight = cc->bytes_in_flight >= packet->bytes ? cc->bytes_in_flight - packet->bytes : 0;
}

static void report_loss(cc_controller *cc, cc_sent_packet *packet, int64_t now_us) {
    take_out_of_flight(cc, packet);
    cc->packets_lost++;
    cc_loss_event event = {
        .packet = packet, .now_us = now_us, .bytes_in_flight = cc->bytes_in_flight, .rtt = &cc->rtt};
    cc->ops->on_loss(cc->state, &event);
    cc_ledger_remove(&cc->ledger, packet);
}

/* Rare paths called from the per-packet ones live in functions of their own: inlined by the compiler, their
 * locals made every call of the hot function set up a stack frame (in WebAssembly, in linear memory).
 * (Binaryen may still inline them after linking, but then keeps the frame inside the rare branch.) */
#if defined(__GNUC__)
#define CC_OUT_OF_LINE __attribute__((noinline, cold))
#else
#define CC_OUT_OF_LINE
#endif

/* A packet number so far ahead that the ledger cannot span it: the oldest outstanding packets are
 * hundreds of thousands of packets old, so they are declared lost rather than tracked forever. */
CC_OUT_OF_LINE static void evict_out_of_reach(cc_controller *cc, uint64_t pn, int64_t now_us) {
    while (cc_ledger_needs_eviction(&cc->ledger, pn)) {
        cc_sent_packet *oldest = cc_ledger_oldest(&cc->ledger);
        if (oldest == NULL) break;
        report_loss(cc, oldest, now_us);
    }
}

/* ---- public API ---- */

size_t cc_algorithm_count(void) { return cc_registry_count(); }

const char *cc_algorithm_name_at(size_t index) {
    const cc_ops *ops = cc_registry_at(index);
    return ops != NULL ? ops->name : NULL;
}

cc_controller *cc_create(const char *algorithm, uint64_t seed, int64_t now_us) {
    const cc_ops *ops = cc_registry_find(algorithm);
    return ops != NULL ? cc_create_with_ops(ops, seed, now_us) : NULL;
}

cc_controller *cc_create_with_ops(const cc_ops *ops, uint64_t seed, int64_t now_us) {
    if (ops == NULL) return NULL;
    cc_controller *cc = calloc(1, sizeof *cc);
    if (cc == NULL) return NULL;
    cc->ops = ops;
    cc->state = calloc(1, ops->state_size > 0 ? ops->state_size : 1);
    cc->algorithm_values = calloc(ops->param_count > 0 ? ops->param_count : 1, sizeof(double));
    if (cc->state == NULL || cc->algorithm_values == NULL || cc_ledger_init(&cc->ledger) != CC_OK) {
        free(cc->state);
        free(cc->algorithm_values);
        free(cc);
        return NULL;
    }
    for (size_t i = 0; i < COMMON_COUNT; i++) cc->common_values[i] = common_params[i].default_value;
    for (size_t i = 0; i < ops->param_count; i++) cc->algorithm_values[i] = ops->params[i].default_value;
    cc_xoshiro256_seed(cc->prng, seed);
    cc->now_us = now_us;
    cc->delivered_time_us = now_us;
    cc->first_sent_time_us = now_us;
    cc->ctx.params = cc->algorithm_values;
    cc->ctx.rtt = &cc->rtt;
    cc->ctx.bytes_in_flight = &cc->bytes_in_flight;
    cc->app = (cc_app_view){.updated_us = 0, .buffer_ms = CC_APP_UNKNOWN, .bitrate_bps = CC_APP_UNKNOWN, .deadline_us = CC_APP_UNKNOWN};
    cc->ctx.app = &cc->app;
    cc->ctx.random_u64 = context_random_u64;
    cc->ctx.random_unit = context_random_unit;
    cc->ctx.framework = cc;
    sync_context_from_common(cc);
    ops->init(cc->state, &cc->ctx, now_us);
    return cc;
}

void cc_destroy(cc_controller *cc) {
    if (cc == NULL) return;
    if (cc->ops->release != NULL) cc->ops->release(cc->state);
    cc_ledger_release(&cc->ledger);
    free(cc->state);
    free(cc->algorithm_values);
    free(cc);
}

const char *cc_algorithm(const cc_controller *cc) { return cc != NULL ? cc->ops->name : NULL; }

size_t cc_param_count(const cc_controller *cc) { return cc != NULL ? COMMON_COUNT + cc->ops->param_count : 0; }

const cc_param_desc *cc_param_at(const cc_controller *cc, size_t index) {
    if (cc == NULL) return NULL;
    if (index < COMMON_COUNT) return &common_params[index];
    index -= COMMON_COUNT;
    return index < cc->ops->param_count ? &cc->ops->params[index] : NULL;
}

/* Index in the combined list (common first), or -1. */
static long find_param(const cc_controller *cc, const char *name) {
    if (cc == NULL || name == NULL) return -1;
    size_t count = cc_param_count(cc);
    for (size_t i = 0; i < count; i++) {
        if (strcmp(cc_param_at(cc, i)->name, name) == 0) return (long)i;
    }
    return -1;
}

int cc_param_get(const cc_controller *cc, const char *name, double *value_out) {
    long index = find_param(cc, name);
    if (index < 0) return CC_ERR_UNKNOWN;
    if (value_out == NULL) return CC_ERR_INVALID;
    *value_out = index < COMMON_COUNT ? cc->common_values[index] : cc->algorithm_values[index - COMMON_COUNT];
    return CC_OK;
}

int cc_param_set(cc_controller *cc, const char *name, double value) {
    long index = find_param(cc, name);
    if (index < 0) return CC_ERR_UNKNOWN;
    const cc_param_desc *desc = cc_param_at(cc, (size_t)index);
    if (!isfinite(value) || value < desc->min_value || value > desc->max_value) return CC_ERR_INVALID;
    if (index >= COMMON_COUNT) {
        size_t own = (size_t)index - COMMON_COUNT;
        cc->algorithm_values[own] = value;
        if (cc->ops->on_param_changed != NULL) cc->ops->on_param_changed(cc->state, own);
        return CC_OK;
    }
    /* The bounds must stay ordered: a min above max (or the reverse) is rejected, not reconciled. */
    if (index == COMMON_MIN_RATE && value > cc->common_values[COMMON_MAX_RATE]) return CC_ERR_INVALID;
    if (index == COMMON_MAX_RATE && value < cc->common_values[COMMON_MIN_RATE]) return CC_ERR_INVALID;
    if (index == COMMON_MSS) value = floor(value);
    cc->common_values[index] = value;
    sync_context_from_common(cc);
    if (cc->ops->on_param_changed != NULL) cc->ops->on_param_changed(cc->state, CC_COMMON_PARAMS_CHANGED);
    return CC_OK;
}

void cc_on_packet_sent(cc_controller *cc, uint64_t pn, uint32_t bytes, int64_t now_us) {
    if (cc == NULL) return;
    now_us = advance_clock(cc, now_us);
    if (bytes == 0 || !cc_ledger_accepts(&cc->ledger, pn)) {
        cc->events_ignored++;
        return;
    }
    if (cc_ledger_needs_eviction(&cc->ledger, pn)) evict_out_of_reach(cc, pn, now_us);
    if (cc->bytes_in_flight == 0) {
        /* tcp_rate.c: a send from idle restarts the delivery-rate interval. */
        cc->first_sent_time_us = now_us;
        cc->delivered_time_us = now_us;
    }
    cc_sent_packet *packet = NULL;
    if (cc_ledger_insert(&cc->ledger, pn, &packet) != CC_OK) {
        cc->events_ignored++; /* out of memory: the packet goes untracked, which is safe */
        return;
    }
    cc->bytes_in_flight += bytes;
    cc->packets_sent++;
    packet->bytes = bytes;
    packet->sent_time_us = now_us;
    packet->bytes_in_flight_at_send = cc->bytes_in_flight;
    packet->delivered_bytes_at_send = cc->delivered_bytes;
    packet->delivered_time_at_send_us = cc->delivered_time_us;
    packet->first_sent_time_at_send_us = cc->first_sent_time_us;
    packet->is_app_limited = cc->app_limited_until_bytes != 0;
    cc->ops->on_packet_sent(cc->state, packet);
}

void cc_on_ack(cc_controller *cc, uint64_t pn, int64_t rtt_us, int64_t recv_time_us, int64_t now_us) {
    if (cc == NULL) return;
    now_us = advance_clock(cc, now_us);
    cc_sent_packet *packet = cc_ledger_find(&cc->ledger, pn);
    if (packet == NULL) {
        cc->events_ignored++; /* unknown, duplicate, or already declared lost */
        return;
    }
    int64_t since_send_us = now_us - packet->sent_time_us;
    /* The caller's sample wins when plausible; it cannot exceed the time since send on our clock. */
    if (rtt_us <= 0 || rtt_us > MAX_RTT_SAMPLE_US || (since_send_us > 0 && rtt_us > since_send_us)) {
        rtt_us = since_send_us;
    }
    if (rtt_us <= 0) rtt_us = 1;
    update_rtt(&cc->rtt, rtt_us);
    cc_path_silence_on_ack(&cc->silence, packet, recv_time_us, now_us, &cc->rtt);

    take_out_of_flight(cc, packet);
    cc->packets_acked++;
    cc->delivered_bytes += packet->bytes;
    cc->delivered_time_us = now_us;
    if (cc->app_limited_until_bytes != 0 && cc->delivered_bytes > cc->app_limited_until_bytes) {
        cc->app_limited_until_bytes = 0;
    }
    /* tcp_rate.c: the sample spans the longer of the send and the ack intervals, so a burst of acks
     * cannot inflate it; shorter than min RTT is implausible and dropped. */
    int64_t send_interval_us = packet->sent_time_us - packet->first_sent_time_at_send_us;
    int64_t ack_interval_us = now_us - packet->delivered_time_at_send_us;
    int64_t interval_us = send_interval_us > ack_interval_us ? send_interval_us : ack_interval_us;
    cc->first_sent_time_us = packet->sent_time_us;
    double delivery_rate = 0.0;
    if (!cc->ops->delivery_rate_unused && interval_us > 0 && interval_us >= cc->rtt.min_rtt_us) {
        delivery_rate = (double)(cc->delivered_bytes - packet->delivered_bytes_at_send) * 1e6 / (double)interval_us;
    }
    cc_ack_event event = {
        .packet = packet,
        .rtt_us = rtt_us,
        .recv_time_us = recv_time_us > 0 ? recv_time_us : 0,
        .now_us = now_us,
        .bytes_in_flight = cc->bytes_in_flight,
        .delivery_rate_bytes_per_s = delivery_rate,
        .delivery_rate_app_limited = packet->is_app_limited,
        .delivered_bytes = cc->delivered_bytes,
        .rtt = &cc->rtt,
        .silence = &cc->silence,
    };
    cc->ops->on_ack(cc->state, &event);
    cc_ledger_remove(&cc->ledger, packet);
}

void cc_on_loss(cc_controller *cc, uint64_t pn, int64_t now_us) {
    if (cc == NULL) return;
    now_us = advance_clock(cc, now_us);
    cc_sent_packet *packet = cc_ledger_find(&cc->ledger, pn);
    if (packet == NULL) {
        cc->events_ignored++;
        return;
    }
    report_loss(cc, packet, now_us);
}

/* A video field as the view keeps it: any negative number is "unknown" (CC_APP_UNKNOWN). */
static double app_field(double value) { return value < 0 ? CC_APP_UNKNOWN : value; }

void cc_on_app_state(cc_controller *cc, const cc_app_state *state, int64_t now_us) {
    if (cc == NULL) return;
    now_us = advance_clock(cc, now_us);
    if (state == NULL || (state->app_limited != 0 && state->app_limited != 1) || !isfinite(state->buffer_ms) ||
        !isfinite(state->bitrate_bps)) {
        cc->events_ignored++;
        return;
    }
    if (state->app_limited) {
        uint64_t mark = cc->delivered_bytes + cc->bytes_in_flight;
        cc->app_limited_until_bytes = mark > 0 ? mark : 1;
    }
    cc->app.updated_us = now_us;
    cc->app.buffer_ms = app_field(state->buffer_ms);
    cc->app.bitrate_bps = app_field(state->bitrate_bps);
    cc->app.deadline_us = state->deadline_us < 0 ? CC_APP_UNKNOWN : state->deadline_us;
    if (cc->ops->on_app_state != NULL) cc->ops->on_app_state(cc->state, state, now_us);
}

void cc_on_tick(cc_controller *cc, int64_t now_us) {
    if (cc == NULL) return;
    now_us = advance_clock(cc, now_us);
    if (cc->ops->on_tick != NULL) cc->ops->on_tick(cc->state, now_us);
}

double cc_pacing_rate_bytes_per_s(const cc_controller *cc) {
    if (cc == NULL) return 0.0;
    double rate = finite_or(cc->ops->pacing_rate_bytes_per_s(cc->state), cc->ctx.initial_rate_bytes_per_s);
    return clamp(rate, cc->ctx.min_rate_bytes_per_s, cc->ctx.max_rate_bytes_per_s);
}

double cc_cwnd_bytes(const cc_controller *cc) {
    if (cc == NULL) return 0.0;
    double cwnd = finite_or(cc->ops->cwnd_bytes(cc->state), CC_CWND_UNLIMITED_BYTES);
    return clamp(cwnd, (double)cc->ctx.mss_bytes, CC_CWND_UNLIMITED_BYTES);
}

uint64_t cc_bytes_in_flight(const cc_controller *cc) { return cc != NULL ? cc->bytes_in_flight : 0; }

static void make_finite(double *value) {
    if (!isfinite(*value)) *value = 0.0;
}

void cc_get_telemetry(const cc_controller *cc, cc_telemetry *out) {
    if (out == NULL) return;
    memset(out, 0, sizeof *out);
    if (cc == NULL) {
        out->algorithm = "none";
        out->state = "none";
        return;
    }
    if (cc->ops->get_telemetry != NULL) cc->ops->get_telemetry(cc->state, out);
    out->algorithm = cc->ops->name;
    if (out->state == NULL) out->state = "running";
    out->pacing_rate_bps = cc_pacing_rate_bytes_per_s(cc) * 8.0;
    out->cwnd_bytes = cc_cwnd_bytes(cc);
    out->srtt_us = (double)cc->rtt.smoothed_rtt_us;
    out->min_rtt_us = (double)cc->rtt.min_rtt_us;
    out->latest_rtt_us = (double)cc->rtt.latest_rtt_us;
    out->bytes_in_flight = cc->bytes_in_flight;
    out->packets_sent = cc->packets_sent;
    out->packets_acked = cc->packets_acked;
    out->packets_lost = cc->packets_lost;
    out->events_ignored = cc->events_ignored;
    double *fields[] = {&out->mi_rate_bps,        &out->last_mi_rate_bps,        &out->last_mi_utility,
                        &out->last_mi_loss_rate,  &out->last_mi_rtt_gradient,    &out->last_mi_throughput_bps,
                        &out->gradient};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) make_finite(fields[i]);
}

int cc_set_utility(cc_controller *cc, cc_utility_fn fn, void *user_data) {
    if (cc == NULL || !cc->ops->accepts_custom_utility) return CC_ERR_INVALID;
    cc->ctx.custom_utility = fn;
    cc->ctx.custom_utility_data = fn != NULL ? user_data : NULL;
    return CC_OK;
}

int cc_set_mi_observer(cc_controller *cc, cc_mi_observer_fn fn, void *user_data) {
    if (cc == NULL || !cc->ops->accepts_custom_utility) return CC_ERR_INVALID; /* the PCC family has MIs */
    cc->ctx.mi_observer = fn;
    cc->ctx.mi_observer_data = fn != NULL ? user_data : NULL;
    return CC_OK;
}
