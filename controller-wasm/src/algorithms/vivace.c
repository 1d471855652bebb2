/*
 * PCC Vivace (thesis chapter 4): online gradient ascent on a measured utility.
 * Two ops tables: "vivace" (latency-aware utility, the default) and "vivace-loss" (b = 0, thesis §4.5).
 *
 * Control (thesis §4.4, Table 4.1 defaults):
 *  - slow start: the rate doubles every monitor interval (MI) while the utility of each finished MI
 *    rises; at the first drop the rate falls back to the best MI's rate and slow start ends for good.
 *    If the MI that dropped lost packets, its measured delivery may serve instead when higher
 *    (slow_start_exit_to_delivered, at slow_start_exit_delivered).
 *  - probing: MIs at r(1+ε) and r(1-ε), each pair in random order, then MIs at r until the results are
 *    in; γ = (u+ - u-)/(r+ - r-) (= (u1-u2)/(2εr), §4.4.3). A round has two pairs that must agree
 *    (the randomized controlled trials of §3.2.3, as the published code does); γ is their mean. A
 *    counter-intuitive round (the higher rate wins with significantly less loss) is re-run once
 *    ("double check", §4.4.4): consistent results are averaged, otherwise the re-run alone counts.
 *  - the step: Δr = m(τ)·θ0·γ with the confidence amplifier m(τ) over τ consecutive same-direction
 *    decisions, capped at ω·r by the dynamic change boundary ω = ω0 + kδ (k grows while the cap
 *    binds, is recalibrated to the smallest sufficient k otherwise, reset when direction changes).
 *    A decrease goes at least down to what the probes got through (decrease_to_delivered, at
 *    apply_gradient): ω is a guard against noisy increases, not a reason to keep losing after a drop.
 *  - MI timeout: an MI whose packets' fate is unknown T_timeout after it ended halves the rate. T_timeout
 *    counts min RTTs from the feedback time expected when the MI opened (end + sRTT then), not sRTTs from its
 *    end: a queue the sender builds itself inflates the sRTT, and the literal rule then never fires on LTE
 *    (mi_timeout_from_expected_feedback, measured at mi_timeout_us). When feedback flows again, the rate
 *    doubles per MI back up to what the first halving left (timeout_recovery, at start_timeout_recovery).
 *  - moving (parameter moving; kernel paper "PCC State Machine"): after confident increases the rate steps on
 *    once per confirming MI result instead of once per probe round (enter_moving). It starts only after
 *    moving_entry_decisions (2) increases in a row, and a move that overshot counts as a decrease, so near the
 *    equilibrium the flows decide by probe rounds, whose gradient carries the fairness of §4.3 (see
 *    moving_entry_allowed). On by default for vivace-loss, off for vivace: in Chromium, three vivace players
 *    sharing 30 Mbit/s (bench multiflow-3x8mbps, 3 runs each) buffered 20.4% of the time with it, 6.3% without.
 * Each decision starts a new epoch; results of MIs sent under an older epoch no longer apply and
 * are dropped, and the open MI is cut short so the new rate takes effect at once (thesis §3.2.2).
 *
 * Measurement noise (§4.4.4 "contending with unreliable statistics"): a utility's binomial loss noise
 * is estimated per MI; gradients within amplifier_confidence standard errors of 0 do not grow the
 * amplifier, slow start ends only on a significant drop, the double check needs a significant loss
 * difference, and an MI's loss rate is low-pass filtered (loss_smoothing). Without these, random loss
 * of 2-3% (Fig. 4.3) made the rate collapse; each is documented where it is applied.
 *
 * Measurement: a packet belongs to the MI it was sent in (monitor_interval.h, exact per packet, so the
 * kernel module's approximations for lack of per-packet state - sRTT sampling, ignoring an MI's last
 * acks - are not needed). RTT gradient by least squares (§4.4.4), zeroed when below flt_latency or
 * smaller than its own standard error (as the published user-space code does).
 *
 * Robust at very low RTT (loopback) and low rate: an MI lasts at least max(mi_duration_rtts·sRTT,
 * the time to send mi_min_packets at its rate, mi_min_duration_ms), so it always holds enough packets
 * and pacer ticks to measure. The rate never exceeds max_rate_over_sent times what was actually sent
 * lately (application- or CPU-limited senders). Per-ack work is O(1) and allocation-free.
 */
#include "vivace.h"

#include <math.h>

#include "../monitor_interval.h"
#include "../pcc_rate_limits.h"
#include "../portable_math.h"

#define MAX_PROBE_PAIRS 2
#define EPSILON_MIN_DEFAULT 0.05

enum {
    P_EPSILON,
    P_THETA0,
    P_OMEGA0,
    P_OMEGA_DELTA,
    P_THROUGHPUT_EXPONENT,
    P_LATENCY_COEFFICIENT,
    P_LOSS_COEFFICIENT,
    P_LATENCY_FILTER,
    P_RTT_GRADIENT_STDERR_FILTER,
    P_DOUBLE_CHECK,
    P_PROBE_PAIRS,
    P_AMPLIFIER_CONFIDENCE,
    P_SLOW_START_EXIT_CONFIDENCE,
    P_LOSS_SMOOTHING,
    P_MAX_RATE_OVER_SENT,
    P_SLOW_START_LOSS_IGNORED,
    P_SLOW_START_LATENCY_IGNORED,
    P_MI_TIMEOUT_RTTS,
    P_MI_TIMEOUT_MIN_MS,
    P_MI_DURATION_RTTS,
    P_MI_MIN_PACKETS,
    P_MI_MIN_DURATION_MS,
    P_MI_TIMEOUT_FROM_EXPECTED_FEEDBACK,
    P_DECREASE_TO_DELIVERED,
    P_SLOW_START_EXIT_TO_DELIVERED,
    P_TIMEOUT_RECOVERY,
    P_APP_LIMITED_MI_IGNORED,
    P_EPSILON_MIN,
    P_SLOW_START_DELIVERY_GAIN,
    P_SLOW_START_DRAIN,
    P_SPURIOUS_TIMEOUT_UNDO,
    P_MI_DURATION_FROM_MIN_RTT,
    P_EPSILON_MIN_ON_REVERSAL,
    P_MOVING,
    P_MOVING_MIN_STEP,
    P_MOVING_EXIT_CONFIDENCE,
    P_MOVING_NOISE_LOSS_LIMIT,
    P_MOVING_ENTRY_DECISIONS,
    P_COUNT
};

