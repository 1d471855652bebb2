/*
 * PCC Vivace's slow start (thesis §4.4): the rate doubles every MI while the utility of each finished MI rises;
 * at the first significant drop it falls back and probing begins. Ours adds, each for a reason given where it
 * is applied: the doubling stays below a multiple of the acknowledged delivery rate
 * (slow_start_delivery_gain), a drop that only a measurement error explains (a sender stall, RTT jitter) decides
 * nothing, the exit may use what the exiting MI delivered, and one MI drains the queue slow start left
 * (slow_start_drain). MI-timeout recovery re-enters slow start up to the rate before the halvings, fade
 * recovery up to the rate before the fade.
 */
#include "vivace_state.h"

#include <math.h>

/* Slow start ends on a utility drop beyond this many standard errors of the measurement noise: early MIs are
 * short, so one random loss looks like a large drop, while congestion (heavy loss, RTT doubling) clears it. */
#define SLOW_START_EXIT_CONFIDENCE 2.0
/* In slow start, a significant RTT gradient below this in an MI that delivered what it sent is jitter, not a queue:
 * forward-path delay wanders within an MI at a steady RTT by a few percent of it (the kernel-module paper's low-pass
 * filter for its noisier RTT samples is 3%), while an overshoot of 10% or more grows the queue at g >= 0.1 (eq. 4.4)
 * and passes. */
#define SLOW_START_JITTER_GRADIENT 0.1
/* A drain lasts at most this many sRTTs: a stale min RTT (the path's delay grew) must not stall the flow. */
#define DRAIN_MAX_SRTTS 4.0

/* Slow start doubles per MI without waiting for feedback (§3.2.3, §4.4), so by the time the utility of the
 * first MI above capacity C is known, MIs at 2C and 4C (or more: the first MIs are short) are out and the queue
 * holds several BDPs. The delivery rate of the acknowledgements stops growing at C: capping the rate at
 * gain x the highest delivery rate seen bounds the overshoot to (gain - 1) C, at the price of the acks' lag. */
double vivace_slow_start_rate(const vivace_state *s, double rate) {
    double gain = vivace_param(s, VIVACE_P_SLOW_START_DELIVERY_GAIN);
    if (!(gain > 0) || !(s->delivery_max > 0) || !(s->slow_start_last_rate > 0)) return rate;
    double cap = gain * s->delivery_max;
    /* The doubling pauses, the rate never falls: the first acks' samples are small (one packet over one RTT). */
    if (cap < s->slow_start_last_rate) cap = s->slow_start_last_rate;
    return rate < cap ? rate : cap;
}

void vivace_slow_start_next(vivace_state *s, pcc_next_mi *next) {
    if (s->recovery_target > 0 && s->slow_start_next_rate > s->recovery_target) {
        s->slow_start_next_rate = s->recovery_target;
    }
    next->rate_bytes_per_s = vivace_clamp_to_ceiling(s, vivace_slow_start_rate(s, s->slow_start_next_rate));
    next->tag = VIVACE_TAG_SLOW_START;
    s->slow_start_last_rate = next->rate_bytes_per_s;
    s->slow_start_next_rate = vivace_clamp_rate(s, next->rate_bytes_per_s * 2.0);
}

/* Whether the path got through what an MI sent, within ε: a queue growing at g delivers x / (1 + g). */
static int delivered_its_sends(const vivace_state *s, const pcc_mi_result *r) {
    return r->stats.throughput_bps >= (1.0 - vivace_param(s, VIVACE_P_EPSILON)) * r->stats.send_rate_bps;
}

/* Whether the sender fell more than ε short of an MI's rate (descheduled with data waiting, or the origin cannot
 * carry the rate out): the MI tested no rate at its target. */
static int sender_fell_short(const vivace_state *s, const pcc_mi_result *r) {
    return r->stats.send_rate_bps < (1.0 - vivace_param(s, VIVACE_P_EPSILON)) * r->stats.target_rate_bps;
}

/* The rate an MI showed the path carries, bytes/s, for the best-MI bookkeeping of §4.4's exit: its target, unless the
 * sender fell short of it in the first slow start; then what it delivered (no more than the target): such an MI
 * tested no rate at its target, and its utility's x is the rate it sent. Counted at its target, such an MI (its
 * gradient within noise) can beat a clean MI at a lower rate and become the best, and the exit then falls back to a
 * rate far above what the path carried, leaving the buffer full. A recovery's doubling stops at a rate the path
 * carried lately (recovery_target), so its best MI's target stands no higher than that; there a target the sender
 * missed by a few percent stays the best rate (counted at its delivery, the exit would fall back below a rate the
 * path just carried). */
