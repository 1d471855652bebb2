#include "event_batch.h"

#include <math.h>

/* 2^53: beyond it doubles no longer hold every integer, so a value there may not be what JS meant. */
#define PCCW_MAX_EXACT_INTEGER 9007199254740992.0

/* The range tests come first and are written so that NaN fails them (every comparison with NaN is false)
 * and so does ±infinity: no separate isfinite() test is needed on this path, which runs for every field
 * of every event. */
int pccw_double_to_i64(double value, int64_t *out) {
    if (!(value >= -PCCW_MAX_EXACT_INTEGER && value <= PCCW_MAX_EXACT_INTEGER) || value != floor(value)) return 0;
    *out = (int64_t)value;
    return 1;
}

int pccw_time_to_i64(double value_us, int64_t *out) {
    /* Callers often have fractional microseconds (performance.now() * 1000); the library counts whole ones.
     * floor() keeps NaN and infinities as they are, so the range test still refuses them. */
    double whole_us = floor(value_us);
    if (!(whole_us >= -PCCW_MAX_EXACT_INTEGER && whole_us <= PCCW_MAX_EXACT_INTEGER)) return 0;
    *out = (int64_t)whole_us;
    return 1;
}

int pccw_double_to_u64(double value, uint64_t *out) {
    if (!(value >= 0.0 && value <= PCCW_MAX_EXACT_INTEGER) || value != floor(value)) return 0;
    *out = (uint64_t)value;
    return 1;
}

static int to_u32(double value, uint32_t *out) {
    uint64_t wide;
    if (!pccw_double_to_u64(value, &wide) || wide > UINT32_MAX) return 0;
    *out = (uint32_t)wide;
    return 1;
}

int pccw_apply_event(cc_controller *cc, const double event[PCCW_EVENT_FIELDS]) {
    int64_t now_us;
    if (!pccw_time_to_i64(event[PCCW_FIELD_NOW_US], &now_us)) return 0;
    uint64_t pn, type;
    if (!pccw_double_to_u64(event[PCCW_FIELD_TYPE], &type)) return 0;
    switch (type) {
    case PCCW_EVENT_SENT: {
        uint32_t bytes;
        if (!pccw_double_to_u64(event[PCCW_FIELD_PN], &pn) || !to_u32(event[PCCW_FIELD_BYTES], &bytes)) return 0;
        cc_on_packet_sent(cc, pn, bytes, now_us);
        return 1;
    }
    case PCCW_EVENT_ACK: {
        int64_t rtt_us, recv_time_us;
        if (!pccw_double_to_u64(event[PCCW_FIELD_PN], &pn) || !pccw_time_to_i64(event[PCCW_FIELD_RTT_US], &rtt_us) ||
            !pccw_time_to_i64(event[PCCW_FIELD_RECV_TIME_US], &recv_time_us)) {
            return 0;
        }
        cc_on_ack(cc, pn, rtt_us, recv_time_us, now_us);
        return 1;
    }
    case PCCW_EVENT_LOSS:
        if (!pccw_double_to_u64(event[PCCW_FIELD_PN], &pn)) return 0;
        cc_on_loss(cc, pn, now_us);
        return 1;
    case PCCW_EVENT_TICK:
        cc_on_tick(cc, now_us);
        return 1;
    case PCCW_EVENT_APP_STATE: {
        /* app_limited exactly 0 or 1; the video fields any finite number (negative: unknown) */
        double limited = event[PCCW_FIELD_APP_LIMITED];
        double buffer_ms = event[PCCW_FIELD_BUFFER_MS], bitrate_bps = event[PCCW_FIELD_BITRATE_BPS];
        int64_t deadline_us;
        if (!(limited == 0.0 || limited == 1.0) || !(buffer_ms >= -PCCW_MAX_EXACT_INTEGER && buffer_ms <= PCCW_MAX_EXACT_INTEGER) ||
            !(bitrate_bps >= -PCCW_MAX_EXACT_INTEGER && bitrate_bps <= PCCW_MAX_EXACT_INTEGER) ||
            !pccw_time_to_i64(event[PCCW_FIELD_DEADLINE_US], &deadline_us)) {
            return 0;
        }
        cc_app_state state = {.app_limited = limited == 1.0, .buffer_ms = buffer_ms, .bitrate_bps = bitrate_bps, .deadline_us = deadline_us};
        cc_on_app_state(cc, &state, now_us);
        return 1;
    }
    default:
        return 0;
    }
}

uint32_t pccw_apply_events(cc_controller *cc, const double *events, uint32_t count) {
    uint32_t refused = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (!pccw_apply_event(cc, events + (uint64_t)i * PCCW_EVENT_FIELDS)) refused++;
    }
    return refused;
}
