#include "pcc_loop.h"

#include <math.h>
#include <string.h>

#include "pcc_rate_limits.h"

void pcc_loop_init(pcc_loop *loop, cc_context *ctx, const pcc_hooks *hooks) {
    memset(loop, 0, sizeof *loop);
    loop->ctx = ctx;
    loop->hooks = hooks;
    pcc_mi_tracker_init(&loop->tracker);
}

void pcc_loop_new_epoch(pcc_loop *loop) {
    loop->epoch++;
    loop->restart_mi = 1;
}

int64_t pcc_loop_mi_timeout_us(const pcc_loop *loop) {
    const cc_rtt_view *rtt = loop->ctx->rtt;
    int64_t basis_us = loop->hooks->timeout_from_expected_feedback ? rtt->min_rtt_us : rtt->smoothed_rtt_us;
    double rtt_us = basis_us > 0 ? (double)basis_us : CC_INITIAL_RTT_US;
    double t = loop->hooks->mi_timeout_rtts(loop) * rtt_us;
    return (int64_t)(t > PCC_MI_TIMEOUT_MIN_US ? t : PCC_MI_TIMEOUT_MIN_US);
}

/* Feedback for an MI opened now is due one sRTT after it ends: the queue already standing is no news. */
static int64_t expected_delay_us(const pcc_loop *loop) {
    return loop->hooks->timeout_from_expected_feedback ? loop->ctx->rtt->smoothed_rtt_us : 0;
}

/* The usual MI length: the algorithm's span in RTTs, at least PCC_MI_MIN_PACKETS at the MI's rate and
 * PCC_MI_MIN_DURATION_US. */
static int64_t mi_duration_us(pcc_loop *loop, double rate_bytes_per_s) {
    double d = loop->hooks->mi_span_us(loop);
    double by_packets = PCC_MI_MIN_PACKETS * (double)loop->ctx->mss_bytes / rate_bytes_per_s * 1e6;
    if (by_packets > d) d = by_packets;
    if (PCC_MI_MIN_DURATION_US > d) d = PCC_MI_MIN_DURATION_US;
    return (int64_t)d;
}

/* Whether a packet sent at now_us opens a new MI: none is open, or the open one has lasted its length and carried
 * PCC_MI_MIN_PACKETS. Until the first RTT sample the first MI stays open: an MI must span an RTT, and doubling per
 * MI on a guess would reach 2^(RTT/MI) times the initial rate before any feedback. */
static int mi_due(const pcc_loop *loop, int64_t now_us) {
    const pcc_mi *open = pcc_mi_open(&loop->tracker);
    if (open == NULL) return 1;
    return loop->ctx->rtt->smoothed_rtt_us > 0 && now_us - open->start_time_us >= loop->open_mi_duration_us &&
           open->packets_sent >= (uint32_t)PCC_MI_MIN_PACKETS;
}

static void report_mi(const pcc_loop *loop, const pcc_mi_result *r, const cc_mi_stats *stats, double utility) {
    const cc_context *ctx = loop->ctx;
    if (ctx->mi_observer == NULL) return;
    cc_mi_report report = {.stats = *stats, .utility = utility, .id = r->id, .first_pn = r->first_pn, .last_pn = r->last_pn,
                           .start_time_us = r->start_time_us, .end_time_us = r->end_time_us, .timed_out = r->timed_out,
                           .app_limited = r->app_limited};
    ctx->mi_observer(&report, ctx->mi_observer_data);
}

/* An MI the sender could not fill validated nothing: the algorithm's rates come down to what the path delivered
 * lately (validated_rate.h), after it has taken the MI's result (Vivace sets such MIs aside). */
static void limit_to_validated(pcc_loop *loop) {
    double ceiling = cc_app_limited_rate_ceiling(&loop->validated, loop->ctx, loop->now_us, CC_RATE_OVER_VALIDATED);
    double start_ceiling = cc_app_limited_rate_ceiling(&loop->validated, loop->ctx, loop->now_us, CC_START_OVER_VALIDATED);
    if (ceiling > 0 && loop->hooks->limit_rate != NULL) loop->hooks->limit_rate(loop, ceiling, start_ceiling);
}

