/*
 * PCC Vivace's probing and step (thesis §4.4.3, §4.4.4): a round sends two probe pairs at r(1+ε) and r(1-ε),
 * each pair in random order (the randomized controlled trials of §3.2.3, as the published code), then MIs at r
 * until the results are in. γ = (u+ - u-)/(r+ - r-) (= (u1-u2)/(2εr)); both pairs must agree, γ is their mean.
 * A counter-intuitive round is re-run once ("double check"). The step is Δr = m(τ)·θ0·γ with the confidence
 * amplifier m(τ) over τ consecutive same-direction decisions, capped at ω·r by the dynamic change boundary
 * ω = ω0 + kδ (k grows while the cap binds, is recalibrated to the smallest sufficient k otherwise, reset when
 * the direction changes). Measurement noise is weighed at each step, as noted where it is.
 */
#include "vivace_state.h"

#include <math.h>

/* A decision whose gradient is within this many standard errors of 0 restarts the amplifier's run (m = 1,
 * ω = ω0): under random loss same-direction runs also happen by chance, and amplified noise swings the rate by
 * tens of percent. A clear gradient (freed capacity, congestion) keeps the thesis behaviour. */
#define AMPLIFIER_CONFIDENCE 0.5
/* The double check needs a loss difference beyond this many standard errors of a two-proportion test. */
#define DOUBLE_CHECK_CONFIDENCE 2.0
/* A round in which every probe lost more than this is an overload, not noise: 4 x the ~5% loss at which eq. 4.1
 * stops rewarding a higher rate (vivace_moving.c, tolerated_loss; the kernel paper's loss resistance), and about
 * 7 x the 3% random loss Vivace must hold its rate through (thesis Fig 4.3). Binomial noise of 3% loss reads 20%
 * in a 10-packet MI about 3% of the time, in all four probes of a round about once in a million rounds. */
#define OVERLOAD_LOSS 0.2

double vivace_probe_rate(const vivace_state *s, int slot) {
    double eps = s->epsilon;
    return vivace_clamp_rate(s, s->base_rate * (pcc_probe_slot_lower(slot) ? 1.0 - eps : 1.0 + eps));
}

/* Adaptive probing step, Allegro's rule (§3.2.3) applied to Vivace when epsilon_min < epsilon: ε grows by ε_min
 * after every inconclusive round up to ε, and returns to ε_min after a decision. With a fixed ε the base rate
 * settles where its upper probe r(1+ε) meets the capacity, about C/(1+ε). */
static void widen_epsilon(vivace_state *s) {
    double next = s->epsilon + vivace_epsilon_min(s), hi = vivace_param(s, VIVACE_P_EPSILON);
    s->epsilon = next < hi ? next : hi;
}

void vivace_reset_direction(vivace_state *s) {
    s->last_direction = 0;
    s->consecutive = 0;
    s->boundary_steps = 0;
}

static unsigned confidence_amplifier(unsigned tau) {
    /* Table 4.1: m(τ) = τ for τ <= 3, 2τ - 3 beyond; m(0) = 1 as §4.4.3 requires. */
    if (tau == 0) return 1;
    return tau <= 3 ? tau : 2 * tau - 3;
}

/* The largest of a per-probe figure over the round's probes (0 when none is positive). */
static double probes_max(const vivace_state *s, double (*figure)(const probe_result *p)) {
    double best = 0.0;
    for (int slot = 0; slot < PCC_PROBE_SLOTS; slot++) {
        double value = figure(&s->probes[slot]);
        if (value > best) best = value;
    }
    return best;
}

/* What a probe got through the path, Mbit/s: the fraction of what it sent that was acknowledged times its target rate
 * (a fraction, so an application-limited MI does not lower it), or times the rate it was actually sent at (the
 * path's delivery rate when the sender could not carry out the target). */
static double delivered_at_target(const probe_result *p) { return p->rate_mbps * p->delivered_fraction; }
static double delivered_at_send_rate(const probe_result *p) { return p->sent_mbps * p->delivered_fraction; }
static double offered(const probe_result *p) { return p->rate_mbps; }

