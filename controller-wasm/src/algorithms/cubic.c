/*
 * CUBIC congestion control, RFC 9438, window-based and paced.
 *
 * Windows are kept in bytes; RFC 9438 states its formulas in segments, so they are evaluated in
 * segments (bytes / mss) and converted back. Slow start may use HyStart++ (RFC 9406) to leave
 * before the first loss. The pacing rate follows Linux: gain x cwnd / srtt with gain 2 in slow
 * start and 1.2 afterwards (tcp_update_pacing_rate, sysctl_tcp_pacing_{ss,ca}_ratio).
 */
#include <math.h>
#include <stdint.h>

#include "../cc_algorithm.h"
#include "../cc_window.h"
#include "../portable_math.h"

enum cubic_param {
    CUBIC_PARAM_C,
    CUBIC_PARAM_BETA,
    CUBIC_PARAM_FAST_CONVERGENCE,
    CUBIC_PARAM_RENO_FRIENDLY,
    CUBIC_PARAM_HYSTART,
    CUBIC_PARAM_INITIAL_CWND_PACKETS,
    CUBIC_PARAM_MIN_CWND_PACKETS,
    CUBIC_PARAM_PACING_GAIN_SLOW_START,
    CUBIC_PARAM_PACING_GAIN_AVOIDANCE,
    CUBIC_PARAM_COUNT
};

static const cc_param_desc cubic_params[CUBIC_PARAM_COUNT] = {
    {"cubic_c", 0.4, 0.01, 10.0, "cubic scaling constant C in segments/s^3 (RFC 9438 §4.2, §5)"},
    {"cubic_beta", 0.7, 0.1, 0.95, "multiplicative decrease factor beta_cubic (RFC 9438 §4.6)"},
    {"cubic_fast_convergence", 1.0, 0.0, 1.0, "1: release bandwidth faster when W_max shrinks (RFC 9438 §4.7)"},
    {"cubic_reno_friendly", 1.0, 0.0, 1.0, "1: follow the Reno estimate W_est when it is larger (RFC 9438 §4.3)"},
    {"cubic_hystart", 1.0, 0.0, 1.0, "1: leave slow start on an RTT increase, HyStart++ (RFC 9406 §4)"},
    {"cubic_initial_cwnd_packets", 10.0, 2.0, 1000.0, "initial window in packets (RFC 9002 §7.2 uses 10)"},
    {"cubic_min_cwnd_packets", 2.0, 1.0, 100.0, "window never shrinks below this many packets (RFC 9438 §4.6)"},
    {"cubic_pacing_gain_slow_start", 2.0, 1.0, 4.0, "pacing rate = gain x cwnd / srtt in slow start (Linux tcp_pacing_ss_ratio)"},
    {"cubic_pacing_gain_avoidance", 1.2, 1.0, 4.0, "pacing rate = gain x cwnd / srtt otherwise (Linux tcp_pacing_ca_ratio)"},
};

/* RFC 9406 §4.3 constants. N_RTT_SAMPLE, CSS_GROWTH_DIVISOR and CSS_ROUNDS as recommended. */
#define HYSTART_MIN_RTT_THRESH_US 4000
#define HYSTART_MAX_RTT_THRESH_US 16000
#define HYSTART_MIN_RTT_DIVISOR 8
#define HYSTART_N_RTT_SAMPLE 8
#define HYSTART_CSS_GROWTH_DIVISOR 4.0
#define HYSTART_CSS_ROUNDS 5

/* Before any RTT sample the pacing rate comes from the framework's initial rate. */

typedef enum cubic_phase {
    CUBIC_SLOW_START,
    CUBIC_CONSERVATIVE_SLOW_START,   /* HyStart++ CSS (RFC 9406 §4.2) */
    CUBIC_CONGESTION_AVOIDANCE,
    CUBIC_RECOVERY
} cubic_phase;

