/*
 * The moving state (kernel paper, seed 003, "PCC State Machine"; parameter moving): after confident increases the
 * rate goes on stepping up, one step per MI result that confirms it, each step from the gradient between that MI
 * and the previous confirming one, with the amplifier m(τ) and boundary ω of §4.4.3 growing per step. The first
 * MI whose utility falls significantly sends the rate back to the confirmed rate before the last one (the last
 * may already sit slightly above capacity, under the latency filter), to probe there. A probe round plus its
 * feedback takes five to six MIs, a step two, which is what lets the rate follow a capacity that rose (Fig. 4.8).
 * Only increases move: a decrease already jumps to what the probes delivered, and moving down compares MIs whose
 * loss average decays over time, so each would look better than the last.
 */
#include "vivace_state.h"

#include <math.h>

#include "../portable_math.h"

/* Smallest step, fraction of the rate (the kernel paper's 2%), so consecutive MIs differ enough to compare. */
#define MOVING_MIN_STEP 0.02
/* The move ends on a utility drop beyond this many standard errors of the loss count's noise... */
#define MOVING_EXIT_CONFIDENCE 2.0
/* ...while the average loss rate is below this fraction of the loss the utility tolerates; beyond it loss is
 * congestion, not noise, and any drop ends the move (flows sharing a full buffer would climb blindly). */
#define MOVING_NOISE_LOSS_LIMIT 0.5
/* Confident increase decisions in a row before a move starts; a move that overshot counts as a decrease. */
#define MOVING_ENTRY_DECISIONS 2

/* Near the equilibrium a flow alternates between a step back (a decrease, or a move that overshot) and one
 * increase; those rounds must stay probe rounds. Their gradient is what shares the link: with the latency utility
 * a flow's own probe raises the RTT gradient in proportion to its rate (the x·dRTT/dt term of eq. 4.1, §4.3), so
 * larger flows measure the steeper decline. A move steps a fixed fraction of the rate instead, and all
 * latency-aware flows' moves end together on the shared RTT rise, so shares would barely change. */
int vivace_moving_entry_allowed(const vivace_state *s, int direction, int confident) {
    if (!vivace_flag(s, VIVACE_P_MOVING) || !confident || direction <= 0) return 0;
    return s->consecutive + 1 >= MOVING_ENTRY_DECISIONS;
}

void vivace_enter_moving(vivace_state *s, double rate, double reference_mbps, double reference_utility,
                         double reference_noise_var, double gradient) {
    s->phase = STATE_MOVING;
    s->drain_duration_us = 0;
    s->base_rate = vivace_clamp_to_ceiling(s, rate);
    s->moving_ref_rate_mbps = reference_mbps;
    s->moving_ref_utility = reference_utility;
    s->moving_ref_noise_var = reference_noise_var;
    s->moving_gradient = gradient;
    s->moving_prev_rate_mbps = reference_mbps;
    pcc_loop_new_epoch(&s->loop);
}

/* The next step, Mbit/s: the amplified, bounded gradient step, at least MOVING_MIN_STEP of the rate. */
static double moving_step_mbps(vivace_state *s, double gradient, double rate_mbps) {
    s->consecutive++;
    double step = vivace_bounded_step_mbps(s, gradient, rate_mbps);
    double floor_mbps = MOVING_MIN_STEP * rate_mbps;
    if (step < floor_mbps) step = floor_mbps;
    return step;
}

/* The loss rate at which the utility stops rewarding a higher rate: d/dx (x^t - c x L) = 0 at L = t x^(t-1) / c
 * (about 5% at 8-100 Mbit/s with Table 4.1's t and c, the thesis's "5% loss resistance"). */
static double tolerated_loss(const vivace_state *s, double rate_mbps) {
    double t = vivace_param(s, VIVACE_P_THROUGHPUT_EXPONENT), c = vivace_param(s, VIVACE_P_LOSS_COEFFICIENT);
    if (!(c > 0) || !(rate_mbps > 0)) return 1.0;
    return t * pcc_pow(rate_mbps, t - 1.0) / c;
}

/* A moving MI's result: compare its utility with the last MI that confirmed the direction. The rate steps only
 * on a result; MIs sent before the last step took effect (at the reference rate) are skipped. Under random loss
 * one MI's utility carries the binomial noise of its loss count, several times the difference a 2% step makes,
 * so only a significant drop ends the move; a smaller one steps on with the last confirmed gradient. */
void vivace_on_moving_result(vivace_state *s, const pcc_mi_result *r, double utility, double noise_var) {
    double rate_mbps = r->stats.target_rate_bps * 1e-6;
    double spread_mbps = rate_mbps - s->moving_ref_rate_mbps;
    double least_mbps = 0.5 * MOVING_MIN_STEP * s->moving_ref_rate_mbps;
    if (!(spread_mbps > 0 && spread_mbps >= least_mbps)) {
        double pending_mbps = vivace_to_mbps(s->base_rate) - s->moving_ref_rate_mbps;
        if (pending_mbps > 0 && pending_mbps >= least_mbps) return; /* sent before the step */
        vivace_enter_probing(s, s->base_rate); /* the rate cannot rise (send ceiling, bounds): nothing to learn */
        return;
    }
    double gradient = (utility - s->moving_ref_utility) / spread_mbps;
    double margin = MOVING_EXIT_CONFIDENCE * sqrt(noise_var + s->moving_ref_noise_var);
    if (!(s->loop.loss_average < MOVING_NOISE_LOSS_LIMIT * tolerated_loss(s, rate_mbps))) margin = 0.0;
    s->loop.gradient = gradient;
    if (isfinite(gradient) && utility > s->moving_ref_utility - margin) {
        if (gradient > 0) s->moving_gradient = gradient;
        s->moving_prev_rate_mbps = s->moving_ref_rate_mbps;
        s->moving_ref_rate_mbps = rate_mbps;
        s->moving_ref_utility = utility;
        s->moving_ref_noise_var = noise_var;
        s->base_rate = vivace_clamp_to_ceiling(s, (rate_mbps + moving_step_mbps(s, s->moving_gradient, rate_mbps)) / 8e-6);
        return;
    }
    /* The utility fell: the step overshot. One confirmed step back, a decrease (vivace_moving_entry_allowed), and
     * the amplifier starts over. */
    s->consecutive = 0;
    s->boundary_steps = 0;
    s->last_direction = -1;
    vivace_enter_probing(s, s->moving_prev_rate_mbps / 8e-6);
}
