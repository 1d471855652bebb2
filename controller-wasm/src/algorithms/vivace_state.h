/*
 * PCC Vivace's state and the functions its files share (internal). Vivace is split by concern: vivace_params.h
 * (the parameters), vivace.c (the MI schedule, what a finished MI means, the ops tables), vivace_utility.c (eq. 4.1 and its noise filters),
 * vivace_slow_start.c (slow start, its exit and drain), vivace_probing.c (probe rounds and the gradient step of
 * §4.4.3), vivace_moving.c (the kernel paper's moving state), vivace_timeout.c (MI timeouts, recovery, undo),
 * vivace_recovery.c (the starting phase again when the link has room).
 * The PCC loop (pcc_loop.h) owns everything Vivace shares with Allegro.
 */
#ifndef PCC_VIVACE_STATE_H
#define PCC_VIVACE_STATE_H

#include "../full_pipe.h"
#include "../pcc_loop.h"
#include "../pcc_rate_limits.h"
#include "vivace.h"
#include "vivace_params.h"

/* MI tags; a probe's tag is VIVACE_TAG_PROBE_FIRST + its slot (pcc_probe_round: 2·pair + 1 for the lower rate) */
enum { VIVACE_TAG_SLOW_START, VIVACE_TAG_HOLD, VIVACE_TAG_DRAIN, VIVACE_TAG_MOVING, VIVACE_TAG_PROBE_FIRST };

/* Probe rounds whose delivery a fade is judged against (vivace_recovery.c): a capacity that steps down over a few
 * rounds is still compared with what the link delivered before the first step. */
#define VIVACE_FADE_REFERENCE_ROUNDS 3
/* Finished MIs whose RTT regressions the gradient span (gradient_span_ms) pools: 16 MIs of ≥ 10 ms (MIs are at least
 * one sRTT) cover 160 ms; a longer span on a shorter RTT pools what is kept. */
#define VIVACE_SPAN_MIS 16

typedef enum { STATE_SLOW_START, STATE_PROBING, STATE_DOUBLE_CHECK, STATE_MOVING } vivace_phase;

typedef struct probe_result {
    double rate_mbps;
    double sent_mbps;                /* the send rate the MI achieved (rate_mbps: its target) */
    double utility;
    double loss_rate;
    uint32_t packets;
    double utility_noise_var;        /* variance of the utility from measurement noise, 0 if unknown */
    double delivered_fraction;       /* throughput / send rate: what the path got through of it */
    int congested;                   /* it lost packets or met a queue (vivace_probe_congested) */
} probe_result;

