/*
 * PCC Allegro (thesis chapters 2-3): rate control by randomized controlled trials on a utility.
 *
 *  - starting (§3.2.3 "Starting State"): the rate doubles every monitor interval (MI) without waiting
 *    for results; at the first MI whose utility is below the previous one's, the rate returns to that
 *    previous (better) MI's rate and decision making begins.
 *  - decision making (§3.2.3): four MIs, two pairs at r(1+ε) and r(1-ε), each pair in random order,
 *    then back to r while the results come in. If the higher rate wins both pairs the rate becomes
 *    r(1+ε), if the lower wins both r(1-ε); otherwise the rate stays and ε grows by ε_min, up to ε_max.
 *  - rate adjusting (eq. 3.1): r_n = r_{n-1}(1 + n·ε_min·dir) each MI, until an MI's utility falls
 *    below the previous one's; then the rate returns to that previous rate and decision making resumes.
 * MI length (§3.2.2): uniform random in [1.7, 2.2] sRTT, with the PCC loop's floors (pcc_loop.h, which also
 * owns the MI sequence, epochs and the probe order). An MI whose packets' fate is still unknown long after it
 * ended counts those packets as lost (the loop's default without an on_timeout hook): to Allegro, silence is
 * the worst loss.
 */
#include "allegro.h"

#include <math.h>

#include "../pcc_rate_limits.h"
#include "../portable_math.h"

static const cc_param_desc allegro_params[ALLEGRO_P_COUNT] = {ALLEGRO_PARAM_ROWS};

static const char *const phase_names[] = {"starting", "decision", "rate_adjusting"};


static double param(const allegro_state *s, int index) { return s->loop.ctx->params[index]; }

static double clamp_rate(const allegro_state *s, double rate) { return pcc_clamp_rate(s->loop.ctx, rate); }

/* No growth beyond what the sender manages to send (application- or CPU-limited; RFC 7661's point). */
static double clamp_to_ceiling(const allegro_state *s, double rate) {
    return pcc_clamp_to_send_ceiling(s->loop.ctx, &s->loop.tracker, rate);
}

double allegro_utility(const cc_mi_stats *mi, double sigmoid_alpha, double loss_cutoff) {
    double x = mi->send_rate_bps * 1e-6;
    if (!(x > 0)) return 0.0;
    double loss = mi->loss_rate;
    if (!(loss >= 0)) loss = 0;
    if (loss > 1) loss = 1;
    double throughput = x * (1.0 - loss);
    double exponent = sigmoid_alpha * (loss - loss_cutoff);
    /* 1/(1+e^z) without overflow: for large z it is e^-z/(1+e^-z). */
    /* pcc_exp: bit-identical natively and in WASM (portable_math.h) */
    double sigmoid = exponent > 0 ? pcc_exp(-exponent) / (1.0 + pcc_exp(-exponent)) : 1.0 / (1.0 + pcc_exp(exponent));
    return throughput * sigmoid - x * loss;
}

static double epsilon_min(const allegro_state *s) { return param(s, ALLEGRO_P_EPSILON_MIN); }

static double epsilon_max(const allegro_state *s) {
    double max = param(s, ALLEGRO_P_EPSILON_MAX);
    return max > epsilon_min(s) ? max : epsilon_min(s);
}

static void enter_decision(allegro_state *s, double rate, double epsilon) {
    s->phase = PHASE_DECISION;
    s->base_rate = clamp_to_ceiling(s, rate);
    s->epsilon = epsilon;
    pcc_probe_round_start(&s->trials, s->loop.ctx);
    pcc_loop_new_epoch(&s->loop);
}

static void enter_adjusting(allegro_state *s, double rate, int direction) {
    s->phase = PHASE_ADJUSTING;
    s->base_rate = clamp_to_ceiling(s, rate);
    s->direction = direction;
    s->adjust_step = 0;
    s->have_previous = 0;
    s->next_rate = s->base_rate;
    pcc_loop_new_epoch(&s->loop);
}

