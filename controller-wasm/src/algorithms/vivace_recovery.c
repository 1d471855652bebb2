/*
 * The starting phase again when the link has room (ours; issue 18's LTE traces). Vivace moves down fast and up
 * slowly: a decrease may go straight to what its probes delivered (vivace_probing.c), an increase is bounded by the
 * dynamic change boundary ω = ω0 + kδ of §4.4.3, and k restarts whenever a noisy decision reverses. When an LTE
 * link's capacity returns after a fade, the climb back from the fade's rate is a few percent per probe round, and
 * at rates below a few Mbit/s a round of four 10-packet MIs takes about a second: the link idles for seconds while
 * a video player starves. MI-timeout recovery (vivace_timeout.c) covers only fades that silence the acks.
 *
 * So: FADE_RECOVERY_DECISIONS decisions in a row to increase, each from a round whose four probes all got
 * through without loss, without a growing queue (the utility's own tests: eq. 4.1's loss term and its filtered
 * RTT gradient, §4.4.4) and without a standing one, show that even r(1+ε) is below the capacity, by an unknown amount. That is the situation
 * the starting phase is for (§4.4: double while the utility rises), so Vivace re-enters it, up to the rate the fade's
 * first decrease started from (the capacity last seen, as MI-timeout recovery stops at the rate before its halvings,
 * TCP's slow start at ssthresh), and not at all once the climb is back there: unbounded, the doubling runs on to
 * the utility drop, past a capacity that returned only in part (an LTE trace's dips, Fig. 4.9), into a deep queue.
 * With slow start's own guards: the doubling stays below slow_start_delivery_gain x the delivery rate the acks
 * measure anew, and the first utility drop falls back to the best rate and drains the queue; an MI the sender could not fill
 * holds the doubling at the rate last sent (vivace.c: it neither ends the recovery nor tests a rate; the first slow
 * start doubles on through such MIs, which here, with a video segment's end, would only raise a rate nothing tests).
 * Near the equilibrium the upper
 * probe meets the flow's own queue within one ω step, which restarts the count. Only a utility with a latency term
 * (b > 0) re-enters: the starting phase stops at the first utility drop, which eq. 4.1 with b = 0 (vivace-loss)
 * only sees once the buffer overflows, so each recovery would end in a burst of losses at twice the capacity. The decisions need not be
 * confident in vivace_probing.c's sense: after a lossy fade the recent loss average lends every utility the noise
 * of its loss count (vivace_utility.c) although these probes lost nothing, which is what keeps the ω climb at
 * its first step there.
 */
#include "vivace_state.h"

/* A probe met a standing queue when its mean RTT exceeded the path's min RTT by this share of it: a deep buffer
 * that stays full shows no RTT gradient (vivace-loss keeps one full by design), and a link after a fade is idle. */
#define FADE_RECOVERY_MAX_QUEUE_SHARE 0.5
/* A fade: the round's best probe got through less than this share of what the link delivered in the rounds before
 * and of what the round offered it. A probe above the capacity C of an unchanged link meets its own queue, which in
 * eq. 4.1's model (§4.3.1, eq. 4.4) grows at (S - C)/C while the link still delivers C: its delivered fraction is
 * below 1 (C / r(1+ε), lower still when the receiver stamps its packets in late batches), its delivered rate is
 * not. That overshoot is the gradient step's to correct (§4.4.3), not a reason for the starting phase (§4.4). */
#define FADE_DELIVERY_SHARE 0.7
/* Clean increase decisions in a row before the starting phase: one can be a rate just below where a queue starts
 * (the base rate settles near C/(1+ε)); two in a row are ω apart, both with r(1+ε) below the capacity. */
#define FADE_RECOVERY_DECISIONS 2

/* Whether an RTT of the MI is above the queue allowance over the path's min RTT. */
static int above_queue_allowance(const vivace_state *s, double rtt_us) {
    double min_rtt_us = (double)s->loop.ctx->rtt->min_rtt_us;
    return min_rtt_us > 0 && rtt_us > (1.0 + FADE_RECOVERY_MAX_QUEUE_SHARE) * min_rtt_us;
}

int vivace_mi_standing_queue(const vivace_state *s, const pcc_mi_result *r) {
    return above_queue_allowance(s, r->stats.avg_rtt_us);
}

/* A queue that stands delays every packet, so the MI's lowest RTT sample (of those its gradient is fitted to, §4.4.4)
 * is above the allowance too. The mean is not that test where the path's own delay varies: a sender far below an LTE
 * link's capacity waits for the link's transmit opportunities, and its mean RTT passes the allowance with no queue. */