typedef struct vivace_state {
    pcc_loop loop;                   /* first: the PCC loop's ops receive this state */
    vivace_phase phase;
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
    double slow_start_cleared_rate;  /* bytes/s: a recovery's MI at this rate read clean and raised its target above
                                      * it (vivace_extend_recovery); 0: none in this slow start */
    /* slow_start_persistent_queue (vivace_slow_start.c), first slow start only */
    unsigned slow_start_queue_mis;   /* loss-free utility drops in a row that did not end it */
    cc_full_pipe slow_start_full_pipe; /* the full-pipe test on delivery_max, one round per MI result */
    double slow_start_delivered;     /* bytes/s: most a loss-free MI delivered, less epsilon and its queue */
    /* drain (slow_start_drain): one MI at drain_rate for drain_duration_us before the next probe round */
    int64_t drain_duration_us;       /* 0: no drain pending */
    double drain_rate;
    int exit_repipe_pending;         /* slow_start_exit_repipe: the first probe MI after the drain re-reads the pipe */
    int64_t repipe_exit_us;          /* when slow start ended: the repipe counts the packets sent before */
    int64_t repipe_first_recv_us;    /* the receiver's clock at the first ack since the exit (0: none yet) */
    uint64_t repipe_first_delivered; /* delivered bytes at that ack */
    double repipe_recv_rate;         /* bytes/s the receiver got since then, by its clock (0: span too short) */
    /* probing */
    pcc_probe_round round;
    probe_result probes[PCC_PROBE_SLOTS];   /* by slot */
    double first_gradient;           /* γ of the round being double-checked */
    double first_gradient_var;
    /* moving state: the last MI whose utility confirmed the direction, and the gradient it measured */
    double moving_ref_rate_mbps;
    double moving_ref_utility;
    double moving_ref_noise_var;
    double moving_gradient;          /* utility per Mbit/s of the last confirming step */
    double moving_prev_rate_mbps;    /* the confirmed rate before the reference: where an overshoot returns to */
    /* step control */
    int last_direction;              /* +1, -1, 0 before the first decision */
    unsigned consecutive;            /* τ */
    unsigned boundary_steps;         /* k */
    /* MI timeouts */
    int awaiting_feedback;           /* an MI timeout halved the rate, no MI of the current epoch completed since */
    double rate_after_first_halving; /* bytes/s: what the first halving of the episode left */
    int halved_first_slow_start;     /* the episode's first halving came in the first slow start */
    int episode_late_on_the_way_back; /* since then an ack (of any packet) came late on the way back */
    int episode_ack_silence;         /* since then the acks stopped for longer than a PTO and came back (path_silence.h) */
    int srtt_has_return_delay;       /* 1: an ack came late on the way back or through a forward silence, the sRTT
                                      * not yet back near the minimum */
    int acked_any;                   /* an ack came (the first one's RTT sample started the sRTT) */
    int first_rtt_in_silence;        /* the first ack ended a silence, and no packet sent after it has been acked yet:
                                      * the min RTT is the silence's too */
    double recovery_target;          /* bytes/s: timeout recovery's slow start stops here; 0: not recovering */
    int fade_pending;                /* the capacity fell under the rate, no recovery since (vivace_recovery.c) */
    unsigned clean_increases;        /* since: increase decisions in a row from uncongested probes */
    double rate_before_fade;         /* bytes/s: the highest rate the fade's decreases started from */
    int fade_recovering;             /* the slow start is that recovery's; an app-limited MI holds its doubling */
    double round_delivered_mbps[VIVACE_FADE_REFERENCE_ROUNDS]; /* the most each of the last rounds' probes got through */
    unsigned rounds_delivered;       /* rounds recorded there (the newest at (rounds_delivered - 1) % the size) */
    /* regain_without_queue (vivace_recovery.c) */
    double regain_window_mbps;       /* the most a probe round got through since regain_window_start_us */
    double regain_previous_mbps;     /* and in the window before */
    int64_t regain_window_start_us;
    unsigned regain_clean_mis;       /* probe MIs in a row that met no queue */
    /* bytes/s, > 0 while this slow start's target was set or raised by a path without a queue: the rate that met no
     * queue when that was decided, below which the regain does not end; 0: not regaining */
    double regain_floor;
    double regain_ceiling;           /* bytes/s: a variant's utility wants no more (vivace-video's paced cap); 0: none */
    int regain_held;                 /* a variant holds regain_without_queue off for now (vivace-video: no player waiting) */
    double rtt_noise_us;             /* running mean of the RTT excess (mean RTT - min RTT) of MIs that built no queue */
    int have_rtt_noise;
    /* gradient_span_ms (vivace_utility.c): the RTT regressions of the latest finished MIs, the newest at
     * (span_written - 1) % VIVACE_SPAN_MIS */
    pcc_regression span_rtt[VIVACE_SPAN_MIS];
    int64_t span_start_us[VIVACE_SPAN_MIS];
    unsigned span_written;
    int64_t min_one_way_us;          /* lowest receive time - send time seen (clock offset included) */
    int64_t last_one_way_us;         /* the latest ack's */
    int have_one_way;
    /* whether the path got longer (vivace_timeout.c): the run of acks at a level one-way delay (its first ack, its
     * length, how many of them were sent before the episode's first halving, whether it began with a jump from a path
     * with little queue), and the late acks of packets sent after that halving */
    int path_step_open;              /* an MI-timeout episode is being judged */
    int64_t halved_at_us;            /* the episode's first halving */
    int64_t level_first_sent_us, level_first_one_way_us;
    uint32_t level_acks, level_acks_before_halving;
    int level_from_empty_path;
    uint32_t step_after_acks;
    int64_t step_after_sent_us, step_after_one_way_us;
} vivace_state;

static inline double vivace_param(const vivace_state *s, int index) { return s->loop.ctx->params[index]; }
/* A 0/1 parameter. */
static inline int vivace_flag(const vivace_state *s, int index) { return s->loop.ctx->params[index] >= 0.5; }
/* An ack's one-way delay, the receiver's time less the send time (the clocks' offset included), µs; 0 when it carried
 * no receive time or a forged one (beyond 2^53 µs, 285 years: the subtractions on it must not overflow). */