typedef struct cubic_state {
    cc_context *ctx;
    cubic_phase phase;
    double cwnd_bytes;
    double ssthresh_bytes;
    double w_max_bytes;        /* window just before the last reduction (after fast convergence) */
    double cwnd_prior_bytes;   /* window when ssthresh was last set (RFC 9438 §4.3 alpha switch) */
    double w_est_bytes;        /* Reno-friendly estimate */
    double cwnd_epoch_bytes;
    double k_s;
    int epoch_valid;
    int64_t epoch_start_us;
    int64_t last_ack_us;

    int any_sent;
    uint64_t largest_sent_pn;
    uint64_t recovery_end_pn;  /* losses of packets up to here belong to the current congestion event */

    /* Rounds: a round ends when a packet sent after it began is acknowledged (RFC 9406 windowEnd). */
    uint64_t round_end_pn;
    int round_end_valid;
    uint64_t max_inflight_round_bytes;
    uint64_t max_inflight_prev_round_bytes;

    /* HyStart++ (RFC 9406 §4.2). */
    int64_t last_round_min_rtt_us;     /* INT64_MAX = none */
    int64_t current_round_min_rtt_us;
    uint32_t rtt_sample_count;
    int64_t css_baseline_min_rtt_us;
    uint32_t css_rounds;

    uint64_t congestion_events;
} cubic_state;

static double cubic_param(const cubic_state *s, enum cubic_param p) { return s->ctx->params[p]; }

static double cubic_mss(const cubic_state *s) { return cc_window_mss_bytes(s->ctx); }

static double cubic_min_cwnd_bytes(const cubic_state *s)
{
    return cubic_param(s, CUBIC_PARAM_MIN_CWND_PACKETS) * cubic_mss(s);
}

static void cubic_set_cwnd(cubic_state *s, double cwnd_bytes)
{
    s->cwnd_bytes = cc_window_bound_bytes(cwnd_bytes, cubic_min_cwnd_bytes(s));
}

static void cubic_init(void *state, cc_context *ctx, int64_t now_us)
{
    cubic_state *s = state;
    s->ctx = ctx;
    s->phase = CUBIC_SLOW_START;
    s->ssthresh_bytes = CC_MAX_CWND_BYTES;
    cubic_set_cwnd(s, cubic_param(s, CUBIC_PARAM_INITIAL_CWND_PACKETS) * cubic_mss(s));
    s->last_ack_us = now_us;
    s->last_round_min_rtt_us = INT64_MAX;
    s->current_round_min_rtt_us = INT64_MAX;
}

/* RFC 9438 §4.2 eq. 2: K = cbrt((W_max - cwnd_epoch) / C), in seconds, windows in segments. */
static void cubic_start_epoch(cubic_state *s, int64_t now_us)
{
    double mss = cubic_mss(s);
    s->epoch_valid = 1;
    s->epoch_start_us = now_us;
    s->cwnd_epoch_bytes = s->cwnd_bytes;
    s->w_est_bytes = s->cwnd_bytes;
    if (s->w_max_bytes <= s->cwnd_bytes) {
        /* No reduction pending (slow start left without loss): the curve starts at its plateau. */
        s->w_max_bytes = s->cwnd_bytes;
        s->k_s = 0.0;
    } else {
        s->k_s = pcc_cbrt((s->w_max_bytes - s->cwnd_epoch_bytes) / mss / cubic_param(s, CUBIC_PARAM_C));
    }
}

/* RFC 9438 §4.2 eq. 1: W_cubic(t) = C (t - K)^3 + W_max, in bytes. */
static double cubic_w_cubic_bytes(const cubic_state *s, double t_s)
{
    double d = t_s - s->k_s;
    return (cubic_param(s, CUBIC_PARAM_C) * d * d * d) * cubic_mss(s) + s->w_max_bytes;
}

