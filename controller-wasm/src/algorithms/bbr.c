/*
 * BBR version 1: a model of the path (bottleneck bandwidth, round-trip propagation time) drives the
 * pacing rate and the window. The state machine and its constants follow the BBR paper (Cardwell et
 * al., ACM Queue 2016), draft-cardwell-iccrg-bbr-congestion-control-00 and Linux net/ipv4/tcp_bbr.c:
 * startup at 2/ln2, drain, probe_bw cycling through 8 phases (1.25, 0.75, 1 x 6), probe_rtt every
 * 10 s for 200 ms at 4 packets; bottleneck bandwidth is the max delivery rate over 10 rounds and the
 * propagation time the min RTT over 10 s. Delivery-rate samples come from the framework (tcp_rate.c).
 */
#include <math.h>
#include <stdint.h>

#include "../cc_algorithm.h"
#include "../cc_window.h"
#include "../full_pipe.h"

enum bbr_param {
    BBR_PARAM_STARTUP_GAIN,
    BBR_PARAM_DRAIN_GAIN,
    BBR_PARAM_CWND_GAIN,
    BBR_PARAM_PROBE_BW_UP_GAIN,
    BBR_PARAM_PROBE_BW_DOWN_GAIN,
    BBR_PARAM_BW_WINDOW_ROUNDS,
    BBR_PARAM_MIN_RTT_WINDOW_S,
    BBR_PARAM_PROBE_RTT_DURATION_MS,
    BBR_PARAM_MIN_CWND_PACKETS,
    BBR_PARAM_INITIAL_CWND_PACKETS,
    BBR_PARAM_FULL_BW_GROWTH,
    BBR_PARAM_FULL_BW_ROUNDS,
    BBR_PARAM_PACING_MARGIN,
    BBR_PARAM_COUNT
};

#define BBR_BW_RING 64   /* upper bound of bbr_bw_window_rounds */

static const cc_param_desc bbr_params[BBR_PARAM_COUNT] = {
    {"bbr_startup_gain", 2.885, 1.5, 4.0, "pacing and cwnd gain in startup, 2/ln2 (tcp_bbr.c bbr_high_gain)"},
    {"bbr_drain_gain", 0.3466, 0.1, 1.0, "pacing gain in drain, ln2/2 = 1/startup gain (tcp_bbr.c bbr_drain_gain)"},
    {"bbr_cwnd_gain", 2.0, 1.0, 4.0, "cwnd = gain x BDP in probe_bw (tcp_bbr.c bbr_cwnd_gain)"},
    {"bbr_probe_bw_up_gain", 1.25, 1.0, 2.0, "pacing gain of the probing phase of the 8-phase cycle"},
    {"bbr_probe_bw_down_gain", 0.75, 0.25, 1.0, "pacing gain of the draining phase of the 8-phase cycle"},
    {"bbr_bw_window_rounds", 10.0, 1.0, (double)BBR_BW_RING, "max filter of delivery rate spans this many rounds"},
    {"bbr_min_rtt_window_s", 10.0, 0.1, 600.0, "min RTT filter length; expiry triggers probe_rtt"},
    {"bbr_probe_rtt_duration_ms", 200.0, 1.0, 10000.0, "time spent at the probe_rtt window"},
    {"bbr_min_cwnd_packets", 4.0, 1.0, 100.0, "cwnd floor, also the probe_rtt window"},
    {"bbr_initial_cwnd_packets", 10.0, 2.0, 1000.0, "window before a bandwidth sample exists"},
    {"bbr_full_bw_growth", 1.25, 1.01, 4.0, "startup continues while the bandwidth grows by this factor per round"},
    {"bbr_full_bw_rounds", 3.0, 1.0, 20.0, "rounds without that growth that mean the pipe is full"},
    {"bbr_pacing_margin", 0.01, 0.0, 0.2, "pace this fraction below the estimate (tcp_bbr.c bbr_pacing_margin_percent)"},
};

#define BBR_CYCLE_LENGTH 8
#define BBR_QUANTIZATION_PACKETS 3   /* tcp_bbr.c bbr_quantization_budget: room for delayed/aggregated acks */

typedef enum bbr_mode { BBR_STARTUP, BBR_DRAIN, BBR_PROBE_BW, BBR_PROBE_RTT } bbr_mode;

