/*
 * pcc-stream rate-controller library: the public C API.
 *
 * One small interface for every algorithm (PCC Vivace and its variants, Allegro, PCP, CUBIC, BBR, fixed),
 * in the spirit of Linux's tcp_congestion_ops and quinn's Controller trait. The caller reports what
 * happens to packets (sent, acknowledged, lost) and asks for the pacing rate and congestion window.
 *
 * Conventions
 *  - Time is microseconds on the caller's monotonic clock (int64, *_us). The library never reads a clock.
 *  - Sizes are bytes (*_bytes); rates say their unit: pacing in bytes per second, telemetry in bits per second.
 *  - Packet numbers (pn) increase with send order; gaps are allowed (the sender may skip numbers).
 *  - Every output is finite: no NaN or infinity ever leaves the library. Rates stay within the
 *    configured [min_rate_bps, max_rate_bps].
 *  - Hostile or odd input (unknown/duplicate acks, zero or negative RTT, time going backwards,
 *    losses reported after acks, ...) is counted in telemetry and otherwise ignored; it never crashes.
 */
#ifndef PCC_CC_H
#define PCC_CC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CC_API_VERSION 2

/* Returned by cc_cwnd_bytes() for pure rate-based algorithms: "no window" but still finite. */
#define CC_CWND_UNLIMITED_BYTES 1e15

typedef struct cc_controller cc_controller;

enum cc_status {
    CC_OK = 0,
    CC_ERR_INVALID = -1,   /* NaN, out of range, or otherwise unacceptable value */
    CC_ERR_NO_MEMORY = -2,
    CC_ERR_UNKNOWN = -3    /* unknown algorithm or parameter name */
};

/* A named, run-time tunable parameter (algorithm-specific or common to all algorithms). */
typedef struct cc_param_desc {
    const char *name;      /* e.g. "epsilon", "latency_coefficient", "min_rate_bps" */
    double default_value;
    double min_value;
    double max_value;
    const char *doc;       /* one line; cites the seed section where it comes from */
} cc_param_desc;

/* Statistics of one completed monitor interval (PCC algorithms); input to utility functions. */
typedef struct cc_mi_stats {
    double target_rate_bps;     /* rate the MI was meant to send at */
    double send_rate_bps;       /* bits actually sent / MI send duration */
    double throughput_bps;      /* bits acknowledged / MI send duration, or when acks carry recv_time_us
                                 * the bits received after its first time / the span of the receiver's
                                 * clock if that is lower (an MI one ACK frame acknowledged: that frame's
                                 * bits since the previous frame's time, or since its earliest arrival) */
    double loss_rate;           /* lost packets / packets sent, in [0, 1] */
    double rtt_gradient;        /* d(RTT)/dt from linear regression, dimensionless (us per us) */
    double avg_rtt_us;
    double min_rtt_us;          /* lowest RTT sample of the connection so far */
    double duration_us;         /* send duration of the MI */
    uint32_t packets_sent;
    uint32_t packets_acked;
    uint32_t packets_lost;
    uint32_t rtt_samples;
} cc_mi_stats;

/* A user-supplied utility function; replaces the algorithm's built-in one (PCC algorithms only). */
typedef double (*cc_utility_fn)(const cc_mi_stats *mi, void *user_data);

/* A snapshot for dashboards and logs. Fields an algorithm does not have are 0. */
typedef struct cc_telemetry {
    const char *algorithm;        /* static string */
    const char *state;            /* static string: "slow_start", "probing", "moving", "startup", ... */
    double pacing_rate_bps;       /* current pacing rate, bits per second */
    double cwnd_bytes;            /* CC_CWND_UNLIMITED_BYTES when rate-based */
    double mi_rate_bps;           /* rate of the monitor interval being sent now */
    double last_mi_rate_bps;      /* target rate of the last completed MI */
    double last_mi_utility;
    double last_mi_loss_rate;
    double last_mi_rtt_gradient;
    double last_mi_throughput_bps;
    double gradient;              /* last utility gradient (per Mbit/s) */
    double srtt_us;
    double min_rtt_us;
    double latest_rtt_us;
    uint64_t bytes_in_flight;
    uint64_t mi_completed;        /* number of monitor intervals completed */
    uint64_t packets_sent;
    uint64_t packets_acked;
    uint64_t packets_lost;
    uint64_t events_ignored;      /* unknown/duplicate/invalid events dropped by the library */
} cc_telemetry;

/* Algorithms compiled into this library, by name ("vivace", "vivace-loss", "allegro", "pcp", "cubic", "bbr", "fixed",
 * "vivace-video", "allegro-latency"). */