/*
 * Latency coefficient b: eq. 4.33 prints 11330, but §4.5 states that every experiment ("Vivace-latency")
 * ran with b = 900 as the default, and the published user-space code uses 900 with x in Mbit/s and a
 * dimensionless dRTT/dt. The figures we reproduce come from §4.5, so 900 is the default. The RTT
 * gradient is penalised only when positive: in the model behind eq. 4.1 (§4.3.1, eq. 4.4) latency
 * grows at (S - C)/C when the senders overshoot and is flat otherwise; a draining queue is no reward.
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
        {"rtt_gradient_stderr_filter", 2, 0, 10, "zero an RTT gradient within this many standard errors of 0 (0: off)"}, \
        {"double_check", 1, 0, 1, "1: re-run counter-intuitive probe pairs (§4.4.4, Table 4.1 ON)"},        \
        {"probe_pairs", 2, 1, MAX_PROBE_PAIRS, "pairs per round; 2: both must agree (RCTs, §3.2.3; as published Vivace)"}, \
        {"amplifier_confidence", 0.5, 0, 10, "gradients within this many standard errors of 0 reset the amplifier (0: never)"}, \
        {"slow_start_exit_confidence", 2, 0, 10, "slow start ends on a utility drop beyond this many standard errors (0: any drop)"}, \
        {"loss_smoothing", 0.5, 0, 0.95, "weight of the recent average loss rate in an MI's loss rate (0: raw)"}, \
        {"max_rate_over_sent", 2.5, 1.1, 1e6, "rate ceiling: this multiple of the best send rate achieved in the last 4 MIs (> 2 so slow start can double)"}, \
        {"slow_start_loss_ignored", 0, 0, 1, "th_loss: loss below this ignored in slow start (Table 4.1)"}, \
        {"slow_start_latency_ignored", 0, 0, 1, "th_latency: RTT gradient below this ignored in slow start (Table 4.1)"}, \
        {"mi_timeout_rtts", 5, 1, 100, "T_timeout in RTTs: unresolved MI halves the rate (Table 4.1; §4.5 LTE: 2)"}, \
        {"mi_timeout_min_ms", 50, 1, 60000, "floor of the MI timeout, ms (ack batching at tiny RTTs)"},     \
        {"mi_duration_rtts", 1, 0.1, 10, "MI length in sRTTs (user-space Vivace: 1 RTT)"},                   \
        {"mi_min_packets", 10, 2, 10000, "MI lasts at least the time to send this many MSS (§3.2.2)"},       \
        {"mi_min_duration_ms", 5, 0, 10000, "MI floor in ms: a few pacer ticks even on loopback"},          \
        {"mi_timeout_from_expected_feedback", 1, 0, 1,                                                      \
         "1: the MI timeout counts T_timeout min RTTs from the feedback expected when the MI opened (its end + sRTT then); 0: T_timeout sRTTs from its end"}, \
        {"decrease_to_delivered", 1, 0, 1,                                                                  \
         "1: a decrease goes at least down to (1+ε) x the most the round's probes got through, even past the boundary ω"}, \
        {"slow_start_exit_to_delivered", 1, 0, 1,                                                           \
         "1: slow start exits to the larger of the best MI's rate and the exiting MI's delivery (it lost packets: shallow queue) x (1-ε) x minRTT/avgRTT"}, \
        {"timeout_recovery", 1, 0, 1,                                                                       \
         "1: when an MI completes after MI-timeout halvings, the rate doubles per MI (while the utility rises) back up to what the first halving left"}, \
        {"app_limited_mi_ignored", 1, 0, 1,                                                                 \
         "1: an MI in which the sender ran out of data (video between segments) decides nothing: slow start goes on, a probe round is re-run"}, \
        {"epsilon_min", EPSILON_MIN_DEFAULT, 0.001, 0.5,                                                    \
         "adaptive ε as in Allegro (§3.2.3): probe at ε_min after a decision, + ε_min per inconclusive round up to epsilon; = epsilon: fixed ε"}, \
        {"slow_start_delivery_gain", 2, 0, 100,                                                          \
         "slow start's rate stays below this multiple of the highest delivery rate acknowledged so far (0: off, doubling only)"}, \
        {"slow_start_drain", 1, 0, 1,                                                                       \
         "1: after slow start ends, one MI at half the new rate drains the queue slow start left (bytes in flight above rate x min RTT)"}, \
        {"spurious_timeout_undo", 1, 0, 1,                                                                  \
         "1: when the acks that were late arrive with no forward queueing delay (receive timestamps), the MI-timeout halvings are undone"}, \
        {"mi_duration_from_min_rtt", 0, 0, 1,                                                               \
         "w: an MI lasts mi_duration_rtts x (w min RTT + (1-w) sRTT); 0: sRTTs (thesis, published code), which include the sender's own queue; 1: min RTTs, the unit of the MI timeout"}, \
        {"epsilon_min_on_reversal", 0, 0, 1,                                                                \
         "1 (with epsilon_min < epsilon): the step narrows to epsilon_min only after a decision that reverses the last one (at the equilibrium); a decision in the same direction (climbing, falling) probes at epsilon"}, \
        {"moving", moving_default, 0, 1,                                                                    \
         "1: after confident increases (moving_entry_decisions) the rate keeps stepping up once per MI result, each step from the latest gradient, until an MI's utility falls (kernel paper: the moving state)"}, \
        {"moving_min_step", 0.02, 0, 0.5,                                                                   \
         "smallest step in the moving state, fraction of the rate (kernel paper: 2%), so consecutive MIs differ enough to measure a gradient"}, \
        {"moving_exit_confidence", 2, 0, 10,                                                                \
         "the moving state ends on a utility drop beyond this many standard errors of the loss-count noise (0: any drop)"}, \
        {"moving_noise_loss_limit", 0.5, 0, 1e6,                                                            \
         "moving_exit_confidence applies only while the average loss rate is below this fraction of the loss the utility tolerates (t x^(t-1) / c): beyond, loss is congestion, not noise, and any drop ends the move"}, \
        {"moving_entry_decisions", 2, 1, 10,                                                                \
         "the moving state starts only after this many confident increase decisions in a row; a move that overshot counts as a decrease (1: after any confident increase)"}, \
    }

static const cc_param_desc vivace_params[P_COUNT] = VIVACE_PARAMS(900, 0);
static const cc_param_desc vivace_loss_params[P_COUNT] = VIVACE_PARAMS(0, 1);

/* MI tags */
enum { TAG_SLOW_START, TAG_HOLD, TAG_DRAIN, TAG_MOVING, TAG_PROBE_FIRST };
/* probe tags: TAG_PROBE_FIRST + 2 * pair + (0 up, 1 down) */
static int probe_tag(int pair, int down) { return TAG_PROBE_FIRST + 2 * pair + down; }
static int tag_is_down(int tag) { return (tag - TAG_PROBE_FIRST) % 2; }
static int tag_pair(int tag) { return (tag - TAG_PROBE_FIRST) / 2; }

typedef enum { STATE_SLOW_START, STATE_PROBING, STATE_DOUBLE_CHECK, STATE_MOVING } vivace_phase;

static const char *const phase_names[] = {"slow_start", "probing", "double_check", "moving"};

/* Before any RTT sample the MI timeout assumes RFC 9002's initial RTT. */
#define INITIAL_RTT_GUESS_US 333000.0

typedef struct probe_result {
    int have;
    double rate_mbps;
    double utility;
    double loss_rate;
    uint32_t packets;
    double utility_noise_var;        /* variance of the utility from measurement noise, 0 if unknown */
    double delivered_fraction;       /* throughput / send rate: what the path got through of it */
} probe_result;

typedef struct vivace_state {
    cc_context *ctx;
    pcc_mi_tracker tracker;
    vivace_phase phase;
    uint64_t epoch;
    int restart_mi;                  /* cut the open MI short at the next send */
    int64_t open_mi_duration_us;     /* length of the open MI, set when it opened */
    double base_rate;                /* bytes/s: r */
    double epsilon;                  /* probing step of the current round, in [epsilon_min, epsilon] */
    /* slow start */
    double slow_start_next_rate;     /* bytes/s of the next slow-start MI */
    int slow_start_have_best;
    double slow_start_best_utility;
    double slow_start_best_rate;
    double slow_start_best_noise_var;
    double delivery_max;             /* bytes/s: highest delivery-rate sample of this slow-start episode */
    double slow_start_last_rate;     /* bytes/s: the episode's latest slow-start MI, 0 before the first */
    /* drain (slow_start_drain): one MI at drain_rate for drain_duration_us before the next probe round */
    int64_t drain_duration_us;       /* 0: no drain pending */
    double drain_rate;
    /* probing */
    int probe_pairs;                 /* pairs in this round (probe_pairs param, fixed per round) */
    int probes_sent;
    int probe_schedule[2 * MAX_PROBE_PAIRS];  /* tags in send order */
    probe_result probes[MAX_PROBE_PAIRS][2];  /* [pair][0 = up, 1 = down] */
    double first_gradient;           /* γ of the pair being double-checked */
    double first_gradient_var;
    /* moving state: the last MI whose utility confirmed the direction, and the gradient it measured */
    double moving_ref_rate_mbps;
    double moving_ref_utility;
    double moving_ref_noise_var;
    double moving_gradient;          /* utility per Mbit/s of the last confirming step */
    double moving_prev_rate_mbps;    /* the confirmed rate before the reference: where an overshoot returns to */
    /* recent average loss rate over MIs (low-pass filter input) */
    int have_loss_average;
    double loss_average;
    /* step control */
    int last_direction;              /* +1, -1, 0 before the first decision */
    unsigned consecutive;            /* τ */
    unsigned boundary_steps;         /* k */
    /* telemetry */
    double gradient;
    double last_utility;
    cc_mi_stats last_stats;
    uint64_t mi_completed;
    uint64_t decisions;
    uint64_t timeouts;
    uint64_t app_limited_mis;        /* results set aside because the sender ran out of data in them */
    /* timeout recovery */
    int awaiting_feedback;           /* an MI timeout halved the rate, no MI of the current epoch completed since */
    double rate_after_first_halving; /* bytes/s: what the first halving of the episode left */
    double recovery_target;          /* bytes/s: timeout recovery's slow start stops here; 0: not recovering */
    /* spurious timeouts (spurious_timeout_undo) */
    int64_t min_one_way_us;          /* lowest receive time - send time seen (clock offset included) */
    int have_one_way;
} vivace_state;