typedef struct bbr_state {
    cc_context *ctx;
    bbr_mode mode;
    double pacing_gain;
    double cwnd_gain;
    double cwnd_bytes;
    double prior_cwnd_bytes;
    double pacing_rate_bytes_per_s;

    /* Rounds, counted by delivered bytes (tcp_bbr.c bbr_update_round). */
    uint64_t next_round_delivered_bytes;
    uint64_t delivered_bytes;
    uint64_t round_count;
    int round_start;

    /* Max filter of the delivery rate: the best sample of each of the last rounds. */
    double bw_round_max[BBR_BW_RING];
    uint64_t bw_round_id[BBR_BW_RING];
    int bw_round_used[BBR_BW_RING];
    double max_bw_bytes_per_s;

    int64_t min_rtt_us;   /* 0 = none yet */
    int64_t min_rtt_stamp_us;

    cc_full_pipe full_pipe;
    int filled_pipe;

    uint32_t cycle_index;
    int64_t cycle_stamp_us;

    int64_t probe_rtt_done_us;   /* 0 = window not yet drained to the probe_rtt target */
    int probe_rtt_round_done;

    /* Loss recovery (tcp_bbr.c bbr_set_cwnd_to_recover_or_restore). */
    uint64_t largest_sent_pn;
    int any_sent;
    int in_recovery;
    uint64_t recovery_end_pn;
    int packet_conservation;
    int start_round_on_next_ack;
    int lost_since_last_ack;
} bbr_state;

static double bbr_param(const bbr_state *s, enum bbr_param p) { return s->ctx->params[p]; }

static double bbr_mss(const bbr_state *s) { return cc_window_mss_bytes(s->ctx); }

static double bbr_min_cwnd_bytes(const bbr_state *s) { return bbr_param(s, BBR_PARAM_MIN_CWND_PACKETS) * bbr_mss(s); }

static double bbr_cycle_gain(const bbr_state *s, uint32_t index)
{
    if (index == 0) return bbr_param(s, BBR_PARAM_PROBE_BW_UP_GAIN);
    if (index == 1) return bbr_param(s, BBR_PARAM_PROBE_BW_DOWN_GAIN);
    return 1.0;
}

/* Gain x bandwidth x min RTT; before both estimates exist, the initial window (tcp_bbr.c bbr_bdp). */
static double bbr_bdp_bytes(const bbr_state *s, double gain)
{
    if (s->min_rtt_us <= 0 || s->max_bw_bytes_per_s <= 0.0)
        return gain * bbr_param(s, BBR_PARAM_INITIAL_CWND_PACKETS) * bbr_mss(s);
    return gain * s->max_bw_bytes_per_s * ((double)s->min_rtt_us / 1e6);
}

static void bbr_set_gains(bbr_state *s)
{
    double high_gain = bbr_param(s, BBR_PARAM_STARTUP_GAIN);
    switch (s->mode) {
    case BBR_STARTUP:
        s->pacing_gain = high_gain;
        s->cwnd_gain = high_gain;
        break;
    case BBR_DRAIN:
        s->pacing_gain = bbr_param(s, BBR_PARAM_DRAIN_GAIN);
        s->cwnd_gain = high_gain;   /* keep the window while the queue drains */
        break;
    case BBR_PROBE_BW:
        s->pacing_gain = bbr_cycle_gain(s, s->cycle_index);
        s->cwnd_gain = bbr_param(s, BBR_PARAM_CWND_GAIN);
        break;
    case BBR_PROBE_RTT:
        s->pacing_gain = 1.0;
        s->cwnd_gain = 1.0;
        break;
    }
}

static void bbr_clamp_cwnd(bbr_state *s)
{
    s->cwnd_bytes = cc_window_bound_bytes(s->cwnd_bytes, bbr_min_cwnd_bytes(s));
}

static void bbr_init(void *state, cc_context *ctx, int64_t now_us)
{
    bbr_state *s = state;
    s->ctx = ctx;
    s->mode = BBR_STARTUP;
    s->cwnd_bytes = bbr_param(s, BBR_PARAM_INITIAL_CWND_PACKETS) * bbr_mss(s);
    bbr_clamp_cwnd(s);
    s->min_rtt_stamp_us = now_us;
    bbr_set_gains(s);
}

/* Entering probe_bw at a random phase other than the draining one (tcp_bbr.c bbr_reset_probe_bw_mode). */
static void bbr_enter_probe_bw(bbr_state *s, int64_t now_us)
{
    s->mode = BBR_PROBE_BW;
    uint32_t offset = (uint32_t)(s->ctx->random_u64(s->ctx) % (BBR_CYCLE_LENGTH - 1));
    s->cycle_index = (BBR_CYCLE_LENGTH - 1 - offset + 1) % BBR_CYCLE_LENGTH;   /* 2..7 or 0, never 1 */
    s->cycle_stamp_us = now_us;
}

