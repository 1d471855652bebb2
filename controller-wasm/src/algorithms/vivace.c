/*
 * PCC Vivace (thesis chapter 4): online gradient ascent on a measured utility.
 * Two ops tables: "vivace" (latency-aware utility, the default) and "vivace-loss" (b = 0, thesis §4.5).
 *
 * Control (thesis §4.4, Table 4.1 defaults), one file per part (vivace_state.h):
 *  - slow start doubles the rate every monitor interval (MI) while the utility rises, then falls back and drains
 *    the queue it built (vivace_slow_start.c);
 *  - probing: rounds of two probe pairs at r(1±ε) that must agree, γ = (u+ - u-)/(r+ - r-), and the step
 *    Δr = m(τ)·θ0·γ within the dynamic boundary ω (vivace_probing.c);
 *  - moving (parameter moving; kernel paper "PCC State Machine"): after confident increases the rate steps on
 *    once per confirming MI result instead of once per probe round (vivace_moving.c);
 *  - MI timeouts halve the rate; recovery and the undo of spurious timeouts (vivace_timeout.c);
 *  - after a fade, increases from uncongested probes re-enter slow start (vivace_recovery.c).
 * The utility (eq. 4.1) and its noise filters (§4.4.4) are in vivace_utility.c, the parameters in
 * vivace_params.h. This file holds the next MI per phase, what a finished MI means and the ops tables; the PCC
 * loop (pcc_loop.h) does the rest.
 * Measurement is per packet (monitor_interval.h), so the kernel module's approximations for lack of per-packet
 * state (seed 003: sRTT sampling, ignoring an MI's last acks) are not needed.
 */
#include "vivace_state.h"

#include <math.h>

static const cc_param_desc vivace_params[VIVACE_P_COUNT] = {VIVACE_PARAM_ROWS(900, 0, 0, 0, 0)};
static const cc_param_desc vivace_loss_params[VIVACE_P_COUNT] = {VIVACE_PARAM_ROWS(0, 1, 0, 0, 0)};

static const char *const phase_names[] = {"slow_start", "probing", "double_check", "moving"};

double vivace_epsilon_min(const vivace_state *s) {
    double lo = vivace_param(s, VIVACE_P_EPSILON_MIN), hi = vivace_param(s, VIVACE_P_EPSILON);
    return lo < hi ? lo : hi;
}

void vivace_enter_probing(vivace_state *s, double base_rate) {
    s->phase = STATE_PROBING;
    s->fade_recovering = 0;
    s->drain_duration_us = 0;
    s->exit_repipe_pending = 0;
    s->base_rate = vivace_clamp_to_ceiling(s, base_rate);
    s->regain_floor = 0.0;
    pcc_probe_round_start(&s->round, s->loop.ctx);
    pcc_loop_new_epoch(&s->loop);
}

/* An MI lasts mi_duration_rtts sRTTs (the thesis and the published code; the loop adds its floors). */
double vivace_mi_span_us(void *state) {
    const vivace_state *s = state;
    return vivace_param(s, VIVACE_P_MI_DURATION_RTTS) * (double)s->loop.ctx->rtt->smoothed_rtt_us;
}

double vivace_mi_timeout_rtts(const void *state) { return vivace_param(state, VIVACE_P_MI_TIMEOUT_RTTS); }

void vivace_next_mi(void *state, pcc_next_mi *next) {
    vivace_state *s = state;
    switch (s->phase) {
    case STATE_SLOW_START:
        vivace_slow_start_next(s, next);
        return;
    case STATE_PROBING:
    case STATE_DOUBLE_CHECK:
        if (s->drain_duration_us > 0) {
            next->rate_bytes_per_s = vivace_clamp_rate(s, s->drain_rate);
            next->tag = VIVACE_TAG_DRAIN;
            next->duration_us = s->drain_duration_us;
            s->drain_duration_us = 0;
            return;
        }
        if (s->exit_repipe_pending) vivace_exit_repipe(s);
        int slot = pcc_probe_round_take(&s->round);
        next->rate_bytes_per_s = slot >= 0 ? vivace_probe_rate(s, slot) : s->base_rate;
        next->tag = slot >= 0 ? VIVACE_TAG_PROBE_FIRST + slot : VIVACE_TAG_HOLD;
        return;
    case STATE_MOVING:
        next->rate_bytes_per_s = s->base_rate;
        next->tag = VIVACE_TAG_MOVING;
        return;
    }
}