/* §3.2.2: drawn once per MI, so competing senders' MIs do not stay aligned */
double allegro_mi_span_us(void *state) {
    allegro_state *s = state;
    cc_context *ctx = s->loop.ctx;
    double lo = param(s, ALLEGRO_P_MI_RTTS_MIN), hi = param(s, ALLEGRO_P_MI_RTTS_MAX);
    if (hi < lo) hi = lo;
    return (lo + (hi - lo) * ctx->random_unit(ctx)) * (double)ctx->rtt->smoothed_rtt_us;
}

double allegro_mi_timeout_rtts(const void *state) { return param(state, ALLEGRO_P_MI_TIMEOUT_RTTS); }

static double trial_rate(const allegro_state *s, int slot) {
    return clamp_rate(s, s->base_rate * (pcc_probe_slot_lower(slot) ? 1.0 - s->epsilon : 1.0 + s->epsilon));
}

void allegro_next_mi(void *state, pcc_next_mi *next) {
    allegro_state *s = state;
    switch (s->phase) {
    case PHASE_STARTING:
        next->rate_bytes_per_s = clamp_to_ceiling(s, s->next_rate);
        next->tag = ALLEGRO_TAG_STARTING;
        s->next_rate = clamp_rate(s, next->rate_bytes_per_s * 2.0);
        return;
    case PHASE_ADJUSTING:
        /* eq. 3.1: r_n = r_{n-1}(1 + n·ε_min·dir) */
        s->adjust_step++;
        s->next_rate = clamp_to_ceiling(s, s->next_rate * (1.0 + s->adjust_step * epsilon_min(s) * s->direction));
        next->rate_bytes_per_s = s->next_rate;
        next->tag = ALLEGRO_TAG_ADJUSTING;
        return;
    case PHASE_DECISION: {
        int slot = pcc_probe_round_take(&s->trials);
        next->rate_bytes_per_s = slot >= 0 ? trial_rate(s, slot) : s->base_rate;
        next->tag = slot >= 0 ? ALLEGRO_TAG_TRIAL_FIRST + slot : ALLEGRO_TAG_HOLD;
        return;
    }
    }
}

double allegro_pending_rate(const void *state) {
    const allegro_state *s = state;
    switch (s->phase) {
    case PHASE_STARTING:
        return s->next_rate;
    case PHASE_ADJUSTING:
        return clamp_rate(s, s->next_rate * (1.0 + (s->adjust_step + 1) * epsilon_min(s) * s->direction));
    case PHASE_DECISION: {
        int slot = pcc_probe_round_peek(&s->trials);
        return slot >= 0 ? trial_rate(s, slot) : s->base_rate;
    }
    }
    return s->base_rate;
}

/* Starting and rate adjusting share one rule: continue while utility rises, and at the first fall
 * go back to the previous (better) rate and make a decision there. */
static void on_climb_result(allegro_state *s, const pcc_mi_result *r, double utility) {
    double rate = r->stats.target_rate_bps / 8.0;
    if (s->have_previous && utility < s->previous_utility) {
        enter_decision(s, s->previous_rate, epsilon_min(s));
        return;
    }
    s->have_previous = 1;
    s->previous_rate = rate;
    s->previous_utility = utility;
}

static void on_trials_complete(allegro_state *s) {
    int higher_wins = 0, lower_wins = 0;
    for (int pair = 0; pair < PCC_PROBE_PAIRS; pair++) {
        if (s->trial_utility[2 * pair] > s->trial_utility[2 * pair + 1]) higher_wins++;
        else if (s->trial_utility[2 * pair] < s->trial_utility[2 * pair + 1]) lower_wins++;
    }
    if (higher_wins == PCC_PROBE_PAIRS) {
        enter_adjusting(s, s->base_rate * (1.0 + s->epsilon), +1);
    } else if (lower_wins == PCC_PROBE_PAIRS) {
        enter_adjusting(s, s->base_rate * (1.0 - s->epsilon), -1);
    } else {
        /* inconclusive: stay at r with a coarser experiment, ε += ε_min up to ε_max */
        double epsilon = s->epsilon + epsilon_min(s);
        enter_decision(s, s->base_rate, epsilon < epsilon_max(s) ? epsilon : epsilon_max(s));
    }
}