static void handle_result(pcc_loop *loop, const pcc_mi_result *r) {
    loop->mi_completed++;
    int current = r->epoch == loop->epoch;
    if (r->timed_out && loop->hooks->on_timeout != NULL) {
        loop->last_stats = r->stats;
        report_mi(loop, r, &r->stats, 0.0);
        if (current) loop->hooks->on_timeout(loop, r);
        return;
    }
    pcc_mi_result result = *r;
    if (r->timed_out && result.stats.packets_sent > 0) {
        /* packets still unaccounted for count as lost */
        result.stats.packets_lost = result.stats.packets_sent - result.stats.packets_acked;
        result.stats.loss_rate = (double)result.stats.packets_lost / (double)result.stats.packets_sent;
    }
    pcc_mi_outcome outcome = {.result = &result};
    const cc_context *ctx = loop->ctx;
    double utility = ctx->custom_utility != NULL ? ctx->custom_utility(&result.stats, ctx->custom_utility_data)
                                                 : loop->hooks->utility(loop, &result, &outcome.noise_var);
    outcome.valid = isfinite(utility);
    outcome.utility = outcome.valid ? utility : 0.0;
    if (result.stats.packets_sent > 0) {
        if (!loop->have_loss_average) loop->loss_average = result.stats.loss_rate;
        else loop->loss_average += PCC_LOSS_AVERAGE_WEIGHT * (result.stats.loss_rate - loop->loss_average);
        loop->have_loss_average = 1;
    }
    loop->last_stats = result.stats;
    loop->last_utility = outcome.utility;
    report_mi(loop, &result, &result.stats, outcome.utility);
    if (current) loop->hooks->on_result(loop, &outcome);
    if (r->app_limited) limit_to_validated(loop);
}

/* Hands every finished MI to the algorithm, in send order. */
static void drain_results(pcc_loop *loop) {
    pcc_mi_result r;
    while (pcc_mi_pop_result(&loop->tracker, (double)loop->ctx->rtt->min_rtt_us, &r)) handle_result(loop, &r);
}

void pcc_loop_on_packet_sent(void *state, const cc_sent_packet *packet) {
    pcc_loop *loop = state;
    int64_t now_us = packet->sent_time_us;
    loop->now_us = now_us;
    /* a send follows the ACK frame it answers: that frame has ended */
    if (pcc_mi_end_frame(&loop->tracker)) drain_results(loop);
    if (loop->restart_mi || mi_due(loop, now_us)) {
        pcc_mi_close(&loop->tracker, now_us); /* first, so its achieved rate counts for the send ceiling */
        pcc_mi_expire(&loop->tracker, now_us, pcc_loop_mi_timeout_us(loop));
        drain_results(loop); /* an MI may have completed at its close (tiny RTT) or expired */
        pcc_next_mi next = {.rate_bytes_per_s = 0, .tag = 0, .duration_us = 0};
        loop->hooks->next_mi(loop, &next);
        /* the length is fixed when the MI opens: no per-packet arithmetic */
        pcc_mi *started = pcc_mi_start(&loop->tracker, next.rate_bytes_per_s, next.tag, loop->epoch, now_us);
        if (started != NULL) {
            loop->open_mi_sized_by_rtt = next.duration_us <= 0;
            loop->open_mi_duration_us = next.duration_us > 0 ? next.duration_us : mi_duration_us(loop, next.rate_bytes_per_s);
            started->expected_delay_us = expected_delay_us(loop);
        }
        loop->restart_mi = 0;
    }
    pcc_mi_on_sent(&loop->tracker, packet);
}

void pcc_loop_shorten_stale_mi(pcc_loop *loop, double stale_factor) {
    const pcc_mi *open = pcc_mi_open(&loop->tracker);
    if (open == NULL || !loop->open_mi_sized_by_rtt) return;
    int64_t length_now_us = mi_duration_us(loop, open->target_rate_bytes_per_s);
    if ((double)length_now_us * stale_factor < (double)loop->open_mi_duration_us) loop->open_mi_duration_us = length_now_us;
}

void pcc_loop_on_ack(void *state, const cc_ack_event *event) {
    pcc_loop *loop = state;
    loop->now_us = event->now_us;
    cc_validated_rate_on_ack(&loop->validated, event);
    if (loop->hooks->on_ack != NULL) loop->hooks->on_ack(loop, event);
    if (pcc_mi_on_ack(&loop->tracker, event->packet, event->rtt_us, event->recv_time_us)) drain_results(loop);
}