int vivace_mi_queue_stood(const vivace_state *s, const pcc_mi_result *r) {
    return r->stats.rtt_samples > 0 && above_queue_allowance(s, (double)r->lowest_rtt_us);
}

int vivace_probe_congested(const vivace_state *s, const pcc_mi_result *r) {
    return r->stats.packets_lost > 0 || vivace_mi_standing_queue(s, r) || vivace_mi_queue_grew(s, r);
}

static int probes_uncongested(const vivace_state *s) {
    for (int slot = 0; slot < PCC_PROBE_SLOTS; slot++) {
        if (s->probes[slot].congested || !(s->probes[slot].delivered_fraction > 0)) return 0;
    }
    return 1;
}

static void regain_note_round(vivace_state *s, double delivered_mbps); /* regain_without_queue, below */

int vivace_round_delivery_fell(vivace_state *s, double delivered_mbps, double offered_mbps) {
    double before_mbps = 0.0;
    unsigned known = s->rounds_delivered < VIVACE_FADE_REFERENCE_ROUNDS ? s->rounds_delivered : VIVACE_FADE_REFERENCE_ROUNDS;
    for (unsigned i = 0; i < known; i++) {
        if (s->round_delivered_mbps[i] > before_mbps) before_mbps = s->round_delivered_mbps[i];
    }
    regain_note_round(s, delivered_mbps);
    s->round_delivered_mbps[s->rounds_delivered % VIVACE_FADE_REFERENCE_ROUNDS] = delivered_mbps;
    s->rounds_delivered++;
    double reference_mbps = offered_mbps < before_mbps ? offered_mbps : before_mbps;
    return reference_mbps > 0 && delivered_mbps < FADE_DELIVERY_SHARE * reference_mbps;
}

void vivace_note_fade(vivace_state *s, double rate_before) {
    if (!s->fade_pending || rate_before > s->rate_before_fade) s->rate_before_fade = rate_before;
    s->fade_pending = 1;
    s->clean_increases = 0;
}

int vivace_start_fade_recovery(vivace_state *s, int direction) {
    if (!s->fade_pending || !(vivace_param(s, VIVACE_P_LATENCY_COEFFICIENT) > 0)) return 0;
    if (direction <= 0 || s->phase != STATE_PROBING || !probes_uncongested(s)) {
        s->clean_increases = 0;
        return 0;
    }
    if (!(s->base_rate < s->rate_before_fade)) {
        s->fade_pending = 0; /* the climb got back to where the fade began: nothing to recover */
        return 0;
    }
    if (++s->clean_increases < FADE_RECOVERY_DECISIONS) return 0;
    s->clean_increases = 0;
    /* The loss the recent average remembers is the past's: the last rounds' probes lost nothing. Kept, it would
     * charge every doubling c·x·L_avg (eq. 4.1) and end the starting phase at its first MI. */
    s->loop.loss_average = 0.0;
    vivace_recover_up_to(s, s->rate_before_fade);
    return 1;
}

void vivace_recover_up_to(vivace_state *s, double target_rate) {
    s->fade_pending = 0;
    vivace_reset_direction(s);
    vivace_reenter_slow_start(s, target_rate);
    s->fade_recovering = 1;
}

/* An MI-timeout recovery (vivace_timeout.c) stops at the rate its first halving left, as TCP's slow start stops at
 * ssthresh, because the halvings may have been congestion. When its doubling got there with the utility rising at
 * every step and the MI at the target met no queue and lost nothing, the target is below the capacity by an unknown
 * amount: the situation a fade recovery's clean increases show, so the doubling goes on up to the rate the fade
 * began from, with the same guards (the delivery cap, the exit on the first utility drop, §4.4). Otherwise the
 * gradient climbs from half the capacity last seen, and only in full probe rounds (§4.4.3): a video player's short
 * segment requests leave an app-limited MI every few MIs, and each re-runs the round. Only with a latency term, as
 * for a fade recovery. */
int vivace_fade_began_above(const vivace_state *s, double rate) {
    return s->fade_pending && s->rate_before_fade > rate && vivace_param(s, VIVACE_P_LATENCY_COEFFICIENT) > 0;
}

