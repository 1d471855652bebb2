/*
 * The controller API as WebAssembly exports, shaped for cheap calls from JavaScript.
 *
 * Everything crosses the boundary as i32 (pointers, indices, status codes) or f64 (times, counts, rates):
 * no strings are written by JS, no BigInt, no ccall. Events go through a per-controller buffer in WASM
 * memory (event_batch.h) and one pccw_apply() call applies a whole batch. Telemetry and MI statistics are
 * copied into flat double arrays that JS reads through HEAPF64.
 */
#include <emscripten/emscripten.h>
#include <math.h>
#include <stdlib.h>

#include "../event_batch.h"
#include "pcc/cc.h"

#define PCCW_EXPORT EMSCRIPTEN_KEEPALIVE

/* Telemetry as doubles, in this order (TelemetryField in ts/raw-module.ts mirrors it). Strings are pointers to static C strings. */
enum pccw_telemetry_field {
    PCCW_T_ALGORITHM_PTR, PCCW_T_STATE_PTR, PCCW_T_PACING_RATE_BPS, PCCW_T_CWND_BYTES, PCCW_T_MI_RATE_BPS,
    PCCW_T_LAST_MI_RATE_BPS, PCCW_T_LAST_MI_UTILITY, PCCW_T_LAST_MI_LOSS_RATE, PCCW_T_LAST_MI_RTT_GRADIENT,
    PCCW_T_LAST_MI_THROUGHPUT_BPS, PCCW_T_GRADIENT, PCCW_T_SRTT_US, PCCW_T_MIN_RTT_US, PCCW_T_LATEST_RTT_US,
    PCCW_T_BYTES_IN_FLIGHT, PCCW_T_MI_COMPLETED, PCCW_T_PACKETS_SENT, PCCW_T_PACKETS_ACKED, PCCW_T_PACKETS_LOST,
    PCCW_T_EVENTS_IGNORED, PCCW_T_UTILITY_ERRORS, PCCW_T_EVENTS_REFUSED,
    PCCW_TELEMETRY_FIELDS
};

/* cc_mi_stats as doubles, in declaration order, for the JS utility callback. */
#define PCCW_MI_STATS_FIELDS 12

typedef struct pccw_controller {
    cc_controller *cc;
    double *events;                 /* capacity * PCCW_EVENT_FIELDS, written by JS */
    uint32_t event_capacity;
    uint64_t events_refused;        /* refused at the boundary (never reached the library) */
    uint64_t utility_errors;        /* custom utility calls that threw or returned a non-finite value */
    double telemetry[PCCW_TELEMETRY_FIELDS];
    double mi_stats[PCCW_MI_STATS_FIELDS];
} pccw_controller;

/* Implemented in JS (js_utility_bridge.js): calls the utility function registered for this controller.
 * Returns its value, or NaN when it threw or returned something that is not a number. */
extern double pccw_js_utility(pccw_controller *handle, const double *mi_stats);

PCCW_EXPORT int pccw_abi_version(void) { return PCCW_ABI_VERSION; }
PCCW_EXPORT int pccw_event_fields(void) { return PCCW_EVENT_FIELDS; }
PCCW_EXPORT int pccw_telemetry_fields(void) { return PCCW_TELEMETRY_FIELDS; }

PCCW_EXPORT int pccw_algorithm_count(void) { return (int)cc_algorithm_count(); }
PCCW_EXPORT const char *pccw_algorithm_name(int index) {
    return index < 0 ? NULL : cc_algorithm_name_at((size_t)index);
}

/* NULL when the index, seed or time is invalid or memory ran out (JS validates first and says which). */
PCCW_EXPORT pccw_controller *pccw_create(int algorithm_index, double seed, double now_us, int event_capacity) {
    uint64_t seed_u64;
    int64_t now;
    const char *name = pccw_algorithm_name(algorithm_index);
    if (name == NULL || event_capacity < 1 || !pccw_double_to_u64(seed, &seed_u64) || !pccw_time_to_i64(now_us, &now)) {
        return NULL;
    }
    pccw_controller *handle = calloc(1, sizeof *handle);
    if (handle == NULL) return NULL;
    handle->events = calloc((size_t)event_capacity, PCCW_EVENT_FIELDS * sizeof(double));
    handle->cc = cc_create(name, seed_u64, now);
    if (handle->events == NULL || handle->cc == NULL) {
        if (handle->cc != NULL) cc_destroy(handle->cc);
        free(handle->events);
        free(handle);
        return NULL;
    }
    handle->event_capacity = (uint32_t)event_capacity;
    return handle;
}