static double param(const vivace_state *s, int index) { return s->ctx->params[index]; }

static double clamp_rate(const vivace_state *s, double rate) { return pcc_clamp_rate(s->ctx, rate); }

static double to_mbps(double bytes_per_s) { return bytes_per_s * 8e-6; }

/* The rate may not run ahead of what the sender actually manages to send: an application- or CPU-limited
 * sender measures the same utility at every target, so nothing would stop the target from doubling to
 * max_rate_bps, to be unleashed when data arrives. */
static double clamp_to_ceiling(const vivace_state *s, double rate) {
    return pcc_clamp_to_send_ceiling(s->ctx, &s->tracker, param(s, P_MAX_RATE_OVER_SENT), rate);
}

/* Adaptive probing step, Allegro's rule (thesis §3.2.3) applied to Vivace: ε starts at ε_min, grows by ε_min
 * after every inconclusive round up to ε (Table 4.1's 0.05), and returns to ε_min after a decision. The base
 * rate settles where its upper probe r(1+ε) meets the capacity, so with a fixed ε = 5% Vivace uses about
 * C/(1+ε) ≈ 95% of the link (measured: 94.4% on 8.8 Mbit/s with changing RTT); a smaller step after clear
 * decisions keeps the rate nearer C, while noisy paths widen it back to 5%. */
static double epsilon_min(const vivace_state *s) {
    double lo = param(s, P_EPSILON_MIN), hi = param(s, P_EPSILON);
    return lo < hi ? lo : hi;
}

static void widen_epsilon(vivace_state *s) {
    double next = s->epsilon + epsilon_min(s), hi = param(s, P_EPSILON);
    s->epsilon = next < hi ? next : hi;
}

double vivace_utility(const cc_mi_stats *mi, const vivace_utility_coefficients *k) {
    double x = mi->send_rate_bps * 1e-6;
    if (!(x > 0)) return 0.0;
    double loss = mi->loss_rate < k->loss_ignored_below ? 0.0 : mi->loss_rate;
    double gradient = mi->rtt_gradient;
    if (fabs(gradient) < k->latency_filter || gradient < k->latency_ignored_below) gradient = 0.0;
    if (gradient < 0) gradient = 0.0;
    return pcc_pow(x, k->throughput_exponent) - k->latency_coefficient * x * gradient - k->loss_coefficient * x * loss;
}

static void reset_probe_pair(vivace_state *s) {
    s->probe_pairs = (int)param(s, P_PROBE_PAIRS);
    s->probes_sent = 0;
    for (int pair = 0; pair < s->probe_pairs; pair++) {
        int up_first = s->ctx->random_unit(s->ctx) < 0.5; /* each pair in its own random order */
        s->probe_schedule[2 * pair] = probe_tag(pair, !up_first);
        s->probe_schedule[2 * pair + 1] = probe_tag(pair, up_first);
        s->probes[pair][0].have = 0;
        s->probes[pair][1].have = 0;
    }
}

/* A decision took effect: results of MIs sent before it no longer describe the current rate. */
static void new_epoch(vivace_state *s) {
    s->epoch++;
    s->restart_mi = 1;
}

static void enter_probing(vivace_state *s, double base_rate) {
    s->phase = STATE_PROBING;
    s->drain_duration_us = 0;
    s->base_rate = clamp_to_ceiling(s, base_rate);
    reset_probe_pair(s);
    new_epoch(s);
}

static void vivace_init_common(void *state, cc_context *ctx, int64_t now_us) {
    (void)now_us;
    vivace_state *s = state;
    s->ctx = ctx;
    pcc_mi_tracker_init(&s->tracker);
    s->phase = STATE_SLOW_START;
    s->base_rate = clamp_rate(s, ctx->initial_rate_bytes_per_s);
    s->epsilon = epsilon_min(s);
    s->slow_start_next_rate = s->base_rate;
}

/* An MI lasts mi_duration_rtts RTTs, counted by default in min RTTs (mi_duration_from_min_rtt), the unit the MI
 * timeout uses too. The sRTT includes the queue the sender itself keeps: a loss-based utility fills the buffer, so
 * at 10-30 Mbit/s a 75 KB buffer adds 20-60 ms to a 10-100 ms path, and every MI, hence every round of four probes
 * plus the wait for their feedback, grows with it. Rounds that long are what kept the rate below capacity after
 * the capacity rose in Fig. 4.8: 86% of the throughput missing there was lost in 5 s periods whose capacity had
 * risen, climbing at about 0.6 Mbit/s x m(τ) per round. Before any min RTT sample the sRTT (0) is used. */
static int64_t mi_duration_us(const vivace_state *s, double rate) {
    int64_t min_rtt_us = s->ctx->rtt->min_rtt_us;
    double weight = min_rtt_us > 0 ? param(s, P_MI_DURATION_FROM_MIN_RTT) : 0.0;
    double rtt_us = weight * (double)min_rtt_us + (1.0 - weight) * (double)s->ctx->rtt->smoothed_rtt_us;
    double by_rtt = param(s, P_MI_DURATION_RTTS) * rtt_us;
    double by_packets = param(s, P_MI_MIN_PACKETS) * (double)s->ctx->mss_bytes / rate * 1e6;
    double floor_us = param(s, P_MI_MIN_DURATION_MS) * 1000.0;
    double d = by_rtt;
    if (by_packets > d) d = by_packets;
    if (floor_us > d) d = floor_us;
    return (int64_t)d;
}

/* How late an MI's feedback may be (thesis §4.4.4 "MI timeout", T_timeout RTTs) before it counts as timed
 * out. By default the lateness is measured against the feedback time the MI could expect when it opened (its
 * end plus the sRTT then, see mi_expected_delay_us) in units of the path's min RTT. The literal rule, T_timeout
 * sRTTs after the MI ended, never fires when it matters most: a sender that overshoots a deep buffer (LTE)
 * inflates the sRTT with its own queue, so the timeout grows as fast as the feedback delay (measured on the
 * Verizon LTE trace: no timeout in 60 s while the queue held 3.4 s at p95 and half the packets were lost). */
static int64_t mi_timeout_us(const vivace_state *s) {
    int64_t basis_us = param(s, P_MI_TIMEOUT_FROM_EXPECTED_FEEDBACK) >= 0.5 ? s->ctx->rtt->min_rtt_us
                                                                            : s->ctx->rtt->smoothed_rtt_us;
    double rtt_us = basis_us > 0 ? (double)basis_us : INITIAL_RTT_GUESS_US;
    double t = param(s, P_MI_TIMEOUT_RTTS) * rtt_us;
    double floor_us = param(s, P_MI_TIMEOUT_MIN_MS) * 1000.0;
    return (int64_t)(t > floor_us ? t : floor_us);
}

/* Feedback for an MI opened now is due one sRTT after it ends: the queue already standing is no news. */
static int64_t mi_expected_delay_us(const vivace_state *s) {
    return param(s, P_MI_TIMEOUT_FROM_EXPECTED_FEEDBACK) >= 0.5 ? s->ctx->rtt->smoothed_rtt_us : 0;
}

static double probe_rate(const vivace_state *s, int tag) {
    double eps = s->epsilon;
    return clamp_rate(s, s->base_rate * (tag_is_down(tag) ? 1.0 - eps : 1.0 + eps));
}