static inline int vivace_ack_one_way_us(const cc_ack_event *event, int64_t *one_way_us) {
    if (event->recv_time_us <= 0 || event->recv_time_us > ((int64_t)1 << 53)) return 0;
    *one_way_us = event->recv_time_us - event->packet->sent_time_us;
    return 1;
}
static inline double vivace_to_mbps(double bytes_per_s) { return bytes_per_s * 8e-6; }
static inline double vivace_clamp_rate(const vivace_state *s, double rate) { return pcc_clamp_rate(s->loop.ctx, rate); }
/* The rate may not run ahead of what the sender actually manages to send (pcc_rate_limits.h). */
static inline double vivace_clamp_to_ceiling(const vivace_state *s, double rate) {
    return pcc_clamp_to_send_ceiling(s->loop.ctx, &s->loop.tracker, rate);
}

/* vivace.c: the state machine's hooks for the PCC loop */
void vivace_enter_probing(vivace_state *s, double base_rate);
double vivace_epsilon_min(const vivace_state *s);
void vivace_next_mi(void *state, pcc_next_mi *next);
double vivace_pending_rate(const void *state);
double vivace_mi_span_us(void *state);
double vivace_mi_timeout_rtts(const void *state);
void vivace_on_result(void *state, const pcc_mi_outcome *outcome);
void vivace_on_ack(void *state, const cc_ack_event *event);
void vivace_rebound(void *state, int nothing_sent);
void vivace_on_param_changed(void *state, size_t index);
const char *vivace_state_name(const void *state);
void vivace_limit_rate(void *state, double ceiling_rate, double start_ceiling_rate);
/* init for a variant: Vivace's state machine with the variant's hooks (VIVACE_HOOKS) */
void vivace_init_with_hooks(vivace_state *s, cc_context *ctx, const pcc_hooks *hooks);

/* A Vivace variant is one file: its parameter table ({VIVACE_PARAM_ROWS(...), its own rows}), a utility
 * (double fn(void *state, const pcc_mi_result *, double *noise_var); vivace_mi_utility is the default), hooks
 * = VIVACE_HOOKS(utility), an init calling vivace_init_with_hooks, and VIVACE_OPS (state_size may be larger
 * than vivace_state when the variant keeps state of its own after it). */
#define VIVACE_HOOKS(utility_fn) VIVACE_HOOKS_WITH_ACK_RESULT(utility_fn, vivace_on_ack, vivace_on_result)
/* The same with a variant's on_ack and on_result (which call vivace_on_ack / vivace_on_result for Vivace's own
 * handling). */
#define VIVACE_HOOKS_WITH_ACK_RESULT(utility_fn, ack_fn, result_fn)                                          \
    {                                                                                                        \
        .next_mi = vivace_next_mi, .pending_rate = vivace_pending_rate, .mi_span_us = vivace_mi_span_us,    \
        .mi_timeout_rtts = vivace_mi_timeout_rtts, .timeout_from_expected_feedback = 1, .utility = utility_fn, \
        .on_timeout = vivace_on_timeout, .on_result = result_fn, .on_ack = ack_fn,                           \
        .on_loss = vivace_on_loss,                                                                           \
        .rebound = vivace_rebound, .on_param_changed = vivace_on_param_changed, .state_name = vivace_state_name, \
        .limit_rate = vivace_limit_rate,                                                                     \
    }
#define VIVACE_OPS(ops_name, text, params_table, count, init_fn)                                             \
    {                                                                                                        \
        .name = ops_name, .description = text, .state_size = sizeof(vivace_state), .params = params_table,   \
        .param_count = count, .delivery_rate_unused = 0 /* slow start reads it */, .init = init_fn,         \
        PCC_LOOP_OPS,                                                                                        \
    }

/* vivace_utility.c: the loop's utility hook, and the same with the latency coefficient b scaled and the throughput
 * term capped (a variant's utility; scale 1 and cap 0 give vivace_mi_utility's bits exactly) */
double vivace_mi_utility(void *state, const pcc_mi_result *r, double *noise_var);
double vivace_mi_utility_adjusted(void *state, const pcc_mi_result *r, double *noise_var, double latency_scale,
                                  double throughput_cap_mbps);
int vivace_mi_queue_grew(const vivace_state *s, const pcc_mi_result *r);

/* vivace_slow_start.c */
double vivace_slow_start_rate(const vivace_state *s, double rate);
void vivace_slow_start_next(vivace_state *s, pcc_next_mi *next);
void vivace_on_slow_start_result(vivace_state *s, const pcc_mi_result *r, double utility, double noise_var);
void vivace_reenter_slow_start(vivace_state *s, double target_rate);
/* slow_start_drain: one MI at half the base rate that removes the bytes in flight beyond capacity (bytes/s) x min RTT. */
void vivace_schedule_drain(vivace_state *s, double capacity);
/* slow_start_exit_repipe: raise the base rate to (1 - epsilon) x the delivery pipe the drain's acks measured, once. */
void vivace_exit_repipe(vivace_state *s);
void vivace_exit_repipe_ack(vivace_state *s, const cc_ack_event *event);