static int cubic_is_cwnd_limited(const cubic_state *s)
{
    uint64_t inflight = s->max_inflight_round_bytes > s->max_inflight_prev_round_bytes
                            ? s->max_inflight_round_bytes : s->max_inflight_prev_round_bytes;
    /* Linux tcp_is_cwnd_limited: slow start grows while less than half the window is unused;
     * otherwise the window must actually have been filled (within a packet). */
    if (s->phase == CUBIC_SLOW_START || s->phase == CUBIC_CONSERVATIVE_SLOW_START)
        return s->cwnd_bytes < 2.0 * (double)inflight;
    return (double)inflight + cubic_mss(s) >= s->cwnd_bytes;
}

static void cubic_on_round_end(cubic_state *s)
{
    s->max_inflight_prev_round_bytes = s->max_inflight_round_bytes;
    s->max_inflight_round_bytes = 0;
    s->round_end_pn = s->largest_sent_pn;
    s->round_end_valid = s->any_sent;

    if (s->phase == CUBIC_CONSERVATIVE_SLOW_START) {
        /* RFC 9406 §4.2: after CSS_ROUNDS rounds in CSS, enter congestion avoidance. */
        if (++s->css_rounds >= HYSTART_CSS_ROUNDS) {
            s->ssthresh_bytes = s->cwnd_bytes;
            s->phase = CUBIC_CONGESTION_AVOIDANCE;
            s->epoch_valid = 0;
        }
    }
    s->last_round_min_rtt_us = s->current_round_min_rtt_us;
    s->current_round_min_rtt_us = INT64_MAX;
    s->rtt_sample_count = 0;
}

static void cubic_hystart_on_rtt(cubic_state *s, int64_t rtt_us)
{
    if (rtt_us < s->current_round_min_rtt_us) s->current_round_min_rtt_us = rtt_us;
    s->rtt_sample_count++;
    if (s->rtt_sample_count < HYSTART_N_RTT_SAMPLE) return;
    if (s->phase == CUBIC_SLOW_START) {
        if (s->last_round_min_rtt_us == INT64_MAX || s->current_round_min_rtt_us == INT64_MAX) return;
        int64_t thresh_us = s->last_round_min_rtt_us / HYSTART_MIN_RTT_DIVISOR;
        if (thresh_us < HYSTART_MIN_RTT_THRESH_US) thresh_us = HYSTART_MIN_RTT_THRESH_US;
        if (thresh_us > HYSTART_MAX_RTT_THRESH_US) thresh_us = HYSTART_MAX_RTT_THRESH_US;
        if (s->current_round_min_rtt_us >= s->last_round_min_rtt_us + thresh_us) {
            s->css_baseline_min_rtt_us = s->current_round_min_rtt_us;
            s->css_rounds = 0;
            s->phase = CUBIC_CONSERVATIVE_SLOW_START;
        }
    } else if (s->phase == CUBIC_CONSERVATIVE_SLOW_START) {
        /* RFC 9406 §4.2: the RTT increase was spurious, resume slow start. */
        if (s->current_round_min_rtt_us < s->css_baseline_min_rtt_us) {
            s->css_baseline_min_rtt_us = INT64_MAX;
            s->phase = CUBIC_SLOW_START;
        }
    }
}

static void cubic_on_packet_sent(void *state, const cc_sent_packet *packet)
{
    cubic_state *s = state;
    if (!s->any_sent || packet->pn > s->largest_sent_pn) s->largest_sent_pn = packet->pn;
    s->any_sent = 1;
    if (!s->round_end_valid) {
        s->round_end_pn = packet->pn;
        s->round_end_valid = 1;
    }
    if (packet->bytes_in_flight_at_send > s->max_inflight_round_bytes)
        s->max_inflight_round_bytes = packet->bytes_in_flight_at_send;
}

