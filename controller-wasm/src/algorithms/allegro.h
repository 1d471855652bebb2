/* PCC Allegro (internal): its utility, its state and what a variant needs to reuse the state machine (allegro.c). */
#ifndef PCC_ALLEGRO_H
#define PCC_ALLEGRO_H

#include "../cc_algorithm.h"
#include "../pcc_loop.h"

enum {
    ALLEGRO_P_EPSILON_MIN,
    ALLEGRO_P_EPSILON_MAX,
    ALLEGRO_P_SIGMOID_ALPHA,
    ALLEGRO_P_LOSS_CUTOFF,
    ALLEGRO_P_MI_RTTS_MIN,
    ALLEGRO_P_MI_RTTS_MAX,
    ALLEGRO_P_MI_TIMEOUT_RTTS,
    ALLEGRO_P_COUNT
};

/* MI tags; a trial's tag is ALLEGRO_TAG_TRIAL_FIRST + its probe slot (pcc_probe_round) */
enum { ALLEGRO_TAG_STARTING, ALLEGRO_TAG_HOLD, ALLEGRO_TAG_ADJUSTING, ALLEGRO_TAG_TRIAL_FIRST };

typedef enum { PHASE_STARTING, PHASE_DECISION, PHASE_ADJUSTING } allegro_phase;

/* The parameter table's rows; a variant puts them first in its own table, its own indices from ALLEGRO_P_COUNT on. */
#define ALLEGRO_PARAM_ROWS \
    {"epsilon_min", 0.01, 0.001, 0.5, "ε_min: first trial step and rate-adjusting unit (§3.2.3)"}, \
    {"epsilon_max", 0.05, 0.001, 0.5, "ε_max: largest trial step after inconclusive rounds (§3.2.3)"}, \
    {"sigmoid_alpha", 100, 1, 1000, "α of the loss cut-off sigmoid, >= max(2.2(n-1), 100) (§2.3, Theorem 1)"}, \
    {"loss_cutoff", 0.05, 0, 1, "loss rate where the sigmoid cuts the utility off (§2.3)"}, \
    {"mi_rtts_min", 1.7, 0.1, 10, "MI length drawn uniformly from [min, max] sRTTs (§3.2.2)"}, \
    {"mi_rtts_max", 2.2, 0.1, 10, "MI length drawn uniformly from [min, max] sRTTs (§3.2.2)"}, \
    {"mi_timeout_rtts", 5, 1, 100, "unresolved packets of an MI this many sRTTs after it ended count as lost"}

typedef struct allegro_state {
    pcc_loop loop;                    /* first: the PCC loop's ops receive this state */
    allegro_phase phase;
    double base_rate;                 /* bytes/s: r */
    /* starting and rate adjusting: the previous result to compare with */
    int have_previous;
    double previous_rate;
    double previous_utility;
    double next_rate;                 /* latest starting / adjusting MI rate */
    unsigned adjust_step;             /* n in eq. 3.1 */
    int direction;
    /* decision making */
    double epsilon;
    pcc_probe_round trials;
    double trial_utility[PCC_PROBE_SLOTS];
} allegro_state;

/* u = T·Sigmoid_α(L - loss_cutoff) - x·L with T = x(1 - L), Sigmoid_α(y) = 1/(1 + e^(αy)),
 * x the send rate in Mbit/s (thesis §2.3). */
double allegro_utility(const cc_mi_stats *mi, double sigmoid_alpha, double loss_cutoff);

/* §3.4.4's latency-aware utility (allegro_latency.c): (T·Sigmoid_α(L - loss_cutoff)·RTT_{n-1}/RTT_n - x·L) / RTT_n,
 * RTTs in seconds, RTT_n the MI's average RTT; previous_rtt_s 0 (no earlier MI): no change of RTT. */
double allegro_latency_utility(const cc_mi_stats *mi, double previous_rtt_s, double sigmoid_alpha, double loss_cutoff);

/* The loop's utility hook: allegro_utility with the parameters. */
double allegro_mi_utility(void *state, const pcc_mi_result *r, double *noise_var);

/* Allegro's state machine as PCC-loop hooks. A variant (e.g. one with a latency-aware utility) is one file: its
 * parameter table ({ALLEGRO_PARAM_ROWS, its own rows}), a utility, hooks = ALLEGRO_HOOKS(utility), an init
 * calling allegro_init_with_hooks, and ALLEGRO_OPS. */
void allegro_next_mi(void *state, pcc_next_mi *next);
double allegro_pending_rate(const void *state);
double allegro_mi_span_us(void *state);
double allegro_mi_timeout_rtts(const void *state);
void allegro_on_result(void *state, const pcc_mi_outcome *outcome);
void allegro_rebound(void *state, int nothing_sent);
const char *allegro_state_name(const void *state);
void allegro_limit_rate(void *state, double ceiling_rate, double start_ceiling_rate);
void allegro_init_with_hooks(allegro_state *s, cc_context *ctx, const pcc_hooks *hooks);

#define ALLEGRO_HOOKS(utility_fn)                                                                            \
    {                                                                                                        \
        .next_mi = allegro_next_mi, .pending_rate = allegro_pending_rate, .mi_span_us = allegro_mi_span_us, \
        .mi_timeout_rtts = allegro_mi_timeout_rtts, .timeout_from_expected_feedback = 0, .utility = utility_fn, \
        .on_result = allegro_on_result, .rebound = allegro_rebound, .state_name = allegro_state_name,        \
        .limit_rate = allegro_limit_rate,                                                                    \
    }
#define ALLEGRO_OPS(ops_name, text, params_table, count, init_fn)                                            \
    {                                                                                                        \
        .name = ops_name, .description = text, .state_size = sizeof(allegro_state), .params = params_table,  \
        .param_count = count, .delivery_rate_unused = 0 /* the app-limited rule reads it */, .init = init_fn, \
        PCC_LOOP_OPS,                                                                                        \
    }

#endif /* PCC_ALLEGRO_H */