double vivace_pending_rate(const void *state) {
    const vivace_state *s = state;
    if (s->phase == STATE_SLOW_START) return vivace_slow_start_rate(s, s->slow_start_next_rate);
    if (s->phase == STATE_MOVING) return s->base_rate;
    if (s->drain_duration_us > 0) return s->drain_rate;
    int slot = pcc_probe_round_peek(&s->round);
    return slot >= 0 ? vivace_probe_rate(s, slot) : s->base_rate;
}

void vivace_on_result(void *state, const pcc_mi_outcome *outcome) {
    vivace_state *s = state;
    const pcc_mi_result *r = outcome->result;
    if (outcome->valid && s->awaiting_feedback && s->phase == STATE_PROBING && vivace_start_timeout_recovery(s)) return;
    if (r->app_limited) {
        /* An MI the sender could not fill (it ran out of data: the end of a video segment) holds few packets,
         * and its last ones wait for the receiver's delayed ACK: its utility measures the application and the
         * receiver, not the rate (§4.4.4, unreliable statistics). Slow start goes on; a probe round is re-run. */
        if (s->phase == STATE_SLOW_START && s->fade_recovering) {
            /* Nor does it say anything about the path's capacity, so it neither ends a fade recovery's doubling nor
             * lets it go on (§4.4: the rate doubles while the utility of MIs that tested their rate rises): the next
             * MI holds the rate last sent. Ended here, the recovery fell back to its best MI's rate, a doubling or
             * more below the rate before the fade; doubled on, it would raise a rate nothing tested. */
            if (s->slow_start_last_rate > 0 && s->slow_start_next_rate > s->slow_start_last_rate) {
                s->slow_start_next_rate = s->slow_start_last_rate;
            }
            return;
        }
        if (s->phase != STATE_SLOW_START && r->tag >= VIVACE_TAG_PROBE_FIRST) vivace_enter_probing(s, s->base_rate);
        if (s->phase == STATE_MOVING && r->tag == VIVACE_TAG_MOVING) vivace_enter_probing(s, s->moving_ref_rate_mbps / 8e-6);
        return;
    }
    if (!outcome->valid) {
        /* A utility that is not a number cannot be compared: stop climbing (slow start would otherwise
         * double blindly) and measure again. */
        if (s->phase == STATE_SLOW_START) {
            vivace_enter_probing(s, s->slow_start_have_best ? s->slow_start_best_rate : r->stats.target_rate_bps / 8.0);
        } else {
            vivace_enter_probing(s, s->base_rate);
        }
        return;
    }
    switch (s->phase) {
    case STATE_SLOW_START:
        if (r->tag == VIVACE_TAG_SLOW_START) vivace_on_slow_start_result(s, r, outcome->utility, outcome->noise_var);
        return;
    case STATE_MOVING:
        if (r->tag == VIVACE_TAG_MOVING) vivace_on_moving_result(s, r, outcome->utility, outcome->noise_var);
        return;
    case STATE_PROBING:
    case STATE_DOUBLE_CHECK:
        if (vivace_regain_on_probe(s, r)) return;
        if (r->tag >= VIVACE_TAG_PROBE_FIRST) vivace_on_probe_result(s, outcome);
        return;
    }
}

/* After an ack came late on the way back or through a forward silence (srtt_has_return_delay, marked in
 * vivace_timeout.c), an open MI's sRTT-sized length is stale when it is more than STALE_MI_FACTOR times what the sRTT
 * says now, while the latest RTT sample is within STALE_MI_PATH_RTT_FACTOR of the minimum (the path is empty again);
 * the mark clears once the sRTT itself is back within that factor. */
#define STALE_MI_FACTOR 2.0
#define STALE_MI_PATH_RTT_FACTOR 1.5