static void bbr_enter_startup_or_probe_bw(bbr_state *s, int64_t now_us)
{
    if (s->filled_pipe)
        bbr_enter_probe_bw(s, now_us);
    else
        s->mode = BBR_STARTUP;
}

static void bbr_update_round(bbr_state *s, const cc_ack_event *event)
{
    s->delivered_bytes = event->delivered_bytes;
    s->round_start = 0;
    if (s->start_round_on_next_ack) {
        /* Recovery began: its first round starts now (tcp_bbr.c sets next_rtt_delivered on entry). */
        s->start_round_on_next_ack = 0;
        s->next_round_delivered_bytes = event->delivered_bytes;
        return;
    }
    if (event->packet->delivered_bytes_at_send >= s->next_round_delivered_bytes) {
        s->next_round_delivered_bytes = event->delivered_bytes;
        s->round_count++;
        s->round_start = 1;
        s->packet_conservation = 0;
    }
}

static void bbr_recompute_max_bw(bbr_state *s)
{
    uint64_t window = (uint64_t)bbr_param(s, BBR_PARAM_BW_WINDOW_ROUNDS);
    double best = 0.0;
    for (int i = 0; i < BBR_BW_RING; i++) {
        if (!s->bw_round_used[i]) continue;
        if (s->bw_round_id[i] + window <= s->round_count) continue;   /* older than the window */
        if (s->bw_round_max[i] > best) best = s->bw_round_max[i];
    }
    s->max_bw_bytes_per_s = best;
}

static void bbr_update_bw(bbr_state *s, const cc_ack_event *event)
{
    double sample = event->delivery_rate_bytes_per_s;
    if (sample > 0.0 && isfinite(sample) && (!event->delivery_rate_app_limited || sample >= s->max_bw_bytes_per_s)) {
        size_t slot = (size_t)(s->round_count % BBR_BW_RING);
        if (!s->bw_round_used[slot] || s->bw_round_id[slot] != s->round_count) {
            s->bw_round_used[slot] = 1;
            s->bw_round_id[slot] = s->round_count;
            s->bw_round_max[slot] = sample;
        } else if (sample > s->bw_round_max[slot]) {
            s->bw_round_max[slot] = sample;
        }
        if (sample > s->max_bw_bytes_per_s) s->max_bw_bytes_per_s = sample;
    }
    /* Old rounds only leave the window when a new round starts: rescan then. */
    if (s->round_start) bbr_recompute_max_bw(s);
}

/* tcp_bbr.c bbr_is_next_cycle_phase: each phase lasts a min RTT; probing also waits until the extra
 * data is actually in flight (or a loss says there is no room), draining ends early once the queue it
 * made is gone. */
static void bbr_update_cycle_phase(bbr_state *s, const cc_ack_event *event)
{
    if (s->mode != BBR_PROBE_BW) return;
    int64_t now_us = event->now_us;
    int is_full_length = now_us - s->cycle_stamp_us > s->min_rtt_us;
    double prior_inflight = (double)event->bytes_in_flight + (double)event->packet->bytes;
    double gain = bbr_cycle_gain(s, s->cycle_index);
    int advance;
    if (gain == 1.0)
        advance = is_full_length;
    else if (gain > 1.0)
        advance = is_full_length && (s->lost_since_last_ack || prior_inflight >= bbr_bdp_bytes(s, gain));
    else
        advance = is_full_length || prior_inflight <= bbr_bdp_bytes(s, 1.0);
    if (advance) {
        s->cycle_index = (s->cycle_index + 1) % BBR_CYCLE_LENGTH;
        s->cycle_stamp_us = now_us;
    }
}

/* Paper §"startup": the pipe is full when three rounds in a row grow the estimate by less than 25%. */
static void bbr_check_full_pipe(bbr_state *s, const cc_ack_event *event)
{
    /* probe_rtt's four-packet window caps delivery on purpose: no evidence about the pipe. */
    if (s->filled_pipe || !s->round_start || event->delivery_rate_app_limited || s->mode == BBR_PROBE_RTT) return;
    if (cc_full_pipe_round(&s->full_pipe, s->max_bw_bytes_per_s, bbr_param(s, BBR_PARAM_FULL_BW_GROWTH)) >=
        (unsigned)bbr_param(s, BBR_PARAM_FULL_BW_ROUNDS))
        s->filled_pipe = 1;
}