PCCW_EXPORT void pccw_destroy(pccw_controller *handle) {
    if (handle == NULL) return;
    cc_destroy(handle->cc);
    free(handle->events);
    free(handle);
}

PCCW_EXPORT double *pccw_event_buffer(pccw_controller *handle) { return handle->events; }

/* Applies the first `count` buffered events; returns how many were refused. */
PCCW_EXPORT int pccw_apply(pccw_controller *handle, int count) {
    if (count <= 0) return 0;
    if ((uint32_t)count > handle->event_capacity) count = (int)handle->event_capacity;
    uint32_t refused = pccw_apply_events(handle->cc, handle->events, (uint32_t)count);
    handle->events_refused += refused;
    return (int)refused;
}

/* Direct single-event calls (no buffer), for callers that want one call per event. */
PCCW_EXPORT int pccw_on_packet_sent(pccw_controller *handle, double pn, double bytes, double now_us) {
    const double event[PCCW_EVENT_FIELDS] = {PCCW_EVENT_SENT, pn, bytes, 0, 0, now_us};
    int applied = pccw_apply_event(handle->cc, event);
    handle->events_refused += !applied;
    return applied;
}

PCCW_EXPORT int pccw_on_ack(pccw_controller *handle, double pn, double rtt_us, double recv_time_us, double now_us) {
    const double event[PCCW_EVENT_FIELDS] = {PCCW_EVENT_ACK, pn, 0, rtt_us, recv_time_us, now_us};
    int applied = pccw_apply_event(handle->cc, event);
    handle->events_refused += !applied;
    return applied;
}

PCCW_EXPORT double pccw_pacing_rate_bytes_per_s(pccw_controller *handle) { return cc_pacing_rate_bytes_per_s(handle->cc); }
PCCW_EXPORT double pccw_cwnd_bytes(pccw_controller *handle) { return cc_cwnd_bytes(handle->cc); }
PCCW_EXPORT double pccw_bytes_in_flight(pccw_controller *handle) { return (double)cc_bytes_in_flight(handle->cc); }

PCCW_EXPORT const double *pccw_telemetry(pccw_controller *handle) {
    cc_telemetry t = {0};
    cc_get_telemetry(handle->cc, &t);
    double *out = handle->telemetry;
    out[PCCW_T_ALGORITHM_PTR] = (double)(uintptr_t)t.algorithm;
    out[PCCW_T_STATE_PTR] = (double)(uintptr_t)t.state;
    out[PCCW_T_PACING_RATE_BPS] = t.pacing_rate_bps;
    out[PCCW_T_CWND_BYTES] = t.cwnd_bytes;
    out[PCCW_T_MI_RATE_BPS] = t.mi_rate_bps;
    out[PCCW_T_LAST_MI_RATE_BPS] = t.last_mi_rate_bps;
    out[PCCW_T_LAST_MI_UTILITY] = t.last_mi_utility;
    out[PCCW_T_LAST_MI_LOSS_RATE] = t.last_mi_loss_rate;
    out[PCCW_T_LAST_MI_RTT_GRADIENT] = t.last_mi_rtt_gradient;
    out[PCCW_T_LAST_MI_THROUGHPUT_BPS] = t.last_mi_throughput_bps;
    out[PCCW_T_GRADIENT] = t.gradient;
    out[PCCW_T_SRTT_US] = t.srtt_us;
    out[PCCW_T_MIN_RTT_US] = t.min_rtt_us;
    out[PCCW_T_LATEST_RTT_US] = t.latest_rtt_us;
    out[PCCW_T_BYTES_IN_FLIGHT] = (double)t.bytes_in_flight;
    out[PCCW_T_MI_COMPLETED] = (double)t.mi_completed;
    out[PCCW_T_PACKETS_SENT] = (double)t.packets_sent;
    out[PCCW_T_PACKETS_ACKED] = (double)t.packets_acked;
    out[PCCW_T_PACKETS_LOST] = (double)t.packets_lost;
    out[PCCW_T_EVENTS_IGNORED] = (double)(t.events_ignored + handle->events_refused);
    out[PCCW_T_UTILITY_ERRORS] = (double)handle->utility_errors;
    out[PCCW_T_EVENTS_REFUSED] = (double)handle->events_refused;
    return out;
}