/* After a silence of the acks (a blackout: episode_ack_silence, vivace_timeout.c) the recovery's MI at its target
 * is the path's first test at that rate, and an RTT gradient alone (no loss, no standing queue) in an MI that delivered
 * what it sent within ε is as likely RTT noise as a queue: a queue growing at g delivers x / (1 + g) (eq. 4.4), so it
 * bounds g near ε. The next MI at the target, already open (the doubling stops at the target), decides instead, once:
 * a queue shows there again, while noise does not repeat; ending the recovery on the first would leave probing at
 * the target, what the first halving left. Returns 1 when the recovery goes on at its target (consumes the silence's mark). */
static int retest_after_silence(vivace_state *s, const pcc_mi_result *r) {
    if (!s->episode_ack_silence || r->stats.packets_lost > 0 || vivace_mi_standing_queue(s, r)) return 0;
    if (r->stats.throughput_bps < (1.0 - vivace_param(s, VIVACE_P_EPSILON)) * r->stats.send_rate_bps) return 0;
    s->episode_ack_silence = 0;
    return 1;
}

/* regain_without_queue (on for vivace-video, off for vivace). Every recovery above stops at a rate it knows of (the rate before the
 * halvings or the fade, a starving player's bitrate), and the fade recovery needs two increase decisions in a row
 * first. When that rate is far below a capacity that came back (a starving player's restart aimed at its lowest
 * rendition can end a pending fade, vivace_video.c), the recovery stops there (vivace_slow_start_next) and probing
 * climbs by ω steps (§4.4.3), at low rates one round per second or more, on RTT gradients that without a queue are
 * noise and keep reversing the decision. An MI whose mean RTT stayed within the allowance below of the min RTT met no
 * queue, so its rate (plus ε) is below the capacity by an unknown amount: the situation §4.4's starting phase is for
 * (double while the utility rises). The allowance is a queue BBR's probing tolerates (a quarter of the min RTT) or
 * twice the RTT noise the flow measures itself, whichever is more: the RTT excess an MI that built no queue still
 * shows (eq. 4.4: an MI whose queue grows at g delivers x / (1 + g), so one that delivered what it sent within ε and
 * lost nothing grew none; what its mean RTT exceeds the min RTT by is the path's noise, a scheduler's or a receiver's,
 * which the kernel-module paper filters out of its RTT samples for the same reason). LTE's scheduling noise is several
 * ms at the median and heavy-tailed; a fixed floor either admits a real queue on a quiet path or no MI at all on a
 * noisy one. Each sample is capped at one min RTT (a queue of one BDP is no noise), so the allowance never exceeds
 * two. */
#define REGAIN_QUEUE_FLOOR_SHARE 0.25
#define RTT_NOISE_MULTIPLE 2.0
#define RTT_NOISE_MAX_SHARE 1.0
/* Only MIs sent below this share of the most a probe round delivered lately (the regain windows below) feed it: one
 * that delivered what it sent at the capacity may still stand on a queue it keeps (the base rate near C). */
#define RTT_NOISE_BELOW_SHARE 0.8
/* Weight of a new MI in rtt_noise_us (RFC 6298's weight for the smoothed RTT). */
#define RTT_NOISE_WEIGHT 0.125
/* Probe MIs in a row that met no queue before slow start is re-entered: one can be the lower probe of a pair. */
#define REGAIN_CLEAN_MIS 2
/* Only below this share of the most a probe round delivered in the current and the previous window of REGAIN_WINDOW_US
 * (10-20 s: long enough to hold an LTE fade and its return): at the equilibrium (the base near C/(1+ε)) the probes
 * meet little queue too, and a doubling there would only build one; a capacity that stays lower (another flow's share)
 * stops it within two windows. */
#define REGAIN_BELOW_SHARE 0.5
#define REGAIN_WINDOW_US 10000000

static int regain_enabled(const vivace_state *s) {
    return vivace_flag(s, VIVACE_P_REGAIN_WITHOUT_QUEUE) && vivace_param(s, VIVACE_P_LATENCY_COEFFICIENT) > 0 &&
           !s->regain_held;
}

/* The most a probe round delivered in the current and the previous regain window, Mbit/s. */
static double regain_reference_mbps(const vivace_state *s) {
    return s->regain_window_mbps > s->regain_previous_mbps ? s->regain_window_mbps : s->regain_previous_mbps;
}

/* Whether a rate (bytes/s) is below REGAIN_BELOW_SHARE of that: where a doubling cannot pass what the link carried. */
static int far_below_delivered(const vivace_state *s, double rate) {
    return vivace_to_mbps(rate) < REGAIN_BELOW_SHARE * regain_reference_mbps(s);
}

