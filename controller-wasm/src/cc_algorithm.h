/*
 * The table of functions every algorithm implements (internal; see include/pcc/cc.h for the public API).
 *
 * Modelled on Linux's struct tcp_congestion_ops: one self-contained file per algorithm defines a
 * `const cc_ops cc_ops_<name>` and nothing else is exported. The framework (controller.c) owns what
 * every algorithm needs and must not get wrong on its own:
 *  - the sent-packet ledger (pn -> bytes, send time, delivery-rate state), so unknown, duplicate and
 *    late events are filtered out once, before any algorithm sees them;
 *  - bytes in flight, smoothed/min/latest RTT, delivery-rate samples (as Linux tcp_rate.c);
 *  - input sanitising (monotonic now, RTT fallback), output clamping to [min_rate, max_rate] and
 *    finiteness, parameters by name, the seeded PRNG, and the custom-utility hook.
 * PCC algorithms share one loop (pcc_loop.h: monitor intervals, epochs, timeouts, probe order) and may
 * reuse another PCC algorithm's state machine through its hooks (VIVACE_HOOKS, ALLEGRO_HOOKS); other
 * algorithms do not call into one another.
 */
#ifndef PCC_CC_ALGORITHM_H
#define PCC_CC_ALGORITHM_H

#include "pcc/cc.h"
#include "path_silence.h"

/* What the ledger remembers of a packet from the moment it was sent. The two 32-bit fields share one
 * 8-byte word, so a ledger slot (this plus a flag) fits one 64-byte cache line (packet_ledger.h). */
typedef struct cc_sent_packet {
    uint64_t pn;
    int64_t sent_time_us;
    uint64_t bytes_in_flight_at_send;   /* including this packet */
    uint64_t delivered_bytes_at_send;   /* delivery-rate bookkeeping (tcp_rate.c style) */
    int64_t delivered_time_at_send_us;
    int64_t first_sent_time_at_send_us;
    uint32_t bytes;
    int is_app_limited;
} cc_sent_packet;

/* Connection-wide RTT view maintained by the framework. */
typedef struct cc_rtt_view {
    int64_t latest_rtt_us;
    int64_t smoothed_rtt_us;   /* RFC 9002 style EWMA; 0 before the first sample */
    int64_t rtt_var_us;
    int64_t min_rtt_us;        /* lowest sample of the connection; 0 before the first sample */
} cc_rtt_view;

typedef struct cc_ack_event {
    const cc_sent_packet *packet;
    int64_t rtt_us;                      /* sanitised sample, > 0 */
    int64_t recv_time_us;                /* receiver's clock, 0 when unknown */
    int64_t now_us;
    uint64_t bytes_in_flight;            /* after removing this packet */
    double delivery_rate_bytes_per_s;    /* sample for this ack, 0 when none */
    int delivery_rate_app_limited;
    uint64_t delivered_bytes;            /* total delivered so far, including this packet */
    const cc_rtt_view *rtt;
    const cc_path_silence *silence;      /* silences of the path, this ack included (path_silence.h) */
} cc_ack_event;

typedef struct cc_loss_event {
    const cc_sent_packet *packet;
    int64_t now_us;
    uint64_t bytes_in_flight;            /* after removing this packet */
    const cc_rtt_view *rtt;
} cc_loss_event;

/* The application's latest state (cc_on_app_state), as the framework keeps it. Negative: unknown. */
typedef struct cc_app_view {
    int64_t updated_us;                  /* when it was reported; 0 before any report */
    double buffer_ms;                    /* the player's buffer level when reported */
    double bitrate_bps;                  /* encoded bitrate of the current object */
    int64_t deadline_us;                 /* from updated_us until the current object is due */
} cc_app_view;

/* Services the framework offers an algorithm instance. Valid for the instance's whole life. */
typedef struct cc_context {
    const double *params;                /* the algorithm's own parameter values, in cc_ops.params order */
    double min_rate_bytes_per_s;         /* common bounds; the framework also clamps outputs */
    double max_rate_bytes_per_s;
    double initial_rate_bytes_per_s;
    uint32_t mss_bytes;
    const cc_rtt_view *rtt;
    const uint64_t *bytes_in_flight;     /* the framework's count, current at every call */
    const cc_app_view *app;              /* the application's state, current at every call */
    uint64_t (*random_u64)(struct cc_context *ctx);   /* seeded, deterministic */
    double (*random_unit)(struct cc_context *ctx);    /* uniform in [0, 1) */
    /* Custom utility if the user installed one (else NULL): PCC algorithms call it instead of their own. */
    cc_utility_fn custom_utility;
    void *custom_utility_data;
    /* Observer of finished MIs (cc_set_mi_observer), or NULL. */
    cc_mi_observer_fn mi_observer;
    void *mi_observer_data;
    void *framework;                     /* opaque, for the framework's own use */
} cc_context;

typedef struct cc_ops {
    const char *name;
    const char *description;
    size_t state_size;                   /* bytes the framework allocates (zeroed) for the instance */
    const cc_param_desc *params;
    size_t param_count;
    int accepts_custom_utility;          /* PCC family: 1 */
    /* 1: the algorithm never reads cc_ack_event.delivery_rate_bytes_per_s, so the framework skips computing
     * it (a division per ack) and passes 0 ("no sample"). Left 0, the sample is always computed. */
    int delivery_rate_unused;

    void (*init)(void *state, cc_context *ctx, int64_t now_us);
    void (*release)(void *state);                                 /* optional */
    void (*on_packet_sent)(void *state, const cc_sent_packet *packet);
    void (*on_ack)(void *state, const cc_ack_event *event);
    void (*on_loss)(void *state, const cc_loss_event *event);
    void (*on_tick)(void *state, int64_t now_us);                 /* optional */
    double (*pacing_rate_bytes_per_s)(const void *state);
    double (*cwnd_bytes)(const void *state);
    void (*get_telemetry)(const void *state, cc_telemetry *out);  /* fill state + algorithm fields */
    void (*on_param_changed)(void *state, size_t index);          /* optional */
    /* optional: cc_on_app_state (the application's state is also in cc_context.app, for every algorithm) */
    void (*on_app_state)(void *state, const cc_app_state *app, int64_t now_us);
} cc_ops;

/* Before any RTT sample, timers assume RFC 9002's initial RTT (§6.2.2: kInitialRtt = 333 ms). */
#define CC_INITIAL_RTT_US 333000.0

/* on_param_changed index meaning "a common parameter changed": re-read the cc_context fields. */
#define CC_COMMON_PARAMS_CHANGED ((size_t)-1)

/* cc_create for an ops table that is not in the registry (tests use it to observe the framework). */
cc_controller *cc_create_with_ops(const cc_ops *ops, uint64_t seed, int64_t now_us);

#endif /* PCC_CC_ALGORITHM_H */