void pcc_loop_on_loss(void *state, const cc_loss_event *event) {
    pcc_loop *loop = state;
    loop->now_us = event->now_us;
    if (loop->hooks->on_loss != NULL) loop->hooks->on_loss(loop, event);
    if (pcc_mi_on_loss(&loop->tracker, event->packet)) drain_results(loop);
}

void pcc_loop_on_tick(void *state, int64_t now_us) {
    pcc_loop *loop = state;
    loop->now_us = now_us;
    pcc_mi_end_frame(&loop->tracker);
    pcc_mi_expire(&loop->tracker, now_us, pcc_loop_mi_timeout_us(loop));
    drain_results(loop);
}

void pcc_loop_on_app_state(void *state, const cc_app_state *app, int64_t now_us) {
    pcc_loop *loop = state;
    loop->now_us = now_us;
    if (app->app_limited) pcc_mi_mark_app_limited(&loop->tracker);
}

double pcc_loop_pacing_rate(const void *state) {
    const pcc_loop *loop = state;
    const pcc_mi *open = pcc_mi_open(&loop->tracker);
    if (open != NULL && !loop->restart_mi) return open->target_rate_bytes_per_s;
    return loop->hooks->pending_rate(loop); /* between a decision and the next send: the next MI's rate */
}

double pcc_loop_cwnd(const void *state) {
    (void)state;
    return CC_CWND_UNLIMITED_BYTES; /* rate-based */
}

void pcc_loop_telemetry(const void *state, cc_telemetry *out) {
    const pcc_loop *loop = state;
    out->state = loop->hooks->state_name(loop);
    out->mi_rate_bps = pcc_loop_pacing_rate(state) * 8.0;
    out->last_mi_rate_bps = loop->last_stats.target_rate_bps;
    out->last_mi_utility = loop->last_utility;
    out->last_mi_loss_rate = loop->last_stats.loss_rate;
    out->last_mi_rtt_gradient = loop->last_stats.rtt_gradient;
    out->last_mi_throughput_bps = loop->last_stats.throughput_bps;
    out->gradient = loop->gradient;
    out->mi_completed = loop->mi_completed;
}

void pcc_loop_on_param_changed(void *state, size_t index) {
    pcc_loop *loop = state;
    if (index == CC_COMMON_PARAMS_CHANGED) {
        loop->hooks->rebound(loop, loop->tracker.next_id == 0);
        loop->restart_mi = 1;
    } else if (loop->hooks->on_param_changed != NULL) {
        loop->hooks->on_param_changed(loop, index);
    }
}

void pcc_loop_rebound_rates(const pcc_loop *loop, int nothing_sent, double *base_rate, double *next_rate) {
    const cc_context *ctx = loop->ctx;
    if (nothing_sent) {
        *base_rate = pcc_clamp_rate(ctx, ctx->initial_rate_bytes_per_s);
        *next_rate = *base_rate;
    }
    *base_rate = pcc_clamp_rate(ctx, *base_rate);
    *next_rate = pcc_clamp_rate(ctx, *next_rate);
}

void pcc_probe_round_start(pcc_probe_round *round, cc_context *ctx) {
    round->sent = 0;
    for (int pair = 0; pair < PCC_PROBE_PAIRS; pair++) {
        int higher_first = ctx->random_unit(ctx) < 0.5;
        round->order[2 * pair] = 2 * pair + (higher_first ? 0 : 1);
        round->order[2 * pair + 1] = 2 * pair + (higher_first ? 1 : 0);
        round->have[2 * pair] = round->have[2 * pair + 1] = 0;
    }
}

int pcc_probe_round_peek(const pcc_probe_round *round) {
    return round->sent < PCC_PROBE_SLOTS ? round->order[round->sent] : -1;
}

int pcc_probe_round_take(pcc_probe_round *round) {
    int slot = pcc_probe_round_peek(round);
    if (slot >= 0) round->sent++;
    return slot;
}

int pcc_probe_round_record(pcc_probe_round *round, int slot) {
    if (slot < 0 || slot >= PCC_PROBE_SLOTS) return 0;
    round->have[slot] = 1;
    for (int i = 0; i < PCC_PROBE_SLOTS; i++) {
        if (!round->have[i]) return 0;
    }
    return 1;
}