static double proved_rate(const vivace_state *s, const pcc_mi_result *r) {
    double target = r->stats.target_rate_bps / 8.0;
    if (s->recovery_target > 0 || !sender_fell_short(s, r)) return target;
    double delivered = r->stats.throughput_bps / 8.0;
    return isfinite(delivered) && delivered > 0 && delivered < target ? delivered : target;
}

/* Whether an MI sent its rate (within ε), lost nothing and delivered what it sent with at most a jitter-level RTT
 * gradient: its rate was at most ~ε above the path's capacity. */
static int clean_at_its_rate(const vivace_state *s, const pcc_mi_result *r) {
    return r->stats.packets_lost == 0 && r->stats.rtt_gradient < SLOW_START_JITTER_GRADIENT && !sender_fell_short(s, r) &&
           delivered_its_sends(s, r);
}

/* The rate the MI that ended slow start got through, bytes/s, when that is a safe place to continue, else 0.
 * Falling back to the best MI's rate (§4.4) means half of the overshooting rate, and from there the gradient
 * climbs for seconds under random loss (Fig. 4.3). An MI that lost packets qualifies (its queue hit the buffer's
 * end, so it is short), and so does a recovery's MI that delivered what it sent: measurement_error_only does not
 * forgive its small gradient (it may be the first sign of the queue), but either way the path carries what it
 * delivered, while the best rate lies a doubling or more below it, or further when MIs set aside by an app-limited
 * one (vivace_limit_rate's new epoch) never became the best; from there probing at a few Mbit/s, where RTT noise
 * (kernel-module paper) outweighs the utility's ε differences, climbs for seconds. Scaled by (1 - ε) and by
 * minRTT/avgRTT to drain what queue it built. In a first slow start without loss the buffer is deep and still
 * filling: the best rate (or the delivery pipe) drains it. */
/* What an MI delivered, less ε and scaled by minRTT/avgRTT, bytes/s (not finite when it measured nothing). */
static double drained_delivery(const vivace_state *s, const pcc_mi_result *r) {
    double delivered = r->stats.throughput_bps / 8.0 * (1.0 - vivace_param(s, VIVACE_P_EPSILON));
    if (r->stats.min_rtt_us > 0 && r->stats.avg_rtt_us > r->stats.min_rtt_us) {
        delivered *= r->stats.min_rtt_us / r->stats.avg_rtt_us;
    }
    return delivered;
}

static double exit_delivered(const vivace_state *s, const pcc_mi_result *r) {
    int recovery_clean = s->recovery_target > 0 && clean_at_its_rate(s, r);
    if (r->stats.packets_lost == 0 && !recovery_clean) return 0.0;
    double delivered = drained_delivery(s, r);
    return isfinite(delivered) ? vivace_clamp_to_ceiling(s, delivered) : 0.0;
}

/* The rate probing starts from when a recovery's doubling reached its target and goes no further. A target
 * regain_without_queue raised (vivace_recovery.c) is a doubling past any rate the path carried: an MI at it that met a
 * queue delivered the capacity (eq. 4.4), so probing starts from that delivery, as slow start's exit does (§4.4). */
static double recovered_rate(const vivace_state *s, const pcc_mi_result *r, double rate) {
    if (!(s->regain_floor > 0)) return rate;
    double delivered = drained_delivery(s, r);
    if (delivered < s->regain_floor) delivered = s->regain_floor; /* see exit_slow_start */
    return isfinite(delivered) && delivered > 0 && delivered < rate ? delivered : rate;
}

/* The bottleneck rate slow start's acks measured, less ε, bytes/s (0 when the gain is off or nothing measured). */
static double delivery_pipe(const vivace_state *s) {
    if (!(vivace_param(s, VIVACE_P_SLOW_START_DELIVERY_GAIN) > 0) || !(s->delivery_max > 0)) return 0.0;
    return s->delivery_max * (1.0 - vivace_param(s, VIVACE_P_EPSILON)); /* vivace_enter_probing applies the bounds */
}