/* RFC 9438 §4.2-§4.4: one acknowledgement in congestion avoidance. */
static void cubic_avoidance_on_ack(cubic_state *s, double acked_bytes, int64_t now_us)
{
    double mss = cubic_mss(s);
    if (!s->epoch_valid) cubic_start_epoch(s, now_us);
    double t_s = (double)(now_us - s->epoch_start_us) / 1e6;
    double srtt_s = (double)s->ctx->rtt->smoothed_rtt_us / 1e6;
    double cwnd_seg = s->cwnd_bytes / mss;
    double acked_seg = acked_bytes / mss;

    /* §4.4: target window one RTT ahead, bounded to [cwnd, 1.5 cwnd]. */
    double target = cubic_w_cubic_bytes(s, t_s + srtt_s);
    if (target < s->cwnd_bytes) target = s->cwnd_bytes;
    if (target > 1.5 * s->cwnd_bytes) target = 1.5 * s->cwnd_bytes;

    /* §4.3: Reno-friendly estimate, alpha_cubic = 3 (1 - beta) / (1 + beta) until W_est reaches
     * the window of the last reduction, then 1 (Reno's own slope). */
    double beta = cubic_param(s, CUBIC_PARAM_BETA);
    double alpha = s->w_est_bytes >= s->cwnd_prior_bytes ? 1.0 : 3.0 * (1.0 - beta) / (1.0 + beta);
    s->w_est_bytes += alpha * acked_seg / cwnd_seg * mss;

    double w_cubic_now = cubic_w_cubic_bytes(s, t_s);
    if (cubic_param(s, CUBIC_PARAM_RENO_FRIENDLY) >= 0.5 && w_cubic_now < s->w_est_bytes) {
        cubic_set_cwnd(s, s->w_est_bytes);   /* Reno-friendly region */
    } else {
        /* Concave or convex region: close (target - cwnd) / cwnd of the gap per acked segment. */
        cubic_set_cwnd(s, s->cwnd_bytes + (target - s->cwnd_bytes) / cwnd_seg * acked_seg);
    }
}

static void cubic_on_ack(void *state, const cc_ack_event *event)
{
    cubic_state *s = state;
    const cc_sent_packet *packet = event->packet;
    int64_t now_us = event->now_us;
    double acked_bytes = (double)packet->bytes;

    if (s->round_end_valid && packet->pn > s->round_end_pn) cubic_on_round_end(s);
    if (s->phase == CUBIC_SLOW_START || s->phase == CUBIC_CONSERVATIVE_SLOW_START) {
        if (cubic_param(s, CUBIC_PARAM_HYSTART) >= 0.5) cubic_hystart_on_rtt(s, event->rtt_us);
    }

    if (s->phase == CUBIC_RECOVERY) {
        /* RFC 9002 §7.3.2: recovery ends when a packet sent after it began is acknowledged. */
        if (packet->pn <= s->recovery_end_pn) {
            s->last_ack_us = now_us;
            return;
        }
        s->phase = CUBIC_CONGESTION_AVOIDANCE;
        s->epoch_valid = 0;
    }

    int cwnd_limited = cubic_is_cwnd_limited(s);
    if (!cwnd_limited) {
        /* RFC 9438 §5.8: an application-limited sender must not grow its window on idle time; move
         * the epoch forward so the cubic curve does not advance either (as Linux does on idle). */
        if (s->epoch_valid && now_us > s->last_ack_us) s->epoch_start_us += now_us - s->last_ack_us;
        s->last_ack_us = now_us;
        return;
    }
    s->last_ack_us = now_us;

    switch (s->phase) {
    case CUBIC_SLOW_START:
        cubic_set_cwnd(s, s->cwnd_bytes + acked_bytes);
        if (s->cwnd_bytes >= s->ssthresh_bytes) {
            s->phase = CUBIC_CONGESTION_AVOIDANCE;
            s->epoch_valid = 0;
        }
        break;
    case CUBIC_CONSERVATIVE_SLOW_START:
        cubic_set_cwnd(s, s->cwnd_bytes + acked_bytes / HYSTART_CSS_GROWTH_DIVISOR);
        break;
    case CUBIC_CONGESTION_AVOIDANCE:
        cubic_avoidance_on_ack(s, acked_bytes, now_us);
        break;
    case CUBIC_RECOVERY:
        break;
    }
}