/* vivace_recovery.c */
/* The capacity fell under the rate; rate_before: bytes/s, the rate the decrease or halving started from. */
void vivace_note_fade(vivace_state *s, double rate_before);
/* A probe round is complete: delivered_mbps, the most one of its probes got through (rate x delivered fraction),
 * offered_mbps, its highest probe rate. 1 when the link delivered clearly less than in the rounds before and
 * than it was offered (a fade); the round is remembered either way. */
int vivace_round_delivery_fell(vivace_state *s, double delivered_mbps, double offered_mbps);
/* Whether a probe MI lost packets or met a growing or standing queue. */
int vivace_probe_congested(const vivace_state *s, const pcc_mi_result *r);
/* Whether an MI's mean RTT shows a standing queue (well above the path's min RTT). */
int vivace_mi_standing_queue(const vivace_state *s, const pcc_mi_result *r);
/* The same allowance on the MI's lowest RTT sample: every packet met the queue (the starving player's restart). */
int vivace_mi_queue_stood(const vivace_state *s, const pcc_mi_result *r);
/* A probe round's decision (direction +1 / -1); 1: the starting phase
 * began, the decision is consumed. */
int vivace_start_fade_recovery(vivace_state *s, int direction);
/* Ends a pending fade and re-enters the starting phase up to target_rate as a fade recovery (an MI the sender could
 * not fill ends it). */
void vivace_recover_up_to(vivace_state *s, double target_rate);
/* Whether a pending fade began above rate (bytes/s), with a utility that has a latency term (b > 0): what an
 * MI-timeout recovery may extend to. */
int vivace_fade_began_above(const vivace_state *s, double rate);
/* An MI-timeout recovery's slow start reached its target at rate (bytes/s) on result r: 1 when the recovery goes on,
 * either doubling up to the rate a pending fade began from (the target is raised there) or, after a silence of the
 * acks, at its target for one more MI that decides instead of r (retest_after_silence, vivace_recovery.c). */
int vivace_extend_recovery(vivace_state *s, const pcc_mi_result *r, double rate);
/* The RTT excess over the min RTT that no queue explains, µs: max(0.25 x min RTT, 2 x rtt_noise_us). */
double vivace_no_queue_allowance_us(const vivace_state *s);
/* Feeds rtt_noise_us with a finished MI that lost nothing and delivered what it sent (it built no queue). */
void vivace_note_rtt_noise(vivace_state *s, const pcc_mi_result *r);
/* regain_without_queue (off: all return 0 / do nothing). Whether an MI lost nothing and its mean RTT stayed within
 * the allowance above of the min RTT; a probe MI's result: 1 when it re-entered slow start (the result is
 * consumed). */
int vivace_mi_met_no_queue(const vivace_state *s, const pcc_mi_result *r);
int vivace_regain_on_probe(vivace_state *s, const pcc_mi_result *r);

/* vivace_probing.c */
double vivace_probe_rate(const vivace_state *s, int slot);
void vivace_on_probe_result(vivace_state *s, const pcc_mi_outcome *outcome);
double vivace_bounded_step_mbps(vivace_state *s, double gradient, double rate_mbps);
double vivace_probes_mean_utility(const vivace_state *s, double *noise_var);
void vivace_reset_direction(vivace_state *s);

/* vivace_moving.c */
int vivace_moving_entry_allowed(const vivace_state *s, int direction, int confident);
void vivace_enter_moving(vivace_state *s, double rate, double reference_mbps, double reference_utility,
                         double reference_noise_var, double gradient);
void vivace_on_moving_result(vivace_state *s, const pcc_mi_result *r, double utility, double noise_var);

/* vivace_timeout.c */
void vivace_on_timeout(void *state, const pcc_mi_result *r);
int vivace_start_timeout_recovery(vivace_state *s);
/* Per ack, the MI-timeout episode's bookkeeping: marks episode_ack_silence when the acks had stopped altogether since
 * the halving and came back; with a receive timestamp, undoes halvings the return path alone caused, judges a longer
 * path, and marks srtt_has_return_delay when the ack came late on the way back or its packet was held through a
 * forward silence. */
void vivace_timeout_on_ack(vivace_state *s, const cc_ack_event *event);
void vivace_on_loss(void *state, const cc_loss_event *event);

#endif /* PCC_VIVACE_STATE_H */
