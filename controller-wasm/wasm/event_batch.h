/*
 * Batched controller events: the layout JavaScript writes into WASM memory and the code that applies it.
 *
 * One event is PCCW_EVENT_FIELDS doubles: [type, pn, bytes, rtt_us, recv_time_us, now_us] (an app-state event:
 * [type, app_limited, buffer_ms, bitrate_bps, deadline_us, now_us]). Doubles (exact
 * integers up to 2^53) cross the JS/WASM boundary without BigInt; here they become the library's integer
 * types. Times (now, rtt, recv time) are floored to whole microseconds; packet numbers and sizes must be
 * exact integers. A value that is not finite or out of range is refused rather than converted (a NaN or
 * 1e300 cast to int64 is undefined behaviour in C). The same code is compiled natively for the replay
 * tool and the benchmark, so the native and WASM paths convert identically.
 */
#ifndef PCCW_EVENT_BATCH_H
#define PCCW_EVENT_BATCH_H

#include <stdint.h>

#include "pcc/cc.h"

/* Bump when the event or telemetry layout changes; the TypeScript wrapper checks it at load. */
#define PCCW_ABI_VERSION 2

#define PCCW_EVENT_FIELDS 6

enum pccw_event_type {
    PCCW_EVENT_SENT = 1,         /* pn, bytes, now_us */
    PCCW_EVENT_ACK = 2,          /* pn, rtt_us, recv_time_us, now_us */
    PCCW_EVENT_LOSS = 3,         /* pn, now_us */
    PCCW_EVENT_TICK = 4,         /* now_us */
    PCCW_EVENT_APP_STATE = 5     /* app_limited (0/1), buffer_ms, bitrate_bps, deadline_us (< 0: unknown), now_us */
};

enum pccw_event_field {
    PCCW_FIELD_TYPE = 0,
    PCCW_FIELD_PN = 1,
    PCCW_FIELD_BYTES = 2,
    PCCW_FIELD_RTT_US = 3,
    PCCW_FIELD_RECV_TIME_US = 4,
    PCCW_FIELD_NOW_US = 5,
    /* an app-state event (cc_on_app_state) puts its fields in the slots of the others */
    PCCW_FIELD_APP_LIMITED = PCCW_FIELD_PN,
    PCCW_FIELD_BUFFER_MS = PCCW_FIELD_BYTES,
    PCCW_FIELD_BITRATE_BPS = PCCW_FIELD_RTT_US,
    PCCW_FIELD_DEADLINE_US = PCCW_FIELD_RECV_TIME_US
};

/* Applies one event to `cc`. Returns 1 when applied, 0 when refused (unknown type or a field that is
 * not an exact integer in its range); refused events never reach the library. */
int pccw_apply_event(cc_controller *cc, const double event[PCCW_EVENT_FIELDS]);

/* Applies `count` consecutive events; returns how many were refused. */
uint32_t pccw_apply_events(cc_controller *cc, const double *events, uint32_t count);

/* Exact conversions used above, exposed for the other boundary code. Return 1 on success. */
int pccw_double_to_i64(double value, int64_t *out);
int pccw_time_to_i64(double value_us, int64_t *out);   /* floors fractional microseconds */
int pccw_double_to_u64(double value, uint64_t *out);

#endif /* PCCW_EVENT_BATCH_H */