void vivace_note_rtt_noise(vivace_state *s, const pcc_mi_result *r) {
    double min_rtt_us = (double)s->loop.ctx->rtt->min_rtt_us;
    if (r->app_limited || r->timed_out || r->stats.packets_lost > 0 || !(min_rtt_us > 0) || !(r->stats.avg_rtt_us > 0)) return;
    if (!(r->stats.throughput_bps >= (1.0 - vivace_param(s, VIVACE_P_EPSILON)) * r->stats.send_rate_bps)) return;
    if (!(vivace_to_mbps(r->stats.send_rate_bps / 8.0) < RTT_NOISE_BELOW_SHARE * regain_reference_mbps(s))) return;
    double excess_us = r->stats.avg_rtt_us - min_rtt_us;
    double cap_us = RTT_NOISE_MAX_SHARE * min_rtt_us;
    if (excess_us < 0) excess_us = 0;
    if (excess_us > cap_us) excess_us = cap_us;
    s->rtt_noise_us = s->have_rtt_noise ? s->rtt_noise_us + RTT_NOISE_WEIGHT * (excess_us - s->rtt_noise_us) : excess_us;
    s->have_rtt_noise = 1;
}

double vivace_no_queue_allowance_us(const vivace_state *s) {
    double allowance_us = REGAIN_QUEUE_FLOOR_SHARE * (double)s->loop.ctx->rtt->min_rtt_us;
    double noise_us = RTT_NOISE_MULTIPLE * s->rtt_noise_us;
    return noise_us > allowance_us ? noise_us : allowance_us; /* rtt_noise_us is 0 until noted */
}

int vivace_mi_met_no_queue(const vivace_state *s, const pcc_mi_result *r) {
    if (!regain_enabled(s) || r->app_limited || r->timed_out || r->stats.packets_lost > 0) return 0;
    double min_rtt_us = (double)s->loop.ctx->rtt->min_rtt_us;
    return min_rtt_us > 0 && r->stats.avg_rtt_us > 0 && r->stats.avg_rtt_us <= min_rtt_us + vivace_no_queue_allowance_us(s);
}

int vivace_regain_on_probe(vivace_state *s, const pcc_mi_result *r) {
    vivace_note_rtt_noise(s, r);
    if (!regain_enabled(s) || r->tag < VIVACE_TAG_PROBE_FIRST || s->drain_duration_us > 0 || s->awaiting_feedback) return 0;
    if (!vivace_mi_met_no_queue(s, r)) {
        s->regain_clean_mis = 0;
        return 0;
    }
    if (++s->regain_clean_mis < REGAIN_CLEAN_MIS) return 0;
    if (!far_below_delivered(s, s->base_rate)) return 0;
    if (s->regain_ceiling > 0 && !(2.0 * s->base_rate < s->regain_ceiling)) return 0;
    s->loop.loss_average = 0.0; /* the past's, as for a fade recovery */
    double from = s->base_rate;
    vivace_recover_up_to(s, vivace_clamp_rate(s, 2.0 * s->base_rate));
    s->regain_floor = from;
    return 1;
}

/* A recovery's MI at its target that met no queue, far below what the link delivered lately: one doubling more (§4.4),
 * the target raised as above. Near that rate the gradient's ω steps (§4.4.3) finish the climb: a doubling there would
 * only overshoot into a queue and its drain. */
static int regain_past_target(vivace_state *s, const pcc_mi_result *r, double rate) {
    if (!far_below_delivered(s, rate)) return 0;
    double raised = vivace_clamp_rate(s, 2.0 * rate);
    if (s->regain_ceiling > 0 && raised > s->regain_ceiling) raised = s->regain_ceiling;
    if (!vivace_mi_met_no_queue(s, r) || !(raised > rate)) return 0;
    s->recovery_target = raised;
    s->regain_floor = rate;
    return 1;
}

static void regain_note_round(vivace_state *s, double delivered_mbps) {
    if (s->loop.now_us - s->regain_window_start_us >= REGAIN_WINDOW_US) {
        s->regain_previous_mbps = s->regain_window_mbps;
        s->regain_window_mbps = 0.0;
        s->regain_window_start_us = s->loop.now_us;
    }
    if (delivered_mbps > s->regain_window_mbps) s->regain_window_mbps = delivered_mbps;
}

int vivace_extend_recovery(vivace_state *s, const pcc_mi_result *r, double rate) {
    if (s->fade_recovering || !vivace_fade_began_above(s, rate)) return regain_past_target(s, r, rate);
    if (vivace_probe_congested(s, r)) return retest_after_silence(s, r);
    s->fade_pending = 0;
    s->recovery_target = s->rate_before_fade;
    return 1;
}