/* RFC 9438 §4.6-§4.7: one congestion event per recovery period. The reduction is taken from cwnd
 * rather than the flight size, as Linux does: for a cwnd-limited sender the two differ by under a
 * packet, and the window never grows while application-limited (§5.8), so cwnd is not inflated. */
static void cubic_on_loss(void *state, const cc_loss_event *event)
{
    cubic_state *s = state;
    const cc_sent_packet *packet = event->packet;
    if (s->congestion_events > 0 && packet->pn <= s->recovery_end_pn) return;   /* same event */

    s->congestion_events++;
    s->recovery_end_pn = s->largest_sent_pn;
    double beta = cubic_param(s, CUBIC_PARAM_BETA);
    if (cubic_param(s, CUBIC_PARAM_FAST_CONVERGENCE) >= 0.5 && s->cwnd_bytes < s->w_max_bytes)
        s->w_max_bytes = s->cwnd_bytes * (1.0 + beta) / 2.0;
    else
        s->w_max_bytes = s->cwnd_bytes;
    s->cwnd_prior_bytes = s->cwnd_bytes;
    cubic_set_cwnd(s, s->cwnd_bytes * beta);
    s->ssthresh_bytes = s->cwnd_bytes;
    s->epoch_valid = 0;
    s->phase = CUBIC_RECOVERY;
}

static double cubic_pacing_rate_bytes_per_s(const void *state)
{
    const cubic_state *s = state;
    int64_t srtt_us = s->ctx->rtt->smoothed_rtt_us;
    if (srtt_us <= 0) return s->ctx->initial_rate_bytes_per_s;
    int slow = s->phase == CUBIC_SLOW_START || s->phase == CUBIC_CONSERVATIVE_SLOW_START;
    double gain = cubic_param(s, slow ? CUBIC_PARAM_PACING_GAIN_SLOW_START : CUBIC_PARAM_PACING_GAIN_AVOIDANCE);
    return cc_window_pacing_rate_bytes_per_s(gain, s->cwnd_bytes, srtt_us);
}

static double cubic_cwnd_bytes(const void *state)
{
    const cubic_state *s = state;
    return s->cwnd_bytes;
}

static const char *cubic_phase_name(cubic_phase phase)
{
    switch (phase) {
    case CUBIC_SLOW_START: return "slow_start";
    case CUBIC_CONSERVATIVE_SLOW_START: return "conservative_slow_start";
    case CUBIC_CONGESTION_AVOIDANCE: return "congestion_avoidance";
    case CUBIC_RECOVERY: return "recovery";
    }
    return "unknown";
}

static void cubic_get_telemetry(const void *state, cc_telemetry *out)
{
    const cubic_state *s = state;
    out->state = cubic_phase_name(s->phase);
    out->cwnd_bytes = s->cwnd_bytes;
}

static void cubic_on_param_changed(void *state, size_t index)
{
    cubic_state *s = state;
    /* A new C or beta changes the curve: start a fresh epoch from the current window. */
    if (index == CUBIC_PARAM_C || index == CUBIC_PARAM_BETA) s->epoch_valid = 0;
    cubic_set_cwnd(s, s->cwnd_bytes);
}

const cc_ops cc_ops_cubic = {
    .name = "cubic",
    .description = "CUBIC (RFC 9438) with HyStart++ slow start, paced at gain x cwnd / srtt",
    .state_size = sizeof(cubic_state),
    .params = cubic_params,
    .param_count = CUBIC_PARAM_COUNT,
    .accepts_custom_utility = 0,
    .delivery_rate_unused = 1,
    .init = cubic_init,
    .release = 0,
    .on_packet_sent = cubic_on_packet_sent,
    .on_ack = cubic_on_ack,
    .on_loss = cubic_on_loss,
    .on_tick = 0,
    .pacing_rate_bytes_per_s = cubic_pacing_rate_bytes_per_s,
    .cwnd_bytes = cubic_cwnd_bytes,
    .get_telemetry = cubic_get_telemetry,
    .on_param_changed = cubic_on_param_changed,
};
