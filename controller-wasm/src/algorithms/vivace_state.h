/*
 * PCC Vivace's state and the functions its files share (internal). Vivace is split by concern: vivace.c (the
 * parameters, the MI schedule and what a finished MI means), vivace_utility.c (eq. 4.1 and its noise filters),
 * vivace_slow_start.c (slow start, its exit and drain), vivace_probing.c (probe rounds and the gradient step of
 * §4.4.3), vivace_moving.c (the kernel paper's moving state), vivace_timeout.c (MI timeouts, recovery, undo).
 * The PCC loop (pcc_loop.h) owns everything Vivace shares with Allegro.
 */
#ifndef PCC_VIVACE_STATE_H
#define PCC_VIVACE_STATE_H

#include "../pcc_loop.h"
#include "../pcc_rate_limits.h"
#include "vivace.h"

enum {
    P_EPSILON,
    P_THETA0,
    P_OMEGA0,
    P_OMEGA_DELTA,
    P_THROUGHPUT_EXPONENT,
    P_LATENCY_COEFFICIENT,
    P_LOSS_COEFFICIENT,
    P_LATENCY_FILTER,
    P_DOUBLE_CHECK,
    P_SLOW_START_LOSS_IGNORED,
    P_SLOW_START_LATENCY_IGNORED,
    P_MI_TIMEOUT_RTTS,
    P_MI_DURATION_RTTS,
    P_EPSILON_MIN,
    P_EPSILON_MIN_ON_REVERSAL,
    P_MOVING,
    P_SLOW_START_DELIVERY_GAIN,
    P_SLOW_START_DRAIN,
    P_COUNT
};

/* MI tags; a probe's tag is TAG_PROBE_FIRST + its slot (pcc_probe_round: 2·pair + 1 for the lower rate) */
enum { TAG_SLOW_START, TAG_HOLD, TAG_DRAIN, TAG_MOVING, TAG_PROBE_FIRST };

typedef enum { STATE_SLOW_START, STATE_PROBING, STATE_DOUBLE_CHECK, STATE_MOVING } vivace_phase;

typedef struct probe_result {
    double rate_mbps;
    double utility;
    double loss_rate;
    uint32_t packets;
    double utility_noise_var;        /* variance of the utility from measurement noise, 0 if unknown */
    double delivered_fraction;       /* throughput / send rate: what the path got through of it */
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
    /* drain (slow_start_drain): one MI at drain_rate for drain_duration_us before the next probe round */
    int64_t drain_duration_us;       /* 0: no drain pending */
    double drain_rate;
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
    double recovery_target;          /* bytes/s: timeout recovery's slow start stops here; 0: not recovering */
    int64_t min_one_way_us;          /* lowest receive time - send time seen (clock offset included) */
    int have_one_way;
} vivace_state;

static inline double vivace_param(const vivace_state *s, int index) { return s->loop.ctx->params[index]; }
/* A 0/1 parameter. */
static inline int vivace_flag(const vivace_state *s, int index) { return s->loop.ctx->params[index] >= 0.5; }
static inline double vivace_to_mbps(double bytes_per_s) { return bytes_per_s * 8e-6; }
static inline double vivace_clamp_rate(const vivace_state *s, double rate) { return pcc_clamp_rate(s->loop.ctx, rate); }
/* The rate may not run ahead of what the sender actually manages to send (pcc_rate_limits.h). */
static inline double vivace_clamp_to_ceiling(const vivace_state *s, double rate) {
    return pcc_clamp_to_send_ceiling(s->loop.ctx, &s->loop.tracker, rate);
}

/* vivace.c */
void vivace_enter_probing(vivace_state *s, double base_rate);
double vivace_epsilon_min(const vivace_state *s);

/* vivace_utility.c: the loop's utility hook */
double vivace_mi_utility(void *state, const pcc_mi_result *r, double *noise_var);

/* vivace_slow_start.c */
double vivace_slow_start_rate(const vivace_state *s, double rate);
void vivace_slow_start_next(vivace_state *s, pcc_next_mi *next);
void vivace_on_slow_start_result(vivace_state *s, const pcc_mi_result *r, double utility, double noise_var);

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
void vivace_undo_spurious_timeout(vivace_state *s, const cc_ack_event *event);

#endif /* PCC_VIVACE_STATE_H */