/* The most any probe of the round got through the path, Mbit/s, each way, and the highest rate offered. */
static double probes_delivered_at_target_mbps(const vivace_state *s) { return probes_max(s, delivered_at_target); }
static double probes_delivered_at_send_rate_mbps(const vivace_state *s) { return probes_max(s, delivered_at_send_rate); }
static double probes_offered_mbps(const vivace_state *s) { return probes_max(s, offered); }

double vivace_bounded_step_mbps(vivace_state *s, double gradient, double rate_mbps) {
    double change_mbps = (double)confidence_amplifier(s->consecutive) * vivace_param(s, VIVACE_P_THETA0) * gradient;
    double omega0 = vivace_param(s, VIVACE_P_OMEGA0), delta = vivace_param(s, VIVACE_P_OMEGA_DELTA);
    double boundary = omega0 + (double)s->boundary_steps * delta;
    double relative = fabs(change_mbps) / rate_mbps;
    if (relative > boundary) {
        change_mbps = (gradient > 0 ? 1.0 : -1.0) * boundary * rate_mbps;
        s->boundary_steps++;
    } else if (delta > 0) {
        double k = ceil((relative - omega0) / delta);
        s->boundary_steps = k > 0 ? (unsigned)k : 0;
    }
    return change_mbps;
}

double vivace_probes_mean_utility(const vivace_state *s, double *noise_var) {
    double sum = 0.0, var = 0.0;
    for (int slot = 0; slot < PCC_PROBE_SLOTS; slot++) {
        sum += s->probes[slot].utility;
        var += s->probes[slot].utility_noise_var;
    }
    double n = (double)PCC_PROBE_SLOTS;
    *noise_var = var / (n * n);
    return sum / n;
}

/* Moves the base rate by the gradient (§4.4.3) and starts probing around the new rate (or moving). A decrease
 * goes at least down to (1+ε) x what the probes got through, even past ω: ω guards against noisy increases, but
 * after a capacity drop a rate far above the delivered one only loses packets while ω grows round by round.
 * Random loss leaves the delivered rate at r(1 - L)(1 + ε) ≥ r, so it changes nothing there. The bound marks a
 * fade only when the link delivered clearly less than before (vivace_round_delivery_fell): a probe that
 * overshot into the flow's own queue also reads a delivered fraction below 1.
 * gradient_var: variance of the estimate from measurement noise (0 when unknown). */
static void apply_gradient(vivace_state *s, double gradient, double gradient_var, int delivery_fell) {
    s->loop.gradient = gradient;
    double rate_mbps = vivace_to_mbps(s->base_rate);
    if (gradient == 0.0 || !(rate_mbps > 0) || !isfinite(gradient)) {
        widen_epsilon(s);
        vivace_enter_probing(s, s->base_rate);
        return;
    }
    int direction = gradient > 0 ? 1 : -1;
    int reversed = s->last_direction == -direction;
    int confident = gradient_var <= 0 || fabs(gradient) > AMPLIFIER_CONFIDENCE * sqrt(gradient_var);
    if (direction == s->last_direction && confident) {
        s->consecutive++;
    } else {
        s->consecutive = 0;
        s->boundary_steps = 0;
    }
    s->last_direction = direction;
    if (vivace_start_fade_recovery(s, direction)) return;
    double next_mbps = rate_mbps + vivace_bounded_step_mbps(s, gradient, rate_mbps);
    if (direction < 0) {
        double delivered_mbps = probes_delivered_at_target_mbps(s) * (1.0 + s->epsilon);
        if (delivered_mbps > 0 && delivered_mbps < next_mbps) {
            next_mbps = delivered_mbps;
            if (delivery_fell) vivace_note_fade(s, s->base_rate);
        }
    }
    /* epsilon_min_on_reversal: a narrow step measures a noisier gradient (γ = Δu / 2εr), which slows a climb; at
     * the equilibrium, where decisions alternate, it moves the base rate from C/(1+ε) towards C. */
    s->epsilon = vivace_flag(s, VIVACE_P_EPSILON_MIN_ON_REVERSAL) && !reversed ? vivace_param(s, VIVACE_P_EPSILON) : vivace_epsilon_min(s);
    if (vivace_moving_entry_allowed(s, direction, confident)) {
        double reference_var;
        double reference_utility = vivace_probes_mean_utility(s, &reference_var);
        vivace_enter_moving(s, next_mbps / 8e-6, rate_mbps, reference_utility, reference_var, gradient);
    } else {
        vivace_enter_probing(s, next_mbps / 8e-6);
    }
}