double allegro_mi_utility(void *state, const pcc_mi_result *r, double *noise_var) {
    (void)noise_var;
    return allegro_utility(&r->stats, param(state, ALLEGRO_P_SIGMOID_ALPHA), param(state, ALLEGRO_P_LOSS_CUTOFF));
}

void allegro_on_result(void *state, const pcc_mi_outcome *outcome) {
    allegro_state *s = state;
    const pcc_mi_result *r = outcome->result;
    if (!outcome->valid) {
        /* not comparable: decide afresh at the current rate */
        enter_decision(s, s->phase == PHASE_DECISION ? s->base_rate : r->stats.target_rate_bps / 8.0, epsilon_min(s));
        return;
    }
    switch (s->phase) {
    case PHASE_STARTING:
        if (r->tag == ALLEGRO_TAG_STARTING) on_climb_result(s, r, outcome->utility);
        if (s->phase == PHASE_STARTING && r->stats.target_rate_bps / 8.0 >= s->loop.ctx->max_rate_bytes_per_s) {
            enter_decision(s, s->loop.ctx->max_rate_bytes_per_s, epsilon_min(s)); /* nothing left to double */
        }
        return;
    case PHASE_ADJUSTING:
        if (r->tag == ALLEGRO_TAG_ADJUSTING) on_climb_result(s, r, outcome->utility);
        return;
    case PHASE_DECISION: {
        int slot = r->tag - ALLEGRO_TAG_TRIAL_FIRST;
        if (slot < 0 || slot >= PCC_PROBE_SLOTS) return;
        s->trial_utility[slot] = outcome->utility;
        if (pcc_probe_round_record(&s->trials, slot)) on_trials_complete(s);
        return;
    }
    }
}

void allegro_rebound(void *state, int nothing_sent) {
    allegro_state *s = state;
    pcc_loop_rebound_rates(&s->loop, nothing_sent, &s->base_rate, &s->next_rate);
}

/* An MI the sender could not fill (pcc_loop.c, validated_rate.h): starting doubles on from the ceiling at most;
 * otherwise a rate above it is not kept but decided again there. */
void allegro_limit_rate(void *state, double ceiling_rate, double start_ceiling_rate) {
    allegro_state *s = state;
    if (s->phase == PHASE_STARTING) {
        if (s->next_rate > start_ceiling_rate) {
            s->next_rate = start_ceiling_rate;
            pcc_loop_new_epoch(&s->loop);
        }
        return;
    }
    double held = s->phase == PHASE_ADJUSTING && s->next_rate > s->base_rate ? s->next_rate : s->base_rate;
    if (held > ceiling_rate) enter_decision(s, s->base_rate < ceiling_rate ? s->base_rate : ceiling_rate, epsilon_min(s));
}

const char *allegro_state_name(const void *state) { return phase_names[((const allegro_state *)state)->phase]; }

static const pcc_hooks allegro_hooks = ALLEGRO_HOOKS(allegro_mi_utility);

void allegro_init_with_hooks(allegro_state *s, cc_context *ctx, const pcc_hooks *hooks) {
    pcc_loop_init(&s->loop, ctx, hooks);
    s->phase = PHASE_STARTING;
    s->base_rate = clamp_rate(s, ctx->initial_rate_bytes_per_s);
    s->next_rate = s->base_rate;
    s->epsilon = param(s, ALLEGRO_P_EPSILON_MIN);
}

static void allegro_init(void *state, cc_context *ctx, int64_t now_us) {
    (void)now_us;
    allegro_init_with_hooks(state, ctx, &allegro_hooks);
}

const cc_ops cc_ops_allegro = ALLEGRO_OPS("allegro", "PCC Allegro: randomized controlled trials on a loss-sigmoid utility (thesis ch. 2-3)",
                                           allegro_params, ALLEGRO_P_COUNT, allegro_init);