/* Slow start doubles per MI without waiting for feedback (thesis §3.2.3, §4.4), so by the time the utility
 * of the first MI above capacity C is known, two more MIs went out at 2C and 4C (or more: the first MIs are
 * short) and the queue holds several BDPs. Measured in the simulator on 4.4 Mbit/s, 55 ms, 300 KB: rates
 * 8, 16, 32 Mbit/s before the exit, 257 KB queued, then MI timeouts halved the rate and the link idled.
 * The delivery rate of the acknowledgements stops growing at C: capping the rate at gain x the highest
 * delivery rate seen bounds the overshoot to (gain - 1) C. Below C the cap costs a little speed (the acks
 * lag the doubling by about one MI). Measured, 10 s runs, gain 0 (off) / 2 / 2.89: 100 Mbit/s 30 ms 1 MB:
 * peak queue 892 / 160 / 954 KB, 90% of C reached at 0.38 / 0.53 / 0.43 s; 4.4 Mbit/s 300 KB changing RTT:
 * peak queue 260 / 75 / 140 KB, p95 RTT 308 / 78 / 125 ms. */
static double slow_start_rate(const vivace_state *s, double rate) {
    double gain = param(s, P_SLOW_START_DELIVERY_GAIN);
    if (!(gain > 0) || !(s->delivery_max > 0) || !(s->slow_start_last_rate > 0)) return rate;
    double cap = gain * s->delivery_max;
    /* The doubling pauses, the rate never falls: the first acks' samples are small (one packet over one RTT). */
    if (cap < s->slow_start_last_rate) cap = s->slow_start_last_rate;
    return rate < cap ? rate : cap;
}

/* The rate, tag and length (0: the default, mi_duration_us) of the next MI, per phase. */
static void next_mi(vivace_state *s, double *rate, int *tag, int64_t *duration_us) {
    *duration_us = 0;
    switch (s->phase) {
    case STATE_SLOW_START:
        if (s->recovery_target > 0 && s->slow_start_next_rate > s->recovery_target) {
            s->slow_start_next_rate = s->recovery_target;
        }
        *rate = clamp_to_ceiling(s, slow_start_rate(s, s->slow_start_next_rate));
        *tag = TAG_SLOW_START;
        s->slow_start_last_rate = *rate;
        s->slow_start_next_rate = clamp_rate(s, *rate * 2.0);
        return;
    case STATE_PROBING:
    case STATE_DOUBLE_CHECK:
        if (s->drain_duration_us > 0) {
            *rate = clamp_rate(s, s->drain_rate);
            *tag = TAG_DRAIN;
            *duration_us = s->drain_duration_us;
            s->drain_duration_us = 0;
            return;
        }
        if (s->probes_sent < 2 * s->probe_pairs) {
            *tag = s->probe_schedule[s->probes_sent++];
            *rate = probe_rate(s, *tag);
            return;
        }
        *rate = s->base_rate;
        *tag = TAG_HOLD;
        return;
    case STATE_MOVING:
        *rate = s->base_rate;
        *tag = TAG_MOVING;
        return;
    }
}

static void drain_results(vivace_state *s);

static void vivace_on_packet_sent(void *state, const cc_sent_packet *packet) {
    vivace_state *s = state;
    int64_t now_us = packet->sent_time_us;
    /* pcc_mi_due keeps the first MI open until the first RTT sample: slow start doubling per MI on a guess
     * would reach 2^(RTT/MI) times the initial rate before any feedback (measured: gigabits on an 800 ms path). */
    if (s->restart_mi || pcc_mi_due(&s->tracker, s->ctx, now_us, s->open_mi_duration_us, param(s, P_MI_MIN_PACKETS))) {
        pcc_mi_close(&s->tracker, now_us); /* first, so its achieved rate counts for the ceiling */
        pcc_mi_expire(&s->tracker, now_us, mi_timeout_us(s));
        drain_results(s); /* an MI may have completed at its close (tiny RTT) or expired */
        double rate = s->base_rate;
        int tag = TAG_HOLD;
        int64_t duration_us = 0;
        next_mi(s, &rate, &tag, &duration_us);
        /* the length is fixed when the MI opens: no per-packet arithmetic */
        pcc_mi *started = pcc_mi_start(&s->tracker, rate, tag, s->epoch, now_us);
        if (started != NULL) {
            s->open_mi_duration_us = duration_us > 0 ? duration_us : mi_duration_us(s, rate);
            started->expected_delay_us = mi_expected_delay_us(s);
        }
        s->restart_mi = 0;
    }
    pcc_mi_on_sent(&s->tracker, packet);
}

static unsigned confidence_amplifier(unsigned tau) {
    /* Table 4.1: m(τ) = τ for τ <= 3, 2τ - 3 beyond; m(0) = 1 as §4.4.3 requires. */
    if (tau == 0) return 1;
    return tau <= 3 ? tau : 2 * tau - 3;
}

/* The most any probe of the round got through the path, Mbit/s: its target rate times the fraction of
 * what it sent that was acknowledged (a fraction, so an application-limited MI does not lower it). */
static double probes_delivered_mbps(const vivace_state *s) {
    double best = 0.0;
    for (int pair = 0; pair < s->probe_pairs; pair++) {
        for (int side = 0; side < 2; side++) {
            const probe_result *p = &s->probes[pair][side];
            double delivered = p->rate_mbps * p->delivered_fraction;
            if (delivered > best) best = delivered;
        }
    }
    return best;
}

/* Δr = m(τ)·θ0·γ in Mbit/s, capped at ω·r by the dynamic change boundary ω = ω0 + kδ (§4.4.3); k grows
 * while the cap binds and is recalibrated to the smallest sufficient value otherwise. */