/* A pair tested a higher rate against a lower one unless the sender sent its higher probe slower than the lower one
 * and slower than (1 - ε) x the lower one's rate (ε of slack for the send-rate noise of short MIs: one packet is 10%
 * of a 10-packet MI). A sender descheduled with data waiting (a loaded host) sends a probe at a fraction of its
 * rate, and eq. 4.1 scores what was sent: an upper probe cut to half its rate carries half the latency penalty of a
 * lower one sent in full into the same queue, and "wins" (§4.4.4: unreliable statistics decide nothing). */
static int pair_carried_out(const vivace_state *s, const probe_result pair[2]) {
    double hi_sent = pair[0].sent_mbps, lo_sent = pair[1].sent_mbps;
    return !(hi_sent < lo_sent && hi_sent < (1.0 - vivace_param(s, VIVACE_P_EPSILON)) * pair[1].rate_mbps);
}

/* γ of one pair (slots 2·pair: higher, 2·pair + 1: lower) and its noise variance. */
static double pair_gradient(const probe_result pair[2], double *variance) {
    double spread = pair[0].rate_mbps - pair[1].rate_mbps;
    *variance = 0.0;
    if (!(spread > 0)) return 0.0;
    double gradient = (pair[0].utility - pair[1].utility) / spread;
    double var = (pair[0].utility_noise_var + pair[1].utility_noise_var) / (spread * spread);
    *variance = isfinite(var) ? var : 0.0;
    return isfinite(gradient) ? gradient : 0.0;
}

/* "Counter-intuitive" (§4.4.4): the higher rate wins although it lost fewer packets than the lower.
 * Random loss makes the higher rate lose less in about half of all pairs; re-running all of those
 * would delay only increases and drag the rate down. So the difference must be significant. */
static int is_abnormal(const vivace_state *s, double gradient) {
    double up_lost = 0, up_sent = 0, down_lost = 0, down_sent = 0;
    for (int pair = 0; pair < PCC_PROBE_PAIRS; pair++) {
        const probe_result *up = &s->probes[2 * pair], *down = &s->probes[2 * pair + 1];
        up_lost += up->loss_rate * up->packets;
        up_sent += up->packets;
        down_lost += down->loss_rate * down->packets;
        down_sent += down->packets;
    }
    if (!(gradient > 0) || up_sent <= 0 || down_sent <= 0) return 0;
    double pooled = (up_lost + down_lost) / (up_sent + down_sent);
    double se = sqrt(pooled * (1 - pooled) * (1 / up_sent + 1 / down_sent));
    return down_lost / down_sent - up_lost / up_sent > DOUBLE_CHECK_CONFIDENCE * se;
}

/* A round that cannot decide (a pair voided, or the pairs disagree) while every probe, and the flow's recent loss
 * average (a sustained overload, not one round's drop-tail burst), lost more than OVERLOAD_LOSS:
 * eq. 4.1 scores every rate above the delivery rate worse there (§4.2, the loss term), so no pair can be noise, yet
 * repeating the round at the same base leaves a full buffer and tens of percent of loss for seconds. The base steps
 * down to (1 - ε) x what the path delivered: the next round's upper probe, r(1 + ε), sends no more than that, and
 * the queue the loss points to drains. 1: stepped. */