/* slow_start_drain: the exit rate is below the capacity C, but at that rate the queue slow start built drains at
 * C - r, which takes seconds for a rate near C; while it stands, every MI sent into it risks the MI timeout, whose
 * halvings then leave the link idle. One MI at r/2 removes the bytes in flight beyond C x min RTT first, in about
 * (queue) / (C - r/2), as BBR's drain state does after its startup. */
void vivace_schedule_drain(vivace_state *s, double capacity) {
    s->drain_duration_us = 0;
    const cc_context *ctx = s->loop.ctx;
    double min_rtt_us = (double)ctx->rtt->min_rtt_us;
    if (!vivace_flag(s, VIVACE_P_SLOW_START_DRAIN) || !(min_rtt_us > 0)) return;
    double queue_bytes = (double)*ctx->bytes_in_flight - capacity * min_rtt_us * 1e-6;
    if (!(queue_bytes > 0) || !(capacity > 0)) return;
    s->drain_rate = s->base_rate / 2.0;
    double duration_us = queue_bytes / (capacity - s->drain_rate) * 1e6;
    double cap_us = DRAIN_MAX_SRTTS * (double)ctx->rtt->smoothed_rtt_us;
    if (duration_us > cap_us) duration_us = cap_us;
    if (isfinite(duration_us) && duration_us >= 1.0) s->drain_duration_us = (int64_t)duration_us;
}

/* Back to the starting phase's doubling from the base rate (MI-timeout recovery, vivace_timeout.c; recovery after a
 * fade, vivace_recovery.c), up to target_rate (0: until the utility falls, as the first slow start). A recovery's
 * utility drop falls back to the best rate, not to the delivery rate its few MIs measured. */
void vivace_reenter_slow_start(vivace_state *s, double target_rate) {
    s->recovery_target = target_rate;
    s->delivery_max = 0.0; /* capacity may have changed since: measure again */
    s->slow_start_last_rate = 0.0;
    s->slow_start_cleared_rate = 0.0;
    s->slow_start_queue_mis = 0;
    s->slow_start_full_pipe = (cc_full_pipe){0};
    s->slow_start_delivered = 0.0;
    s->regain_floor = 0.0;
    s->regain_clean_mis = 0;
    s->phase = STATE_SLOW_START;
    s->slow_start_have_best = 0;
    s->slow_start_next_rate = s->base_rate;
    pcc_loop_new_epoch(&s->loop);
}

/* Whether a recovery's slow-start MI ran within a doubling of the rate the path carried before the fade (a pending
 * fade's, else the recovery's target): there a small RTT gradient may be the first sign of the queue. Further down,
 * after a blackout, MIs of a dozen packets at a few Mbit/s read small gradients from RTT noise alone (the
 * kernel-module paper's low-pass filter is for such noise), and ending the doubling there would leave the rate far
 * below the link; forgiven, the next doubling still stays below the rate the path carried. The first slow start has
 * no such rate (never near). */
static int near_carried_rate(const vivace_state *s, const pcc_mi_result *r) {
    if (!(s->recovery_target > 0)) return 0;
    double carried = s->fade_pending && s->rate_before_fade > s->recovery_target ? s->rate_before_fade : s->recovery_target;
    return 2.0 * r->stats.target_rate_bps / 8.0 > carried;
}

/* Whether a recovery's MI ran at a rate that an MI of this recovery already passed: one at the target read clean and
 * raised the target above it (vivace_extend_recovery), while this one, opened before that result came back (the
 * doubling stops at the target), sent the same rate again. §4.4's exit compares the utility of a higher rate with the
 * best one's; this MI tested no higher rate, and two MIs at one rate that disagree show noise, not that the rate is
 * too high; ending the recovery on it would stop below a rate the path just carried. The next MI, at the raised
 * rate, tests that rate: a queue shows there, and its exit falls back. */
static int repeats_cleared_rate(const vivace_state *s, const pcc_mi_result *r) {
    return s->slow_start_cleared_rate > 0 && r->stats.target_rate_bps / 8.0 <= s->slow_start_cleared_rate;
}

/* Whether an MI delivered what a queue growing at its RTT gradient explains, within ε: x / (1 + g) (eq. 4.4). Less
 * says the path carried less than was sent beyond the queue's growth: its capacity fell (an LTE fade). */