static void bbr_check_drain(bbr_state *s, const cc_ack_event *event)
{
    if (s->mode == BBR_STARTUP && s->filled_pipe) s->mode = BBR_DRAIN;
    if (s->mode == BBR_DRAIN && (double)event->bytes_in_flight <= bbr_bdp_bytes(s, 1.0))
        bbr_enter_probe_bw(s, event->now_us);
}

static void bbr_save_cwnd(bbr_state *s)
{
    if (!s->in_recovery && s->mode != BBR_PROBE_RTT)
        s->prior_cwnd_bytes = s->cwnd_bytes;
    else if (s->cwnd_bytes > s->prior_cwnd_bytes)
        s->prior_cwnd_bytes = s->cwnd_bytes;
}

/* tcp_bbr.c bbr_update_min_rtt: an expired min RTT sends the flow to probe_rtt, which holds the
 * window at the minimum for 200 ms and at least one round, then refreshes the filter. */
static void bbr_update_min_rtt(bbr_state *s, const cc_ack_event *event)
{
    int64_t now_us = event->now_us;
    int64_t window_us = (int64_t)(bbr_param(s, BBR_PARAM_MIN_RTT_WINDOW_S) * 1e6);
    int expired = now_us > s->min_rtt_stamp_us + window_us;
    if (s->min_rtt_us <= 0 || event->rtt_us < s->min_rtt_us || expired) {
        s->min_rtt_us = event->rtt_us;
        s->min_rtt_stamp_us = now_us;
    }
    if (expired && s->mode != BBR_PROBE_RTT) {
        bbr_save_cwnd(s);
        s->mode = BBR_PROBE_RTT;
        s->probe_rtt_done_us = 0;
        s->probe_rtt_round_done = 0;
    }
    if (s->mode != BBR_PROBE_RTT) return;

    if (s->probe_rtt_done_us == 0) {
        if ((double)event->bytes_in_flight <= bbr_min_cwnd_bytes(s)) {
            int64_t duration_us = (int64_t)(bbr_param(s, BBR_PARAM_PROBE_RTT_DURATION_MS) * 1e3);
            s->probe_rtt_done_us = now_us + (duration_us > 0 ? duration_us : 1);
            s->probe_rtt_round_done = 0;
            s->next_round_delivered_bytes = s->delivered_bytes;   /* the round starts now */
        }
        return;
    }
    if (s->round_start) s->probe_rtt_round_done = 1;
    if (s->probe_rtt_round_done && now_us >= s->probe_rtt_done_us) {
        s->min_rtt_stamp_us = now_us;
        if (s->prior_cwnd_bytes > s->cwnd_bytes) s->cwnd_bytes = s->prior_cwnd_bytes;
        bbr_enter_startup_or_probe_bw(s, now_us);
    }
}

static void bbr_set_pacing_rate(bbr_state *s)
{
    if (s->max_bw_bytes_per_s <= 0.0) return;
    double rate = s->pacing_gain * s->max_bw_bytes_per_s * (1.0 - bbr_param(s, BBR_PARAM_PACING_MARGIN));
    /* Startup never lowers the rate on a weak sample (tcp_bbr.c bbr_set_pacing_rate). */
    if (s->filled_pipe || rate > s->pacing_rate_bytes_per_s) s->pacing_rate_bytes_per_s = rate;
}

static void bbr_set_cwnd(bbr_state *s, const cc_ack_event *event)
{
    double acked_bytes = (double)event->packet->bytes;
    if (s->packet_conservation) {
        /* First round of recovery: send one packet per packet acknowledged. */
        double conserve = (double)event->bytes_in_flight + acked_bytes;
        if (conserve > s->cwnd_bytes) s->cwnd_bytes = conserve;
    } else {
        double target = bbr_bdp_bytes(s, s->cwnd_gain) + BBR_QUANTIZATION_PACKETS * bbr_mss(s);
        if (s->mode == BBR_PROBE_BW && s->cycle_index == 0) target += 2.0 * bbr_mss(s);
        if (s->filled_pipe) {
            double grown = s->cwnd_bytes + acked_bytes;
            s->cwnd_bytes = grown < target ? grown : target;
        } else if (s->cwnd_bytes < target ||
                   (double)s->delivered_bytes < bbr_param(s, BBR_PARAM_INITIAL_CWND_PACKETS) * bbr_mss(s)) {
            s->cwnd_bytes += acked_bytes;
        }
    }
    bbr_clamp_cwnd(s);
    if (s->mode == BBR_PROBE_RTT && s->cwnd_bytes > bbr_min_cwnd_bytes(s)) s->cwnd_bytes = bbr_min_cwnd_bytes(s);
}