static double bounded_step_mbps(vivace_state *s, double gradient, double rate_mbps) {
    double change_mbps = (double)confidence_amplifier(s->consecutive) * param(s, P_THETA0) * gradient;
    double omega0 = param(s, P_OMEGA0), delta = param(s, P_OMEGA_DELTA);
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

/* The mean utility of the round's probes, the utility at the base rate (r(1±ε) average to r), and its noise
 * variance. */
static double probes_mean_utility(const vivace_state *s, double *noise_var) {
    double sum = 0.0, var = 0.0;
    for (int pair = 0; pair < s->probe_pairs; pair++) {
        for (int side = 0; side < 2; side++) {
            sum += s->probes[pair][side].utility;
            var += s->probes[pair][side].utility_noise_var;
        }
    }
    double n = 2.0 * (double)s->probe_pairs;
    *noise_var = var / (n * n);
    return sum / n;
}

/* The moving state (kernel paper, "PCC State Machine"): after a conclusive round that decided to increase, the
 * rate goes on stepping up, one step per MI result that confirms it: each step from the gradient between that MI
 * and the previous confirming one, with the amplifier m(τ) and boundary ω of §4.4.3 growing per step. The first
 * MI whose utility falls significantly sends the rate back to the confirmed rate before the last one (the last
 * one may already sit slightly above capacity, under the latency filter), to probe there. A round of
 * four probes plus their feedback takes five to six MIs; a moving step takes two (the MI at the new rate and its
 * feedback). That is what lets the rate follow a capacity that rose (thesis Fig. 4.8, where 86% of the missing
 * throughput was lost climbing). Only increases move: a decrease already jumps to what the probes delivered
 * (decrease_to_delivered), and moving down compares MIs whose loss average decays over time, so each looked
 * better than the last (measured: the rate ran down to 0.3 Mbit/s on a 50 Mbit/s link). */
static void enter_moving(vivace_state *s, double rate, double reference_mbps, double reference_utility,
                         double reference_noise_var, double gradient) {
    s->phase = STATE_MOVING;
    s->drain_duration_us = 0;
    s->base_rate = clamp_to_ceiling(s, rate);
    s->moving_ref_rate_mbps = reference_mbps;
    s->moving_ref_utility = reference_utility;
    s->moving_ref_noise_var = reference_noise_var;
    s->moving_gradient = gradient;
    s->moving_prev_rate_mbps = reference_mbps;
    new_epoch(s);
}

/* Whether a decision starts the moving state: only a confident increase that extends a run of
 * moving_entry_decisions of them. At the equilibrium a flow alternates between a step back (a decrease, or a move
 * that overshot) and one increase; those rounds must stay probe rounds. Their gradient is what shares the link:
 * with the latency utility a flow's own probe raises the RTT gradient in proportion to its rate (the x·dRTT/dt
 * term of eq. 4.1, §4.3), so larger flows measure the steeper decline. A move instead steps a fixed fraction of
 * the rate, and all latency-aware flows' moves end together on the shared RTT rise, so shares barely change.
 * Entering after any confident increase, 4 vivace flows 2 s apart reached Jain 0.77-0.89 in 30 s; after two in
 * a row, 0.97-1.00, while a capacity that rose still gets climbed by moving (Fig. 4.8 vivace 79.6% of optimal
 * without moving, 86.1% with it). */
static int moving_entry_allowed(const vivace_state *s, int direction, int confident) {
    if (param(s, P_MOVING) < 0.5 || !confident || direction <= 0) return 0;
    return (double)s->consecutive + 1.0 >= param(s, P_MOVING_ENTRY_DECISIONS);
}

/* Moves the base rate by the gradient (§4.4.3) and starts probing around the new rate (or moving, see
 * enter_moving). A decrease is not held back by the dynamic boundary below what the path delivered (decrease_to_delivered):
 * ω guards against overshooting on unreliable gradients (§4.4.3), but after a capacity drop a rate far above
 * what the probes got through only loses packets while ω grows step by step (5%, 15%, 25%, ... per round of
 * four MIs). Measured on the Fig. 4.8 changing network (mean of 6 seeds x 100 s): loss 9.0% -> 4.9%
 * (vivace-loss), 7.4% -> 3.6% (vivace). Random loss leaves the delivered rate at r(1 - L)(1 + ε) ≥ r, so it changes nothing there.
 * gradient_var: variance of the estimate from measurement noise (0 when unknown). */
static void apply_gradient(vivace_state *s, double gradient, double gradient_var) {
    s->gradient = gradient;
    s->decisions++;
    double rate_mbps = to_mbps(s->base_rate);
    if (gradient == 0.0 || !(rate_mbps > 0) || !isfinite(gradient)) {
        widen_epsilon(s);
        enter_probing(s, s->base_rate);
        return;
    }
    int direction = gradient > 0 ? 1 : -1;
    int reversed = s->last_direction == -direction;
    /* The amplifier trusts a run of same-direction decisions (§4.4.3). Under random loss such runs
     * also happen by chance, and amplified noise swings the rate by tens of percent; so a decision
     * whose gradient is within amplifier_confidence standard errors of 0 restarts the run (m = 1,
     * ω = ω0). A clear gradient (freed capacity, congestion) keeps the thesis behaviour. */
    double z = param(s, P_AMPLIFIER_CONFIDENCE);
    int confident = gradient_var <= 0 || fabs(gradient) > z * sqrt(gradient_var);
    if (direction == s->last_direction && confident) {
        s->consecutive++;
    } else {
        s->consecutive = 0;
        s->boundary_steps = 0;
    }
    s->last_direction = direction;
    double next_mbps = rate_mbps + bounded_step_mbps(s, gradient, rate_mbps);
    if (direction < 0 && param(s, P_DECREASE_TO_DELIVERED) >= 0.5) {
        double delivered_mbps = probes_delivered_mbps(s) * (1.0 + s->epsilon);
        if (delivered_mbps > 0 && delivered_mbps < next_mbps) next_mbps = delivered_mbps;
    }
    /* epsilon_min_on_reversal: a narrow step measures a noisier gradient (γ = Δu / 2εr), which slows a climb (Fig
     * 4.8 loses most of its throughput climbing); at the equilibrium, where decisions alternate, it moves the base
     * rate from C/(1+ε) towards C. */
    s->epsilon = param(s, P_EPSILON_MIN_ON_REVERSAL) >= 0.5 && !reversed ? param(s, P_EPSILON) : epsilon_min(s);
    if (moving_entry_allowed(s, direction, confident)) {
        double reference_var;
        double reference_utility = probes_mean_utility(s, &reference_var);
        enter_moving(s, next_mbps / 8e-6, rate_mbps, reference_utility, reference_var, gradient);
    } else {
        enter_probing(s, next_mbps / 8e-6);
    }
}

/* The next moving step, Mbit/s: the amplified, bounded gradient step, at least moving_min_step of the rate. */
static double moving_step_mbps(vivace_state *s, double gradient, double rate_mbps) {
    s->consecutive++;
    double step = bounded_step_mbps(s, gradient, rate_mbps);
    double floor_mbps = param(s, P_MOVING_MIN_STEP) * rate_mbps;
    if (step < floor_mbps) step = floor_mbps;
    return step;
}

/* The loss rate at which the utility stops rewarding a higher rate: d/dx (x^t - c x L) = 0 at L = t x^(t-1) / c
 * (about 5% at 8-100 Mbit/s with Table 4.1's t and c, the thesis's "5% loss resistance"). */
static double tolerated_loss(const vivace_state *s, double rate_mbps) {
    double t = param(s, P_THROUGHPUT_EXPONENT), c = param(s, P_LOSS_COEFFICIENT);
    if (!(c > 0) || !(rate_mbps > 0)) return 1.0;
    return t * pcc_pow(rate_mbps, t - 1.0) / c;
}

/* A moving MI's result: compare its utility with the last MI that confirmed the direction. The rate steps only
 * on a result; MIs sent before the last step took effect (at the reference rate) are skipped. Under random loss
 * one MI's utility carries the binomial noise of its loss count, several times the difference a 2% step makes
 * (1% loss at 40 Mbit/s: 1.5 against 0.5), so only a drop beyond moving_exit_confidence standard errors ends the
 * move; a smaller one steps on with the last confirmed gradient. Overshooting a buffer drops the utility by far
 * more (loss, RTT gradient). */
static void on_moving_result(vivace_state *s, const pcc_mi_result *r, double utility, double noise_var) {
    double rate_mbps = r->stats.target_rate_bps * 1e-6;
    double spread_mbps = rate_mbps - s->moving_ref_rate_mbps;
    double least_mbps = 0.5 * param(s, P_MOVING_MIN_STEP) * s->moving_ref_rate_mbps;
    if (!(spread_mbps > 0 && spread_mbps >= least_mbps)) {
        double pending_mbps = to_mbps(s->base_rate) - s->moving_ref_rate_mbps;
        if (pending_mbps > 0 && pending_mbps >= least_mbps) return; /* sent before the step */
        enter_probing(s, s->base_rate); /* the rate cannot rise (send ceiling, bounds): nothing to learn */
        return;
    }
    double gradient = (utility - s->moving_ref_utility) / spread_mbps;
    double margin = param(s, P_MOVING_EXIT_CONFIDENCE) * sqrt(noise_var + s->moving_ref_noise_var);
    if (!(s->loss_average < param(s, P_MOVING_NOISE_LOSS_LIMIT) * tolerated_loss(s, rate_mbps))) margin = 0.0;
    s->gradient = gradient;
    if (isfinite(gradient) && utility > s->moving_ref_utility - margin) {
        if (gradient > 0) s->moving_gradient = gradient;
        s->moving_prev_rate_mbps = s->moving_ref_rate_mbps;
        s->moving_ref_rate_mbps = rate_mbps;
        s->moving_ref_utility = utility;
        s->moving_ref_noise_var = noise_var;
        s->base_rate = clamp_to_ceiling(s, (rate_mbps + moving_step_mbps(s, s->moving_gradient, rate_mbps)) / 8e-6);
        return;
    }
    /* The utility fell: the step overshot. One confirmed step back, a decrease (moving_entry_allowed), and the
     * amplifier starts over. */
    s->consecutive = 0;
    s->boundary_steps = 0;
    s->last_direction = -1;
    enter_probing(s, s->moving_prev_rate_mbps / 8e-6);
}

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
 * would delay only increases and drag the rate down. So the difference must be significant: more
 * than two standard errors of a two-proportion test. */
static int is_abnormal(const vivace_state *s, double gradient) {
    double up_lost = 0, up_sent = 0, down_lost = 0, down_sent = 0;
    for (int pair = 0; pair < s->probe_pairs; pair++) {
        up_lost += s->probes[pair][0].loss_rate * s->probes[pair][0].packets;
        up_sent += s->probes[pair][0].packets;
        down_lost += s->probes[pair][1].loss_rate * s->probes[pair][1].packets;
        down_sent += s->probes[pair][1].packets;
    }
    if (!(gradient > 0) || up_sent <= 0 || down_sent <= 0) return 0;
    double pooled = (up_lost + down_lost) / (up_sent + down_sent);
    double se = sqrt(pooled * (1 - pooled) * (1 / up_sent + 1 / down_sent));
    return down_lost / down_sent - up_lost / up_sent > 2 * se;
}

static int same_sign(double a, double b) { return (a > 0) == (b > 0) && (a < 0) == (b < 0); }

static void on_probes_complete(vivace_state *s) {
    /* With two pairs (randomized controlled trials, thesis §3.2.3) a decision needs both to agree. */
    double variance;
    double gradient = pair_gradient(s->probes[0], &variance);
    for (int pair = 1; pair < s->probe_pairs; pair++) {
        double other_variance;
        double other = pair_gradient(s->probes[pair], &other_variance);
        if (!same_sign(gradient, other)) {
            s->gradient = 0.0;
            widen_epsilon(s);
            enter_probing(s, s->base_rate); /* inconclusive: stay, measure again */
            return;
        }
        gradient += other;
        variance += other_variance;
    }
    gradient /= (double)s->probe_pairs;
    variance /= (double)s->probe_pairs * (double)s->probe_pairs;
    if (s->phase == STATE_PROBING && param(s, P_DOUBLE_CHECK) >= 0.5 && is_abnormal(s, gradient)) {
        s->phase = STATE_DOUBLE_CHECK;
        s->first_gradient = gradient;
        s->first_gradient_var = variance;
        s->gradient = gradient;
        reset_probe_pair(s);
        new_epoch(s);
        return;
    }
    if (s->phase == STATE_DOUBLE_CHECK) {
        /* Consistent: the average, as §4.4.4 says. Inconsistent: the re-run alone. The first result was
         * flagged for a significant counter-intuitive loss difference, which is what a change of the
         * network between the two probes produces (e.g. capacity falling under the second probe gives
         * γ ≈ +30 at 70% loss); averaging it with a contradicting re-run still moved the rate the wrong
         * way. The re-run is a fresh sample, so using it alone adds no bias under random loss. */
        if (same_sign(gradient, s->first_gradient)) {
            gradient = (gradient + s->first_gradient) / 2.0;
            variance = (variance + s->first_gradient_var) / 4.0;
        }
    }
    apply_gradient(s, gradient, variance);
}

/* The utility of a finished MI; *noise_var gets the variance its measurement noise adds (binomial
 * loss counting and the RTT regression), or 0 for a custom utility we cannot reason about. */
static double mi_utility(const vivace_state *s, const pcc_mi_result *r, int *valid, double *noise_var) {
    cc_mi_stats stats = r->stats;
    *noise_var = 0.0;
    if (s->ctx->custom_utility != NULL) {
        double u = s->ctx->custom_utility(&stats, s->ctx->custom_utility_data);
        *valid = isfinite(u);
        return *valid ? u : 0.0;
    }
    if (param(s, P_RTT_GRADIENT_STDERR_FILTER) * r->rtt_gradient_stderr > fabs(stats.rtt_gradient)) {
        stats.rtt_gradient = 0.0;
    }
    /* Low-pass filter on loss, the counterpart of the latency filter (§4.4.4 "contending with unreliable
     * statistics"): an MI's loss rate is blended with the connection's recent average. A loss rate that
     * every rate shares (random loss) keeps its full weight in the expected utility (x·L_avg), while the
     * binomial noise of one MI's count, which otherwise drowns the gradient, shrinks by (1 - w). */
    double smoothing = param(s, P_LOSS_SMOOTHING);
    if (s->have_loss_average) stats.loss_rate = (1 - smoothing) * stats.loss_rate + smoothing * s->loss_average;
    else smoothing = 0;
    int slow_start = r->tag == TAG_SLOW_START;
    vivace_utility_coefficients k = {
        .throughput_exponent = param(s, P_THROUGHPUT_EXPONENT),
        .latency_coefficient = param(s, P_LATENCY_COEFFICIENT),
        .loss_coefficient = param(s, P_LOSS_COEFFICIENT),
        .latency_filter = param(s, P_LATENCY_FILTER),
        .loss_ignored_below = slow_start ? param(s, P_SLOW_START_LOSS_IGNORED) : 0.0,
        .latency_ignored_below = slow_start ? param(s, P_SLOW_START_LATENCY_IGNORED) : 0.0,
    };
    double u = vivace_utility(&stats, &k);
    double x = stats.send_rate_bps * 1e-6;
    if (stats.packets_sent > 0 && x > 0) {
        /* Binomial variance of the loss count. In slow start MIs are short, so the (lost + 1)/(sent + 2)
         * estimate keeps a handful of loss-free packets from passing as a noiseless measurement; later
         * the recent average loss rate is the better estimate of the underlying probability (0 on a
         * loss-free path, so clean gradients keep the thesis's amplifier). RTT noise needs no term: an
         * RTT gradient within its standard error was zeroed above. */
        double n = (double)stats.packets_sent;
        double p = slow_start || !s->have_loss_average ? ((double)r->stats.packets_lost + 1.0) / (n + 2.0)
                                                       : s->loss_average;
        double loss_sd = (1 - smoothing) * k.loss_coefficient * x * sqrt(p * (1 - p) / n);
        *noise_var = loss_sd * loss_sd;
        if (!isfinite(*noise_var)) *noise_var = 0.0;
    }
    *valid = isfinite(u);
    return *valid ? u : 0.0;
}

/* The rate the MI that ended slow start got through, bytes/s, when that is a safe place to continue, else 0
 * (slow_start_exit_to_delivered). Falling back to the best MI's rate (§4.4) means half of the overshooting
 * rate, and from there the gradient climbs for 10-15 s under random loss (Fig. 4.3, 3%: 88.9 Mbit/s over 60 s).
 * The exiting MI measured the path's delivery directly. Only an MI that lost packets qualifies (its queue hit
 * the buffer's end, so it is short); scaled by (1 - ε) and by minRTT/avgRTT to drain what queue it built.
 * Without loss the buffer is deep and still filling (Fig. 4.7, 1 MB): the best rate drains it. */
static double slow_start_exit_delivered(const vivace_state *s, const pcc_mi_result *r) {
    if (param(s, P_SLOW_START_EXIT_TO_DELIVERED) < 0.5 || r->stats.packets_lost == 0) return 0.0;
    double delivered = r->stats.throughput_bps / 8.0 * (1.0 - param(s, P_EPSILON));
    if (r->stats.min_rtt_us > 0 && r->stats.avg_rtt_us > r->stats.min_rtt_us) {
        delivered *= r->stats.min_rtt_us / r->stats.avg_rtt_us;
    }
    return isfinite(delivered) ? clamp_to_ceiling(s, delivered) : 0.0;
}

/* The bottleneck rate slow start's acks measured, less ε, bytes/s (0 when the gain is off or nothing measured). */
static double slow_start_delivery_pipe(const vivace_state *s) {
    if (!(param(s, P_SLOW_START_DELIVERY_GAIN) > 0) || !(s->delivery_max > 0)) return 0.0;
    return s->delivery_max * (1.0 - param(s, P_EPSILON)); /* enter_probing applies the bounds */
}

/* slow_start_drain: the exit rate (§4.4: the best MI's rate) is below the capacity C, but at that rate the queue
 * slow start built drains at C - r, which takes seconds for a rate near C; and while it stands, every MI sent
 * into it risks the MI timeout (its feedback is later than the sRTT at its start predicts), whose halvings
 * then leave the link idle. One MI at r/2 removes the bytes in flight beyond C x min RTT (the pipe) first,
 * in about (queue) / (C - r/2), as BBR's drain state does after its startup. */
static void schedule_drain(vivace_state *s) {
    s->drain_duration_us = 0;
    double min_rtt_us = (double)s->ctx->rtt->min_rtt_us;
    if (param(s, P_SLOW_START_DRAIN) < 0.5 || !(min_rtt_us > 0)) return;
    double capacity = s->delivery_max > s->base_rate ? s->delivery_max : s->base_rate;
    double queue_bytes = (double)*s->ctx->bytes_in_flight - capacity * min_rtt_us * 1e-6;
    if (!(queue_bytes > 0) || !(capacity > 0)) return;
    s->drain_rate = s->base_rate / 2.0;
    double duration_us = queue_bytes / (capacity - s->drain_rate) * 1e6;
    /* never longer than four smoothed RTTs: a stale min RTT (the path's delay grew) must not stall the flow */
    double cap_us = 4.0 * (double)s->ctx->rtt->smoothed_rtt_us;
    if (duration_us > cap_us) duration_us = cap_us;
    if (isfinite(duration_us) && duration_us >= 1.0) s->drain_duration_us = (int64_t)duration_us;
}

static void on_slow_start_result(vivace_state *s, const pcc_mi_result *r, double utility, double noise_var) {
    double rate = r->stats.target_rate_bps / 8.0;
    /* Slow start ends at the first utility decrease (§4.4). Early MIs are short, so one random loss
     * looks like a large drop: the decrease must exceed slow_start_exit_confidence standard errors
     * of the measurement noise. Congestion (heavy loss, RTT doubling) clears that bar at once. */
    double margin = param(s, P_SLOW_START_EXIT_CONFIDENCE) * sqrt(noise_var + s->slow_start_best_noise_var);
    if (s->slow_start_have_best && utility < s->slow_start_best_utility - margin) {
        /* fall back to the best rate seen (§4.4, §3.2.3), or to what the exiting MI delivered */
        double fallback = s->slow_start_best_rate;
        double delivered = slow_start_exit_delivered(s, r);
        if (delivered > fallback) fallback = delivered;
        /* The acks' delivery rate measured the bottleneck once slow start overran it: start just below it (the
         * drain below removes the queue), not at the best MI's rate, which the lag of the doubling leaves at
         * C/2 to C (measured: 65 Mbit/s on 100 Mbit/s, then 1.3 s of climbing). */
        double pipe = s->recovery_target > 0 ? 0.0 : slow_start_delivery_pipe(s);
        if (pipe > fallback) fallback = pipe;
        s->recovery_target = 0.0;
        enter_probing(s, fallback);
        schedule_drain(s);
        return;
    }
    s->slow_start_have_best = 1;
    s->slow_start_best_utility = utility;
    s->slow_start_best_rate = rate;
    s->slow_start_best_noise_var = noise_var;
    if (rate >= s->ctx->max_rate_bytes_per_s) {
        enter_probing(s, rate); /* nothing left to double */
    } else if (s->recovery_target > 0 && rate >= s->recovery_target) {
        s->recovery_target = 0.0; /* recovered */
        enter_probing(s, rate);
    }
}

/* Timeout recovery (timeout_recovery): the first MI of the current epoch that completes after MI-timeout
 * halvings shows that feedback flows again. Halvings on a link that kept acking (congestion, or capacity
 * falling under the rate) leave the rate far down, and from there the gradient climbs by 5%, 15%, ... per
 * round of four MIs, at low rates with 10-packet MIs: 20 s and more on the LTE traces. Like TCP's slow
 * start up to ssthresh after a retransmission timeout, the rate now doubles per MI while the utility
 * rises, up to the rate the first halving left; a utility drop ends it as it ends slow start. Measured,
 * 60 s LTE traces (Mbit/s, p95 self-inflicted): Verizon 3.23, 838 ms -> 3.54, 944; TMobile-driving 5.29,
 * 900 -> 5.72, 765; ATT-driving 2.14, 10090 -> 3.58, 1924; 140 s Verizon 3.18, 1549 -> 3.62, 958.
 * Returns 1 when recovery started (the result is consumed). */
static int start_timeout_recovery(vivace_state *s) {
    s->awaiting_feedback = 0;
    if (param(s, P_TIMEOUT_RECOVERY) < 0.5 || !(s->base_rate < s->rate_after_first_halving)) return 0;
    s->recovery_target = s->rate_after_first_halving;
    s->delivery_max = 0.0; /* capacity may have changed since: measure again */
    s->slow_start_last_rate = 0.0;
    s->phase = STATE_SLOW_START;
    s->slow_start_have_best = 0;
    s->slow_start_next_rate = s->base_rate;
    new_epoch(s);
    return 1;
}

static void on_result(vivace_state *s, const pcc_mi_result *r) {
    s->mi_completed++;
    s->last_stats = r->stats;
    if (r->timed_out) {
        /* §4.4.4: feedback this late is outdated; halve, once per epoch. */
        if (r->epoch == s->epoch) {
            s->timeouts++;
            double current = s->phase == STATE_SLOW_START ? r->stats.target_rate_bps / 8.0 : s->base_rate;
            if (!s->awaiting_feedback) s->rate_after_first_halving = current / 2.0;
            s->awaiting_feedback = 1;
            s->last_direction = 0;
            s->consecutive = 0;
            s->boundary_steps = 0;
            enter_probing(s, current / 2.0);
        }
        return;
    }
    int valid;
    double noise_var = 0.0;
    double utility = mi_utility(s, r, &valid, &noise_var);
    /* the average loss rate, weighted by packets: a ~10-MI memory */
    if (r->stats.packets_sent > 0) {
        if (!s->have_loss_average) s->loss_average = r->stats.loss_rate;
        else s->loss_average += 0.1 * (r->stats.loss_rate - s->loss_average);
        s->have_loss_average = 1;
    }
    s->last_utility = utility;
    if (r->epoch != s->epoch) return;
    if (valid && s->awaiting_feedback && s->phase == STATE_PROBING && start_timeout_recovery(s)) return;
    if (r->app_limited && param(s, P_APP_LIMITED_MI_IGNORED) >= 0.5) {
        /* An MI the sender could not fill (it ran out of data: the end of a video segment) holds few packets,
         * and its last ones wait for the receiver's delayed ACK: its utility measures the application and the
         * receiver, not the rate (thesis §4.4.4, unreliable statistics). Measured on the smoke bench and in
         * Chromium on loopback, such MIs ended slow start at ~1 Mbit/s and drove probe rounds down, so every
         * segment started slow and dash.js's ABR saw low throughput. Slow start goes on; a probe round is
         * re-run at the same base rate. */
        s->app_limited_mis++;
        if (s->phase != STATE_SLOW_START && r->tag >= TAG_PROBE_FIRST) enter_probing(s, s->base_rate);
        if (s->phase == STATE_MOVING && r->tag == TAG_MOVING) enter_probing(s, s->moving_ref_rate_mbps / 8e-6);
        return;
    }
    if (!valid) {
        /* A utility that is not a number cannot be compared: stop climbing (slow start would otherwise
         * double blindly) and measure again. */
        if (s->phase == STATE_SLOW_START) {
            enter_probing(s, s->slow_start_have_best ? s->slow_start_best_rate : r->stats.target_rate_bps / 8.0);
        } else {
            enter_probing(s, s->base_rate);
        }
        return;
    }
    switch (s->phase) {
    case STATE_SLOW_START:
        if (r->tag == TAG_SLOW_START) on_slow_start_result(s, r, utility, noise_var);
        return;
    case STATE_MOVING:
        if (r->tag == TAG_MOVING) on_moving_result(s, r, utility, noise_var);
        return;
    case STATE_PROBING:
    case STATE_DOUBLE_CHECK: {
        if (r->tag < TAG_PROBE_FIRST || tag_pair(r->tag) >= s->probe_pairs) return;
        probe_result *slot = &s->probes[tag_pair(r->tag)][tag_is_down(r->tag)];
        slot->have = 1;
        slot->rate_mbps = r->stats.target_rate_bps * 1e-6;
        slot->utility = utility;
        slot->loss_rate = r->stats.loss_rate;
        slot->packets = r->stats.packets_sent;
        slot->utility_noise_var = noise_var;
        slot->delivered_fraction = r->stats.send_rate_bps > 0 ? r->stats.throughput_bps / r->stats.send_rate_bps : 0.0;
        if (!(slot->delivered_fraction <= 1.0)) slot->delivered_fraction = slot->delivered_fraction > 1.0 ? 1.0 : 0.0;
        for (int pair = 0; pair < s->probe_pairs; pair++) {
            if (!s->probes[pair][0].have || !s->probes[pair][1].have) return;
        }
        on_probes_complete(s);
        return;
    }
    }
}

static void drain_results(vivace_state *s) {
    pcc_mi_result r;
    while (pcc_mi_pop_result(&s->tracker, (double)s->ctx->rtt->min_rtt_us, &r)) on_result(s, &r);
}

/* spurious_timeout_undo: MI-timeout halvings assume the silence was congestion (thesis §4.4.4). On LTE the uplink
 * alone also goes silent for seconds (ATT-LTE-driving: p95 2.2 s gaps in the up trace): the data got through,
 * only the acks waited. The halvings then leave the rate at the floor, and from there 10-packet MIs take ~1 s
 * each (measured in Chromium: 64.7% buffering ratio). Receive timestamps tell the two apart: a late ack whose
 * packet met no forward queue (its one-way delay near the lowest seen, while its RTT exceeded the MI timeout)
 * was delayed on the way back. Then, like TCP's spurious-RTO undo (RFC 5682 F-RTO, Eifel), the rate returns to
 * what it was before the first halving. */
static void undo_spurious_timeout(vivace_state *s, const cc_ack_event *event) {
    /* 0: no timestamp; beyond 2^53 µs (285 years) a forged one, and the subtraction below must not overflow */
    if (event->recv_time_us <= 0 || event->recv_time_us > ((int64_t)1 << 53)) return;
    int64_t one_way_us = event->recv_time_us - event->packet->sent_time_us;
    if (!s->have_one_way || one_way_us < s->min_one_way_us) s->min_one_way_us = one_way_us;
    s->have_one_way = 1;
    if (!s->awaiting_feedback || param(s, P_SPURIOUS_TIMEOUT_UNDO) < 0.5) return;
    int64_t extra_rtt_us = event->rtt_us - s->ctx->rtt->min_rtt_us;
    int64_t forward_queue_us = one_way_us - s->min_one_way_us;
    if (extra_rtt_us <= mi_timeout_us(s) || 4 * forward_queue_us >= extra_rtt_us) return;
    s->awaiting_feedback = 0;
    s->recovery_target = 0.0;
    s->last_direction = 0;
    s->consecutive = 0;
    s->boundary_steps = 0;
    double before = clamp_rate(s, 2.0 * s->rate_after_first_halving);
    enter_probing(s, before);
    s->base_rate = before; /* past the send-rate ceiling: the halved MIs sent little, but this rate was sent */
}

static void vivace_on_ack(void *state, const cc_ack_event *event) {
    vivace_state *s = state;
    undo_spurious_timeout(s, event);
    if (s->phase == STATE_SLOW_START && event->delivery_rate_bytes_per_s > s->delivery_max) {
        s->delivery_max = event->delivery_rate_bytes_per_s;
    }
    if (pcc_mi_on_ack(&s->tracker, event->packet, event->rtt_us)) drain_results(s);
}

static void vivace_on_loss(void *state, const cc_loss_event *event) {
    vivace_state *s = state;
    if (pcc_mi_on_loss(&s->tracker, event->packet)) drain_results(s);
}

static void vivace_on_tick(void *state, int64_t now_us) {
    vivace_state *s = state;
    pcc_mi_expire(&s->tracker, now_us, mi_timeout_us(s));
    drain_results(s);
}

static void vivace_on_app_limited(void *state, int64_t now_us) {
    (void)now_us;
    vivace_state *s = state;
    pcc_mi_mark_app_limited(&s->tracker);
}

static double vivace_pacing_rate(const void *state) {
    const vivace_state *s = state;
    const pcc_mi *open = pcc_mi_open(&s->tracker);
    if (open != NULL && !s->restart_mi) return open->target_rate_bytes_per_s;
    /* Between a decision and the next send, the rate the next MI will use. */
    if (s->phase == STATE_SLOW_START) return slow_start_rate(s, s->slow_start_next_rate);
    if (s->phase == STATE_MOVING) return s->base_rate;
    if (s->drain_duration_us > 0) return s->drain_rate;
    if (s->probes_sent < 2 * s->probe_pairs) return probe_rate(s, s->probe_schedule[s->probes_sent]);
    return s->base_rate;
}

static double vivace_cwnd(const void *state) {
    (void)state;
    return CC_CWND_UNLIMITED_BYTES;
}

static void vivace_telemetry(const void *state, cc_telemetry *out) {
    const vivace_state *s = state;
    out->state = phase_names[s->phase];
    out->mi_rate_bps = vivace_pacing_rate(state) * 8.0;
    out->last_mi_rate_bps = s->last_stats.target_rate_bps;
    out->last_mi_utility = s->last_utility;
    out->last_mi_loss_rate = s->last_stats.loss_rate;
    out->last_mi_rtt_gradient = s->last_stats.rtt_gradient;
    out->last_mi_throughput_bps = s->last_stats.throughput_bps;
    out->gradient = s->gradient;
    out->mi_completed = s->mi_completed;
}

static void vivace_on_param_changed(void *state, size_t index) {
    vivace_state *s = state;
    if (index == P_EPSILON_MIN) {
        s->epsilon = epsilon_min(s); /* a new ε_min restarts the adaptation */
    } else if (index == P_EPSILON) {
        double lo = epsilon_min(s), hi = param(s, P_EPSILON);
        s->epsilon = s->epsilon < lo ? lo : s->epsilon > hi ? hi : s->epsilon;
    }
    if (index == CC_COMMON_PARAMS_CHANGED) {
        if (s->tracker.next_id == 0) {
            /* nothing sent yet: a new initial rate still applies */
            s->base_rate = clamp_rate(s, s->ctx->initial_rate_bytes_per_s);
            s->slow_start_next_rate = s->base_rate;
        }
        /* New bounds: bring every rate we hold inside them. */
        s->base_rate = clamp_rate(s, s->base_rate);
        s->slow_start_next_rate = clamp_rate(s, s->slow_start_next_rate);
        s->restart_mi = 1;
    }
}

const cc_ops cc_ops_vivace = {
    .name = "vivace",
    .description = "PCC Vivace, latency-aware utility (thesis ch. 4)",
    .state_size = sizeof(vivace_state),
    .params = vivace_params,
    .param_count = P_COUNT,
    .accepts_custom_utility = 1,
    .delivery_rate_unused = 0, /* slow start reads it (slow_start_delivery_gain) */
    .init = vivace_init_common,
    .on_packet_sent = vivace_on_packet_sent,
    .on_ack = vivace_on_ack,
    .on_loss = vivace_on_loss,
    .on_tick = vivace_on_tick,
    .on_app_limited = vivace_on_app_limited,
    .pacing_rate_bytes_per_s = vivace_pacing_rate,
    .cwnd_bytes = vivace_cwnd,
    .get_telemetry = vivace_telemetry,
    .on_param_changed = vivace_on_param_changed,
};

const cc_ops cc_ops_vivace_loss = {
    .name = "vivace-loss",
    .description = "PCC Vivace with the loss-only utility, b = 0 (thesis §4.5)",
    .state_size = sizeof(vivace_state),
    .params = vivace_loss_params,
    .param_count = P_COUNT,
    .accepts_custom_utility = 1,
    .delivery_rate_unused = 0, /* slow start reads it (slow_start_delivery_gain) */
    .init = vivace_init_common,
    .on_packet_sent = vivace_on_packet_sent,
    .on_ack = vivace_on_ack,
    .on_loss = vivace_on_loss,
    .on_tick = vivace_on_tick,
    .on_app_limited = vivace_on_app_limited,
    .pacing_rate_bytes_per_s = vivace_pacing_rate,
    .cwnd_bytes = vivace_cwnd,
    .get_telemetry = vivace_telemetry,
    .on_param_changed = vivace_on_param_changed,
};