size_t cc_algorithm_count(void);
const char *cc_algorithm_name_at(size_t index);

/* Create a controller; NULL for an unknown name or no memory. `seed` drives all randomness (deterministic). */
cc_controller *cc_create(const char *algorithm, uint64_t seed, int64_t now_us);
void cc_destroy(cc_controller *cc);
const char *cc_algorithm(const cc_controller *cc);

/* Parameters: the common ones (min_rate_bps, max_rate_bps, initial_rate_bps, mss_bytes) then the algorithm's own. */
size_t cc_param_count(const cc_controller *cc);
const cc_param_desc *cc_param_at(const cc_controller *cc, size_t index);
int cc_param_get(const cc_controller *cc, const char *name, double *value_out);
/* CC_ERR_INVALID for NaN, infinity or out of range, and for a min_rate_bps above max_rate_bps (or the
 * reverse): to move both bounds, first set the one that widens the range. */
int cc_param_set(cc_controller *cc, const char *name, double value);

/* Events. `bytes` is the packet's size on the wire as the controller should count it. */
void cc_on_packet_sent(cc_controller *cc, uint64_t pn, uint32_t bytes, int64_t now_us);
/* rtt_us: the sender's RTT sample for this packet (ack delay already removed), or <= 0 to let the
 * library use now_us - sent time. recv_time_us: the receiver's timestamp of arrival (receiver clock),
 * or 0 when unknown. */
void cc_on_ack(cc_controller *cc, uint64_t pn, int64_t rtt_us, int64_t recv_time_us, int64_t now_us);
void cc_on_loss(cc_controller *cc, uint64_t pn, int64_t now_us);
/* What the application tells the controller, in one event (optional; tcp_congestion_ops' spirit: the sender
 * reports, each algorithm takes what it uses). Every call carries the whole state: a field marked unknown
 * forgets the value given before. Algorithms that do not serve video read only app_limited.
 *  - app_limited: 1 when the sender has just run out of data (tcp_rate.c's app-limited mark): delivery-rate
 *    samples taken until everything now in flight is acknowledged are flagged app-limited, and the monitor
 *    interval being sent is one the sender could not fill. 0: no such news (the video fields only).
 *  - buffer_ms: the player's buffer level (CMCD bl), milliseconds.
 *  - bitrate_bps: the encoded bitrate of the object being delivered (CMCD br), bits per second.
 *  - deadline_us: how long from now_us until the object must have arrived (CMCD dl, relative like it);
 *    0 when it is already due.
 * A negative number (CC_APP_UNKNOWN) marks a video field unknown; NaN or infinity in a field, or app_limited
 * other than 0 or 1, refuses the event (counted in events_ignored, nothing changes). */
#define CC_APP_UNKNOWN (-1)
typedef struct cc_app_state {
    int app_limited;
    double buffer_ms;
    double bitrate_bps;
    int64_t deadline_us;
} cc_app_state;
void cc_on_app_state(cc_controller *cc, const cc_app_state *state, int64_t now_us);
/* Timers (MI timeout, probe timers, BBR's probe_rtt...): call at least once per few ms while sending. */
void cc_on_tick(cc_controller *cc, int64_t now_us);

double cc_pacing_rate_bytes_per_s(const cc_controller *cc);
double cc_cwnd_bytes(const cc_controller *cc);
uint64_t cc_bytes_in_flight(const cc_controller *cc);

void cc_get_telemetry(const cc_controller *cc, cc_telemetry *out);

/* Install a custom utility (NULL restores the built-in one). Returns CC_ERR_INVALID for non-PCC algorithms. */
int cc_set_utility(cc_controller *cc, cc_utility_fn fn, void *user_data);

/* One finished monitor interval as the algorithm evaluated it (PCC algorithms): for replay analysis. */
typedef struct cc_mi_report {
    cc_mi_stats stats;
    double utility;             /* as computed (0 when the utility was not finite) */
    uint64_t id;                /* increases by one per MI */
    uint64_t first_pn, last_pn; /* packets sent in it */
    int64_t start_time_us;      /* first send */
    int64_t end_time_us;        /* when sending in it stopped */
    int timed_out;              /* finished with some packets' fate unknown */
    int app_limited;
} cc_mi_report;
typedef void (*cc_mi_observer_fn)(const cc_mi_report *mi, void *user_data);

/* Calls `fn` for every finished MI (NULL stops it); observing changes no decision. CC_ERR_INVALID for non-PCC
 * algorithms. */
int cc_set_mi_observer(cc_controller *cc, cc_mi_observer_fn fn, void *user_data);

#ifdef __cplusplus
}
#endif
#endif /* PCC_CC_H */