static int delivered_what_gradient_explains(const vivace_state *s, const pcc_mi_result *r) {
    double gradient = r->stats.rtt_gradient > 0 ? r->stats.rtt_gradient : 0.0;
    return r->stats.throughput_bps >= (1.0 - vivace_param(s, VIVACE_P_EPSILON)) * r->stats.send_rate_bps / (1.0 + gradient);
}

/* Whether an MI's steep RTT gradient was not the forward path's: its one-way delay (the receiver's clock) rose at
 * most at the jitter level, and it delivered what it sent within a jitter-level queue's x / (1 + g) (eq. 4.4). A
 * bottleneck queue shows in both, whatever the acks' timing; a delay after the receiver's stamp (its ack held by the
 * receiver or the sender descheduled, the return path) raises the RTTs alone, and in a short MI one late ack makes
 * a steep gradient. The one-way delay is the test: an MI that meets a queue may still deliver nearly all it sent
 * (x / (1 + g) for a small g), so the delivery alone does not tell. */
static int gradient_not_forward(const pcc_mi_result *r) {
    return r->owd_gradient_known && r->owd_gradient < SLOW_START_JITTER_GRADIENT &&
           r->stats.throughput_bps >= r->stats.send_rate_bps / (1.0 + SLOW_START_JITTER_GRADIENT);
}

/* §4.4.4 ignores "small measurement errors" in slow start (th_latency, th_loss; Table 4.1) so as not to end it
 * early, at a fraction of the capacity. Two such errors come in an MI that lost nothing and whose RTT gradient, if
 * significant, stayed below SLOW_START_JITTER_GRADIENT:
 * - the sender fell more than ε short of the MI's rate (descheduled with data waiting; the MI's duration keeps the
 *   stall, monitor_interval.c, so its x in eq. 4.1 is what the wire carried): the MI tested no rate at all;
 * - forward-path jitter tilted the RTT regression of an MI of the first slow start that delivered what it sent
 *   (within ε; a queue growing at g = dRTT/dt delivers x / (1 + g)).
 * Such an MI's utility drop decides nothing (as an app-limited MI's, vivace.c): the doubling goes on, the best MI
 * stays the best, so an exit on the next MI still falls back below the rate this one sent. Loss, a steep gradient
 * (unless the one-way delay did not show it: gradient_not_forward) or a delivery shortfall end slow start. A recovery's
 * doubling (recovery_target > 0) climbs back toward a rate the path carried lately, where a small gradient is the
 * first sign of the queue: within a doubling of that rate (near_carried_rate) it is not forgiven, and the exit falls
 * back to what that MI delivered (exit_delivered). */
static int measurement_error_only(const vivace_state *s, const pcc_mi_result *r) {
    if (r->stats.packets_lost > 0) return 0;
    /* regain_without_queue's doubling: an MI that lost nothing and met no queue (vivace_recovery.c) was below the
     * capacity (eq. 4.4), so a drop in its utility comes from the RTT-gradient term alone, which without a queue is
     * noise (the kernel-module paper's low-pass filter is for such noise) */
    if (s->regain_floor > 0 && vivace_mi_met_no_queue(s, r)) return 1;
    int sender_short = sender_fell_short(s, r);
    /* Even a steep gradient: an MI the sender fell short in that sent no faster than this slow start's acks have
     * seen the path deliver (delivery_max, a tcp_rate.c-style sample that ack bursts cannot inflate) built no queue
     * at the bottleneck; its RTTs rose on the sender's own host (descheduled, the send stamped before the packet
     * left). */
    if (sender_short && r->stats.send_rate_bps / 8.0 <= s->delivery_max) return 1;
    int gradient_counted = vivace_mi_queue_grew(s, r);
    if (gradient_counted && r->stats.rtt_gradient >= SLOW_START_JITTER_GRADIENT) {
        /* one that the forward path did not see is a measurement error too, below the rate the path carried lately
         * and without a standing queue */
        return vivace_flag(s, VIVACE_P_SLOW_START_FORWARD_GRADIENT) && !near_carried_rate(s, r) &&
               !vivace_mi_standing_queue(s, r) && gradient_not_forward(r);
    }
    if (sender_short) return 1;
    /* a standing queue or a delivery shortfall (the path changed under the rate) still ends it, as do loss and a
     * steep gradient above */
    if (repeats_cleared_rate(s, r)) return !vivace_mi_standing_queue(s, r) && delivered_what_gradient_explains(s, r);
    return gradient_counted && !near_carried_rate(s, r) && delivered_its_sends(s, r);
}

