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
 *  - MI timeouts halve the rate; recovery and the undo of spurious timeouts (vivace_timeout.c).
 * The utility (eq. 4.1) and its noise filters (§4.4.4) are in vivace_utility.c. This file holds the parameters,
 * the next MI per phase and what a finished MI means; the PCC loop (pcc_loop.h) does the rest.
 * Measurement is per packet (monitor_interval.h), so the kernel module's approximations for lack of per-packet
 * state (seed 003: sRTT sampling, ignoring an MI's last acks) are not needed.
 */
#include "vivace_state.h"

#include <math.h>

/*
 * Latency coefficient b: eq. 4.33 prints 11330, but §4.5 states that every experiment ("Vivace-latency")
 * ran with b = 900 as the default, and the published user-space code uses 900 with x in Mbit/s and a
 * dimensionless dRTT/dt. The figures we reproduce come from §4.5, so 900 is the default.
 */
#define VIVACE_PARAMS(latency_coefficient_default, moving_default)                                           \
    {                                                                                                        \
        {"epsilon", 0.05, 0.001, 0.5, "probing step ε: probes at r(1±ε) (thesis Table 4.1)"},                \
        {"theta0", 1, 1e-6, 1e6, "initial conversion factor θ0, Mbit/s per utility/(Mbit/s) (Table 4.1)"}, \
        {"omega0", 0.05, 0.001, 1, "initial dynamic change boundary ω0, fraction of rate (Table 4.1)"},     \
        {"omega_delta", 0.1, 0, 1, "dynamic boundary increment δ (Table 4.1)"},                             \
        {"throughput_exponent", 0.9, 0.01, 1, "t in x^t (eq. 4.1, §4.3.5)"},                                 \
        {"latency_coefficient", latency_coefficient_default, 0, 1e6,                                         \
         "b, penalty per unit RTT gradient (§4.5: 900 for Vivace-latency, 0 for Vivace-loss)"},              \
        {"loss_coefficient", 11.35, 0, 1e6, "c, penalty per unit loss rate (eq. 4.33)"},                    \
        {"latency_filter", 0.01, 0, 1, "flt_latency: |dRTT/dt| below this is jitter, counts as 0 (Table 4.1)"}, \
        {"double_check", 1, 0, 1, "boolean; 1: re-run counter-intuitive probe rounds (§4.4.4, Table 4.1 ON)"}, \
        {"slow_start_loss_ignored", 0, 0, 1, "th_loss: loss below this ignored in slow start (Table 4.1)"}, \
        {"slow_start_latency_ignored", 0, 0, 1, "th_latency: RTT gradient below this ignored in slow start (Table 4.1)"}, \
        {"mi_timeout_rtts", 5, 1, 100, "T_timeout in min RTTs after an MI's expected feedback: it halves the rate (Table 4.1; §4.5 LTE: 2)"}, \
        {"mi_duration_rtts", 1, 0.1, 10, "MI length in sRTTs (user-space Vivace: 1 RTT)"},                   \
        {"epsilon_min", 0.05, 0.001, 0.5,                                                                   \
         "adaptive ε as in Allegro (§3.2.3): probe at ε_min after a decision, + ε_min per inconclusive round up to epsilon; = epsilon: fixed ε"}, \
        {"epsilon_min_on_reversal", 0, 0, 1,                                                                \
         "boolean; 1 (with epsilon_min < epsilon): the step narrows to epsilon_min only after a decision that reverses the last one; one in the same direction probes at epsilon"}, \
        {"moving", moving_default, 0, 1,                                                                    \
         "boolean; 1: after two confident increases in a row the rate keeps stepping up once per MI result until an MI's utility falls (kernel paper: the moving state)"}, \
        {"slow_start_delivery_gain", 2, 0, 100,                                                             \
         "slow start's rate stays below this multiple of the highest delivery rate acknowledged so far (0: the thesis's doubling only)"}, \
        {"slow_start_drain", 1, 0, 1,                                                                       \
         "boolean; 1: after slow start ends, one MI at half the new rate drains the queue slow start left (0: the thesis's slow start)"}, \
    }

static const cc_param_desc vivace_params[P_COUNT] = VIVACE_PARAMS(900, 0);
static const cc_param_desc vivace_loss_params[P_COUNT] = VIVACE_PARAMS(0, 1);

static const char *const phase_names[] = {"slow_start", "probing", "double_check", "moving"};

double vivace_epsilon_min(const vivace_state *s) {
    double lo = vivace_param(s, P_EPSILON_MIN), hi = vivace_param(s, P_EPSILON);
    return lo < hi ? lo : hi;
}

void vivace_enter_probing(vivace_state *s, double base_rate) {
    s->phase = STATE_PROBING;
    s->drain_duration_us = 0;
    s->base_rate = vivace_clamp_to_ceiling(s, base_rate);
    pcc_probe_round_start(&s->round, s->loop.ctx);
    pcc_loop_new_epoch(&s->loop);
}

/* An MI lasts mi_duration_rtts sRTTs (the thesis and the published code; the loop adds its floors). */
static double mi_span_us(void *state) {
    const vivace_state *s = state;
    return vivace_param(s, P_MI_DURATION_RTTS) * (double)s->loop.ctx->rtt->smoothed_rtt_us;
}

static double mi_timeout_rtts(const void *state) { return vivace_param(state, P_MI_TIMEOUT_RTTS); }

static void next_mi(void *state, pcc_next_mi *next) {
    vivace_state *s = state;
    switch (s->phase) {
    case STATE_SLOW_START:
        vivace_slow_start_next(s, next);
        return;
    case STATE_PROBING:
    case STATE_DOUBLE_CHECK:
        if (s->drain_duration_us > 0) {
            next->rate_bytes_per_s = vivace_clamp_rate(s, s->drain_rate);
            next->tag = TAG_DRAIN;
            next->duration_us = s->drain_duration_us;
            s->drain_duration_us = 0;
            return;
        }
        int slot = pcc_probe_round_take(&s->round);
        next->rate_bytes_per_s = slot >= 0 ? vivace_probe_rate(s, slot) : s->base_rate;
        next->tag = slot >= 0 ? TAG_PROBE_FIRST + slot : TAG_HOLD;
        return;
    case STATE_MOVING:
        next->rate_bytes_per_s = s->base_rate;
        next->tag = TAG_MOVING;
        return;
    }
}

static double pending_rate(const void *state) {
    const vivace_state *s = state;
    if (s->phase == STATE_SLOW_START) return vivace_slow_start_rate(s, s->slow_start_next_rate);
    if (s->phase == STATE_MOVING) return s->base_rate;
    if (s->drain_duration_us > 0) return s->drain_rate;
    int slot = pcc_probe_round_peek(&s->round);
    return slot >= 0 ? vivace_probe_rate(s, slot) : s->base_rate;
}

static void on_result(void *state, const pcc_mi_outcome *outcome) {
    vivace_state *s = state;
    const pcc_mi_result *r = outcome->result;
    if (outcome->valid && s->awaiting_feedback && s->phase == STATE_PROBING && vivace_start_timeout_recovery(s)) return;
    if (r->app_limited) {
        /* An MI the sender could not fill (it ran out of data: the end of a video segment) holds few packets,
         * and its last ones wait for the receiver's delayed ACK: its utility measures the application and the
         * receiver, not the rate (§4.4.4, unreliable statistics). Slow start goes on; a probe round is re-run. */
        if (s->phase != STATE_SLOW_START && r->tag >= TAG_PROBE_FIRST) vivace_enter_probing(s, s->base_rate);
        if (s->phase == STATE_MOVING && r->tag == TAG_MOVING) vivace_enter_probing(s, s->moving_ref_rate_mbps / 8e-6);
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
        if (r->tag == TAG_SLOW_START) vivace_on_slow_start_result(s, r, outcome->utility, outcome->noise_var);
        return;
    case STATE_MOVING:
        if (r->tag == TAG_MOVING) vivace_on_moving_result(s, r, outcome->utility, outcome->noise_var);
        return;
    case STATE_PROBING:
    case STATE_DOUBLE_CHECK:
        if (r->tag >= TAG_PROBE_FIRST) vivace_on_probe_result(s, outcome);
        return;
    }
}

static void on_ack(void *state, const cc_ack_event *event) {
    vivace_state *s = state;
    vivace_undo_spurious_timeout(s, event);
    if (s->phase == STATE_SLOW_START && event->delivery_rate_bytes_per_s > s->delivery_max) {
        s->delivery_max = event->delivery_rate_bytes_per_s;
    }
}

static void rebound(void *state, int nothing_sent) {
    vivace_state *s = state;
    if (nothing_sent) {
        s->base_rate = vivace_clamp_rate(s, s->loop.ctx->initial_rate_bytes_per_s);
        s->slow_start_next_rate = s->base_rate;
    }
    s->base_rate = vivace_clamp_rate(s, s->base_rate);
    s->slow_start_next_rate = vivace_clamp_rate(s, s->slow_start_next_rate);
}

static void on_param_changed(void *state, size_t index) {
    vivace_state *s = state;
    if (index == P_EPSILON_MIN) {
        s->epsilon = vivace_epsilon_min(s); /* a new ε_min restarts the adaptation */
    } else if (index == P_EPSILON) {
        double lo = vivace_epsilon_min(s), hi = vivace_param(s, P_EPSILON);
        s->epsilon = s->epsilon < lo ? lo : s->epsilon > hi ? hi : s->epsilon;
    }
}

static const char *state_name(const void *state) { return phase_names[((const vivace_state *)state)->phase]; }

static const pcc_hooks vivace_hooks = {
    .next_mi = next_mi,
    .pending_rate = pending_rate,
    .mi_span_us = mi_span_us,
    .mi_timeout_rtts = mi_timeout_rtts,
    .timeout_from_expected_feedback = 1,
    .utility = vivace_mi_utility,
    .on_timeout = vivace_on_timeout,
    .on_result = on_result,
    .on_ack = on_ack,
    .rebound = rebound,
    .on_param_changed = on_param_changed,
    .state_name = state_name,
};

static void vivace_init(void *state, cc_context *ctx, int64_t now_us) {
    (void)now_us;
    vivace_state *s = state;
    pcc_loop_init(&s->loop, ctx, &vivace_hooks);
    s->phase = STATE_SLOW_START;
    s->base_rate = vivace_clamp_rate(s, ctx->initial_rate_bytes_per_s);
    s->epsilon = vivace_epsilon_min(s);
    s->slow_start_next_rate = s->base_rate;
}

/* The two variants differ only in their parameter defaults. */
#define VIVACE_OPS(ops_name, text, params_table)                                                             \
    {                                                                                                        \
        .name = ops_name, .description = text, .state_size = sizeof(vivace_state), .params = params_table,   \
        .param_count = P_COUNT, .delivery_rate_unused = 0 /* slow start reads it */, .init = vivace_init,   \
        PCC_LOOP_OPS,                                                                                        \
    }

const cc_ops cc_ops_vivace = VIVACE_OPS("vivace", "PCC Vivace, latency-aware utility (thesis ch. 4)", vivace_params);
const cc_ops cc_ops_vivace_loss =
    VIVACE_OPS("vivace-loss", "PCC Vivace with the loss-only utility, b = 0 (thesis §4.5)", vivace_loss_params);