static void bbr_on_packet_sent(void *state, const cc_sent_packet *packet)
{
    bbr_state *s = state;
    if (!s->any_sent || packet->pn > s->largest_sent_pn) s->largest_sent_pn = packet->pn;
    s->any_sent = 1;
}

static void bbr_on_ack(void *state, const cc_ack_event *event)
{
    bbr_state *s = state;
    bbr_update_round(s, event);
    if (s->in_recovery && event->packet->pn > s->recovery_end_pn) {
        /* Recovery is over: restore the window it cut (tcp_bbr.c). */
        s->in_recovery = 0;
        s->packet_conservation = 0;
        if (s->prior_cwnd_bytes > s->cwnd_bytes) s->cwnd_bytes = s->prior_cwnd_bytes;
    }
    bbr_update_bw(s, event);
    bbr_update_cycle_phase(s, event);
    bbr_check_full_pipe(s, event);
    bbr_check_drain(s, event);
    bbr_update_min_rtt(s, event);
    bbr_set_gains(s);
    bbr_set_pacing_rate(s);
    bbr_set_cwnd(s, event);
    s->lost_since_last_ack = 0;
}

static void bbr_on_loss(void *state, const cc_loss_event *event)
{
    bbr_state *s = state;
    s->lost_since_last_ack = 1;
    if (!s->in_recovery) {
        bbr_save_cwnd(s);
        s->in_recovery = 1;
        s->recovery_end_pn = s->largest_sent_pn;
        s->packet_conservation = 1;
        s->start_round_on_next_ack = 1;
        /* tcp_bbr.c: on entering recovery the window becomes what is still in flight. */
        s->cwnd_bytes = (double)event->bytes_in_flight;
    } else {
        s->cwnd_bytes -= (double)event->packet->bytes;
    }
    bbr_clamp_cwnd(s);
}

static double bbr_pacing_rate_bytes_per_s(const void *state)
{
    const bbr_state *s = state;
    if (s->pacing_rate_bytes_per_s > 0.0) return s->pacing_rate_bytes_per_s;
    /* No bandwidth sample yet: the initial rate, or startup gain x initial window / srtt if faster
     * (tcp_bbr.c bbr_init_pacing_rate_from_rtt). */
    double rate = s->ctx->initial_rate_bytes_per_s;
    int64_t srtt_us = s->ctx->rtt->smoothed_rtt_us;
    if (srtt_us > 0) {
        double from_rtt = cc_window_pacing_rate_bytes_per_s(s->pacing_gain, s->cwnd_bytes, srtt_us);
        if (from_rtt > rate) rate = from_rtt;
    }
    return rate;
}

static double bbr_cwnd_bytes(const void *state)
{
    const bbr_state *s = state;
    return s->cwnd_bytes;
}

static const char *bbr_mode_name(bbr_mode mode)
{
    switch (mode) {
    case BBR_STARTUP: return "startup";
    case BBR_DRAIN: return "drain";
    case BBR_PROBE_BW: return "probe_bw";
    case BBR_PROBE_RTT: return "probe_rtt";
    }
    return "unknown";
}

static void bbr_get_telemetry(const void *state, cc_telemetry *out)
{
    const bbr_state *s = state;
    out->state = bbr_mode_name(s->mode);
    /* The model's bottleneck bandwidth estimate is BBR's measure of throughput. */
    out->last_mi_throughput_bps = s->max_bw_bytes_per_s * 8.0;
}

static void bbr_on_param_changed(void *state, size_t index)
{
    bbr_state *s = state;
    (void)index;
    bbr_set_gains(s);
    bbr_recompute_max_bw(s);
    bbr_clamp_cwnd(s);
}

const cc_ops cc_ops_bbr = {
    .name = "bbr",
    .description = "BBR v1: startup, drain, probe_bw gain cycling, probe_rtt (tcp_bbr.c)",
    .state_size = sizeof(bbr_state),
    .params = bbr_params,
    .param_count = BBR_PARAM_COUNT,
    .accepts_custom_utility = 0,
    .init = bbr_init,
    .release = 0,
    .on_packet_sent = bbr_on_packet_sent,
    .on_ack = bbr_on_ack,
    .on_loss = bbr_on_loss,
    .on_tick = 0,
    .pacing_rate_bytes_per_s = bbr_pacing_rate_bytes_per_s,
    .cwnd_bytes = bbr_cwnd_bytes,
    .get_telemetry = bbr_get_telemetry,
    .on_param_changed = bbr_on_param_changed,
};