/* Probing from fallback (bytes/s), or from just below the bottleneck rate slow start's acks measured. */
static void exit_slow_start(vivace_state *s, double fallback) {
    /* Once slow start overran the bottleneck, the acks' delivery rate measured it: start just below it (the drain
     * removes the queue), not at the best MI's rate, which the lag of the doubling leaves at C/2 to C. */
    int first = !(s->recovery_target > 0);
    double pipe = first ? delivery_pipe(s) : 0.0;
    if (pipe > fallback) fallback = pipe;
    /* A regain (vivace_recovery.c) began at a rate whose MIs met no queue: it ends no lower. Where RTT noise is the size
     * of the RTT (a 1-ms path), each exit's fall-back scaled by minRTT/avgRTT otherwise ratchets the rate down regain
     * by regain. */
    if (fallback < s->regain_floor) fallback = s->regain_floor;
    s->recovery_target = 0.0;
    vivace_enter_probing(s, fallback);
    vivace_schedule_drain(s, s->delivery_max > s->base_rate ? s->delivery_max : s->base_rate);
    s->exit_repipe_pending = first && s->drain_duration_us > 0 && vivace_flag(s, VIVACE_P_SLOW_START_EXIT_REPIPE);
    s->repipe_exit_us = s->loop.now_us;
    s->repipe_first_recv_us = 0;
    s->repipe_recv_rate = 0.0;
}

/* The span of receiver-clock time the repipe's rate needs: a few packets' worth of the acks' jitter. */
#define REPIPE_MIN_SPAN_US 10000

/* Per ack while the repipe is pending: what the receiver got since the exit, by its clock. Slow start's queue stands
 * through these acks (the drain removes it), so the bottleneck sends at C and this rate measures it; a single
 * delivery-rate sample after a sender stall can read well above C (ack bursts). */
void vivace_exit_repipe_ack(vivace_state *s, const cc_ack_event *event) {
    if (!(event->recv_time_us > 0) || event->packet->sent_time_us >= s->repipe_exit_us) return;
    if (!(s->repipe_first_recv_us > 0)) {
        s->repipe_first_recv_us = event->recv_time_us;
        s->repipe_first_delivered = event->delivered_bytes;
        return;
    }
    int64_t span_us = event->recv_time_us - s->repipe_first_recv_us;
    if (span_us >= REPIPE_MIN_SPAN_US && event->delivered_bytes > s->repipe_first_delivered) {
        s->repipe_recv_rate = (double)(event->delivered_bytes - s->repipe_first_delivered) / ((double)span_us * 1e-6);
    }
}

/* slow_start_exit_repipe. The exit is decided on the result of the first MI that met the queue, about an RTT after it
 * ended: the acks then have measured delivery only at the rates of the MIs before it, below the capacity, and the
 * pipe (1 - epsilon) x delivery_max lands well below C; probing's small first steps (§4.4.2) climb from there for
 * seconds. The MIs sent after it (at 2x and 4x, already out) saturated the bottleneck: their acks come back during the
 * drain MI and measure C, as BBR's bandwidth filter keeps taking samples through its drain. The first probe MI after
 * the drain starts from that pipe when it is higher; never above the delivery cap's ceiling. */
void vivace_exit_repipe(vivace_state *s) {
    s->exit_repipe_pending = 0;
    double pipe = delivery_pipe(s);
    double recv = s->repipe_recv_rate * (1.0 - vivace_param(s, VIVACE_P_EPSILON));
    if (recv < pipe) pipe = recv; /* no higher than the receiver saw: 0 when its clock is unknown or the span short */
    if (pipe > s->base_rate) {
        s->base_rate = vivace_clamp_to_ceiling(s, vivace_clamp_rate(s, pipe));
        pcc_probe_round_start(&s->round, s->loop.ctx);
    }
}

/* slow_start_persistent_queue. §4.4 ends the starting phase at the first utility drop, and so does the kernel module
 * (its startup halves the rate "when the observed utility decreases"). Without loss the drop is the RTT-gradient term
 * of one MI, about one RTT. On a link whose capacity swings 3x within 100 ms (LTE scheduling) an MI below the mean
 * capacity meets a trough and reads a steep gradient that is the forward path's (so gradient_not_forward rightly does
 * not forgive it): the doubling ends at whatever rate it had reached, and probing climbs from there for seconds
 * (§4.4.2: small steps at first). A queue the rate built persists; a trough drains within the next MI. So in the first
 * slow start a loss-free drop ends it only when a second one follows it, or when the acks' delivery rate stopped
 * growing (BBR's full-pipe test: < 25 % over 3 rounds; an MI is about a round): the pipe is full, the drop is the
 * rate's own queue. Loss ends it as before; a recovery's doubling, which stops at a rate the path carried, keeps its
 * own exits. */