/* Parameters by index (JS maps names to indices once per algorithm, so no strings cross per call). */
PCCW_EXPORT int pccw_param_count(pccw_controller *handle) { return (int)cc_param_count(handle->cc); }

static const cc_param_desc *param_at(pccw_controller *handle, int index) {
    return index < 0 ? NULL : cc_param_at(handle->cc, (size_t)index);
}

PCCW_EXPORT const char *pccw_param_name(pccw_controller *handle, int index) {
    const cc_param_desc *desc = param_at(handle, index);
    return desc ? desc->name : NULL;
}
PCCW_EXPORT const char *pccw_param_doc(pccw_controller *handle, int index) {
    const cc_param_desc *desc = param_at(handle, index);
    return desc ? desc->doc : NULL;
}
PCCW_EXPORT double pccw_param_default(pccw_controller *handle, int index) {
    const cc_param_desc *desc = param_at(handle, index);
    return desc ? desc->default_value : NAN;
}
PCCW_EXPORT double pccw_param_min(pccw_controller *handle, int index) {
    const cc_param_desc *desc = param_at(handle, index);
    return desc ? desc->min_value : NAN;
}
PCCW_EXPORT double pccw_param_max(pccw_controller *handle, int index) {
    const cc_param_desc *desc = param_at(handle, index);
    return desc ? desc->max_value : NAN;
}

/* The current value, or NaN for an unknown index (parameter values are always finite). */
PCCW_EXPORT double pccw_param_get(pccw_controller *handle, int index) {
    const cc_param_desc *desc = param_at(handle, index);
    double value = NAN;
    if (desc == NULL || cc_param_get(handle->cc, desc->name, &value) != CC_OK) return NAN;
    return value;
}

/* A cc_status code. */
PCCW_EXPORT int pccw_param_set(pccw_controller *handle, int index, double value) {
    const cc_param_desc *desc = param_at(handle, index);
    if (desc == NULL) return CC_ERR_UNKNOWN;
    return cc_param_set(handle->cc, desc->name, value);
}

/* Custom utility: the library calls this trampoline once per MI; it forwards to JS. A JS function that
 * throws or returns a non-finite value yields NaN here, which the PCC algorithms already treat as an
 * invalid MI (vivace discards it, allegro scores it 0), so it cannot steer the controller; the failure
 * is counted in telemetry. */
static double js_utility_trampoline(const cc_mi_stats *mi, void *user_data) {
    pccw_controller *handle = user_data;
    double *s = handle->mi_stats;
    s[0] = mi->target_rate_bps;
    s[1] = mi->send_rate_bps;
    s[2] = mi->throughput_bps;
    s[3] = mi->loss_rate;
    s[4] = mi->rtt_gradient;
    s[5] = mi->avg_rtt_us;
    s[6] = mi->min_rtt_us;
    s[7] = mi->duration_us;
    s[8] = mi->packets_sent;
    s[9] = mi->packets_acked;
    s[10] = mi->packets_lost;
    s[11] = mi->rtt_samples;
    double utility = pccw_js_utility(handle, s);
    if (!isfinite(utility)) {
        handle->utility_errors++;
        return NAN;
    }
    return utility;
}

/* enabled != 0 routes utilities to JS; 0 restores the built-in one. A cc_status code (CC_ERR_INVALID for
 * algorithms without a utility). */
PCCW_EXPORT int pccw_set_js_utility(pccw_controller *handle, int enabled) {
    return cc_set_utility(handle->cc, enabled ? js_utility_trampoline : NULL, enabled ? handle : NULL);
}