void vivace_on_ack(void *state, const cc_ack_event *event) {
    vivace_state *s = state;
    vivace_timeout_on_ack(s, event);
    /* An MI spans about an RTT so that its result comes in time for the next decision (thesis §4.4). An ack-path
     * outage (an LTE uplink silent for seconds) leaves the sRTT at the seconds its held acks waited; once fresh
     * samples show the path's own RTT again, an MI that sRTT sized would hold its rate, with no decision, for those
     * seconds; so does a blackout of both directions, whose held packets return with its length as their RTT. The
     * receive timestamps tell either from a forward queue (vivace_timeout.c); only after them does the open MI end at
     * the length the sRTT gives now: a queue draining on a bursty path also shows a latest RTT near the minimum under
     * a high sRTT, and there the long MI stays. A first RTT sample that was a silence (vivace_timeout.c) left the min
     * RTT at the silence as well: the path's RTT shows once a packet sent after it is acked. */
    if (s->srtt_has_return_delay && !s->first_rtt_in_silence &&
        (double)event->rtt->latest_rtt_us <= STALE_MI_PATH_RTT_FACTOR * (double)event->rtt->min_rtt_us) {
        pcc_loop_shorten_stale_mi(&s->loop, STALE_MI_FACTOR);
        if ((double)event->rtt->smoothed_rtt_us <= STALE_MI_PATH_RTT_FACTOR * (double)event->rtt->min_rtt_us) {
            s->srtt_has_return_delay = 0;
        }
    }
    if ((s->phase == STATE_SLOW_START || s->exit_repipe_pending) && event->delivery_rate_bytes_per_s > s->delivery_max) {
        s->delivery_max = event->delivery_rate_bytes_per_s;
    }
    if (s->exit_repipe_pending) vivace_exit_repipe_ack(s, event);
}

void vivace_rebound(void *state, int nothing_sent) {
    vivace_state *s = state;
    pcc_loop_rebound_rates(&s->loop, nothing_sent, &s->base_rate, &s->slow_start_next_rate);
}

void vivace_on_param_changed(void *state, size_t index) {
    vivace_state *s = state;
    if (index == VIVACE_P_EPSILON_MIN) {
        s->epsilon = vivace_epsilon_min(s); /* a new ε_min restarts the adaptation */
    } else if (index == VIVACE_P_EPSILON) {
        double lo = vivace_epsilon_min(s), hi = vivace_param(s, VIVACE_P_EPSILON);
        s->epsilon = s->epsilon < lo ? lo : s->epsilon > hi ? hi : s->epsilon;
    }
}

/* An MI the sender could not fill (pcc_loop.c, validated_rate.h): slow start doubles on from the ceiling at most;
 * otherwise a rate above it is not kept but probed again there. */
void vivace_limit_rate(void *state, double ceiling_rate, double start_ceiling_rate) {
    vivace_state *s = state;
    if (s->phase == STATE_SLOW_START) {
        if (s->slow_start_next_rate > start_ceiling_rate) {
            s->slow_start_next_rate = start_ceiling_rate;
            pcc_loop_new_epoch(&s->loop);
        }
        return;
    }
    if (s->base_rate > ceiling_rate) vivace_enter_probing(s, ceiling_rate);
}

const char *vivace_state_name(const void *state) { return phase_names[((const vivace_state *)state)->phase]; }

static const pcc_hooks vivace_hooks = VIVACE_HOOKS(vivace_mi_utility);

void vivace_init_with_hooks(vivace_state *s, cc_context *ctx, const pcc_hooks *hooks) {
    pcc_loop_init(&s->loop, ctx, hooks);
    s->phase = STATE_SLOW_START;
    s->base_rate = vivace_clamp_rate(s, ctx->initial_rate_bytes_per_s);
    s->epsilon = vivace_epsilon_min(s);
    s->slow_start_next_rate = s->base_rate;
}

static void vivace_init(void *state, cc_context *ctx, int64_t now_us) {
    (void)now_us;
    vivace_init_with_hooks(state, ctx, &vivace_hooks);
}

const cc_ops cc_ops_vivace =
    VIVACE_OPS("vivace", "PCC Vivace, latency-aware utility (thesis ch. 4)", vivace_params, VIVACE_P_COUNT, vivace_init);
const cc_ops cc_ops_vivace_loss = VIVACE_OPS("vivace-loss", "PCC Vivace with the loss-only utility, b = 0 (thesis §4.5)",
                                             vivace_loss_params, VIVACE_P_COUNT, vivace_init);