#define FULL_PIPE_GROWTH 1.25
#define FULL_PIPE_MIS 3

static int persistent_queue_rule(const vivace_state *s) {
    return vivace_flag(s, VIVACE_P_SLOW_START_PERSISTENT_QUEUE) && !(s->recovery_target > 0) && !(s->regain_floor > 0);
}

/* Per slow-start MI result: BBR's full-pipe bookkeeping on delivery_max, and the most a loss-free MI delivered. */
static void note_persistent_queue_result(vivace_state *s, const pcc_mi_result *r) {
    cc_full_pipe_round(&s->slow_start_full_pipe, s->delivery_max, FULL_PIPE_GROWTH);
    if (r->stats.packets_lost > 0) return;
    double delivered = drained_delivery(s, r);
    if (isfinite(delivered) && delivered > s->slow_start_delivered) s->slow_start_delivered = delivered;
}

/* 1 when a loss-free drop does not end the first slow start: the first of its kind in a row, the pipe not yet full.
 * The MI after it was opened before this result, at twice this rate (or at the delivery cap): the next one repeats
 * that rate instead of doubling again, so a real queue grows by one MI at most before the second drop ends slow start;
 * then the doubling resumes. */
static int drop_not_yet_persistent(vivace_state *s, const pcc_mi_result *r) {
    if (!persistent_queue_rule(s) || r->stats.packets_lost > 0) return 0;
    if (s->slow_start_queue_mis > 0 || s->slow_start_full_pipe.rounds_without_growth >= FULL_PIPE_MIS) return 0;
    s->slow_start_queue_mis = 1;
    if (s->slow_start_last_rate > 0 && s->slow_start_next_rate > s->slow_start_last_rate) {
        s->slow_start_next_rate = s->slow_start_last_rate;
    }
    return 1;
}

void vivace_on_slow_start_result(vivace_state *s, const pcc_mi_result *r, double utility, double noise_var) {
    double rate = r->stats.target_rate_bps / 8.0;
    double margin = SLOW_START_EXIT_CONFIDENCE * sqrt(noise_var + s->slow_start_best_noise_var);
    if (persistent_queue_rule(s)) note_persistent_queue_result(s, r);
    if (s->slow_start_have_best && utility < s->slow_start_best_utility - margin) {
        if (measurement_error_only(s, r)) return; /* the doubling goes on */
        if (drop_not_yet_persistent(s, r)) return;
        /* fall back to the best rate seen (§4.4, §3.2.3), or to what the exiting MI delivered */
        double fallback = s->slow_start_best_rate;
        double delivered = exit_delivered(s, r);
        if (delivered > fallback) fallback = delivered;
        /* the rule's loss-free exit: no lower than what the doubling's MIs got through (less ε and their queue), so a
         * trough met earlier does not set the rate probing starts from */
        if (persistent_queue_rule(s) && r->stats.packets_lost == 0 && s->slow_start_delivered > fallback) {
            fallback = vivace_clamp_to_ceiling(s, s->slow_start_delivered);
        }
        exit_slow_start(s, fallback);
        return;
    }
    s->slow_start_queue_mis = 0;
    s->slow_start_have_best = 1;
    s->slow_start_best_utility = utility;
    s->slow_start_best_rate = proved_rate(s, r);
    s->slow_start_best_noise_var = noise_var;
    if (rate >= s->loop.ctx->max_rate_bytes_per_s) {
        vivace_enter_probing(s, rate); /* nothing left to double */
    } else if (s->recovery_target > 0 && rate >= s->recovery_target) {
        if (!vivace_extend_recovery(s, r, rate)) {
            s->recovery_target = 0.0; /* recovered */
            vivace_enter_probing(s, recovered_rate(s, r, rate));
        } else if (s->recovery_target > rate) {
            s->slow_start_cleared_rate = rate; /* raised: not a retest at the target */
        }
    }
}