static int step_down_from_overload(vivace_state *s) {
    if (!(s->loop.loss_average > OVERLOAD_LOSS)) return 0;
    for (int slot = 0; slot < PCC_PROBE_SLOTS; slot++) {
        if (!(s->probes[slot].loss_rate > OVERLOAD_LOSS)) return 0;
    }
    double next_mbps = probes_delivered_at_send_rate_mbps(s) * (1.0 - s->epsilon);
    if (!(next_mbps > 0) || !(next_mbps < vivace_to_mbps(s->base_rate))) return 0;
    s->loop.gradient = 0.0;
    vivace_reset_direction(s);
    s->epsilon = vivace_epsilon_min(s);
    vivace_enter_probing(s, next_mbps / 8e-6);
    return 1;
}

static int same_sign(double a, double b) { return (a > 0) == (b > 0) && (a < 0) == (b < 0); }

static void on_probes_complete(vivace_state *s) {
    int delivery_fell = vivace_round_delivery_fell(s, probes_delivered_at_target_mbps(s), probes_offered_mbps(s));
    for (int pair = 0; pair < PCC_PROBE_PAIRS && vivace_flag(s, VIVACE_P_PROBE_PAIR_CHECK); pair++) {
        if (!pair_carried_out(s, &s->probes[2 * pair])) {
            if (step_down_from_overload(s)) return;
            s->loop.gradient = 0.0;
            vivace_enter_probing(s, s->base_rate); /* measure again; the same ε: the step was not too small */
            return;
        }
    }
    double variance;
    double gradient = pair_gradient(&s->probes[0], &variance);
    for (int pair = 1; pair < PCC_PROBE_PAIRS; pair++) {
        double other_variance;
        double other = pair_gradient(&s->probes[2 * pair], &other_variance);
        if (!same_sign(gradient, other)) {
            if (step_down_from_overload(s)) return;
            s->loop.gradient = 0.0;
            widen_epsilon(s);
            vivace_enter_probing(s, s->base_rate); /* inconclusive: stay, measure again */
            return;
        }
        gradient += other;
        variance += other_variance;
    }
    gradient /= (double)PCC_PROBE_PAIRS;
    variance /= (double)PCC_PROBE_PAIRS * (double)PCC_PROBE_PAIRS;
    if (s->phase == STATE_PROBING && vivace_flag(s, VIVACE_P_DOUBLE_CHECK) && is_abnormal(s, gradient)) {
        s->phase = STATE_DOUBLE_CHECK;
        s->first_gradient = gradient;
        s->first_gradient_var = variance;
        s->loop.gradient = gradient;
        pcc_probe_round_start(&s->round, s->loop.ctx);
        pcc_loop_new_epoch(&s->loop);
        return;
    }
    if (s->phase == STATE_DOUBLE_CHECK) {
        /* Consistent: the average, as §4.4.4 says. Inconsistent: the re-run alone. The first result was
         * flagged for a significant counter-intuitive loss difference, which is what a change of the network
         * between the two probes produces; the re-run is a fresh sample, so using it alone adds no bias. */
        if (same_sign(gradient, s->first_gradient)) {
            gradient = (gradient + s->first_gradient) / 2.0;
            variance = (variance + s->first_gradient_var) / 4.0;
        }
    }
    apply_gradient(s, gradient, variance, delivery_fell);
}

void vivace_on_probe_result(vivace_state *s, const pcc_mi_outcome *outcome) {
    const pcc_mi_result *r = outcome->result;
    int slot = r->tag - VIVACE_TAG_PROBE_FIRST;
    if (slot < 0 || slot >= PCC_PROBE_SLOTS) return;
    probe_result *p = &s->probes[slot];
    p->rate_mbps = r->stats.target_rate_bps * 1e-6;
    p->sent_mbps = r->stats.send_rate_bps * 1e-6;
    p->utility = outcome->utility;
    p->loss_rate = r->stats.loss_rate;
    p->packets = r->stats.packets_sent;
    p->utility_noise_var = outcome->noise_var;
    p->delivered_fraction = r->stats.send_rate_bps > 0 ? r->stats.throughput_bps / r->stats.send_rate_bps : 0.0;
    if (!(p->delivered_fraction <= 1.0)) p->delivered_fraction = p->delivered_fraction > 1.0 ? 1.0 : 0.0;
    p->congested = vivace_probe_congested(s, r);
    if (pcc_probe_round_record(&s->round, slot)) on_probes_complete(s);
}
