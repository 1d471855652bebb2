/*
 * The PCC loop, owned once for every utility-based PCC algorithm (Allegro, Vivace, their variants).
 *
 * PCC (thesis §3.2.2) cuts the sender's timeline into monitor intervals (MIs), each at one rate; when an MI's
 * results are in, its utility decides the next rates. What is the same for every PCC variant lives here: the
 * MI sequence on each send (close the open MI, expire overdue ones, hand over finished results, ask for the
 * next MI, open it), MI length floors and MI timeouts, the epochs that drop results measured before a decision,
 * ack/loss/tick/app-limited handling, the random order of probe pairs (randomized controlled trials, §3.2.3),
 * the utility call (a custom one replaces the built-in), pacing between decisions and the common telemetry.
 * An algorithm fills a pcc_hooks table with what differs - the next MI's rate, what a finished MI's result
 * means, its utility - as Linux's tcp_cong.c lends modules tcp_slow_start and tcp_cong_avoid_ai.
 *
 * Use: put a pcc_loop as the FIRST member of the algorithm's state, call pcc_loop_init from the algorithm's
 * init, and list PCC_LOOP_OPS in its cc_ops table. The hooks receive that state.
 */
#ifndef PCC_LOOP_H
#define PCC_LOOP_H

#include "cc_algorithm.h"
#include "monitor_interval.h"
#include "validated_rate.h"

/* MI floors (§3.2.2): an MI lasts at least the time to send this many MSS at its rate, and this long, so it
 * always holds enough packets and pacer ticks to measure even at loopback RTTs and low rates. */
#define PCC_MI_MIN_PACKETS 10
#define PCC_MI_MIN_DURATION_US 5000.0
/* Floor of the MI timeout: acks batched at tiny RTTs are no silence. */
#define PCC_MI_TIMEOUT_MIN_US 50000.0
/* Probe pairs per round: two that must agree, the randomized controlled trials of §3.2.3. */
#define PCC_PROBE_PAIRS 2
#define PCC_PROBE_SLOTS (2 * PCC_PROBE_PAIRS)
/* Weight of a new MI in the recent average loss rate (about a 10-MI memory). */
#define PCC_LOSS_AVERAGE_WEIGHT 0.1

/* What the algorithm wants the next MI to be. */
typedef struct pcc_next_mi {
    double rate_bytes_per_s;
    int tag;                     /* the algorithm's label, handed back with the result */
    int64_t duration_us;         /* 0: the usual length (mi_span_us and the floors) */
} pcc_next_mi;

/* A finished MI as the algorithm sees it (only results of the current epoch reach on_result). */
typedef struct pcc_mi_outcome {
    const pcc_mi_result *result; /* stats: for algorithms without on_timeout, a timed-out MI's unknown packets count as lost */
    double utility;              /* 0 when not a finite number */
    int valid;                   /* the utility is a finite number */
    double noise_var;            /* variance measurement noise adds to the utility (0: unknown, or a custom utility) */
} pcc_mi_outcome;

typedef struct pcc_hooks {
    /* The next MI; advances the algorithm's schedule. Called when an MI is due (or the epoch changed). */
    void (*next_mi)(void *state, pcc_next_mi *next);
    /* The rate the next MI will get, for the pacer between a decision and the next send. No side effects. */
    double (*pending_rate)(const void *state);
    /* An MI's length from the RTT, before the floors; called once when the MI opens (may draw randomness). */
    double (*mi_span_us)(void *state);
    /* T_timeout, in RTTs (§4.4.4). */
    double (*mi_timeout_rtts)(const void *state);
    /* 1: an MI times out T_timeout min RTTs after the feedback it could expect when it opened (its end plus the
     * sRTT then), so a queue the sender builds itself does not stretch the timeout; 0: T_timeout sRTTs after its end. */
    int timeout_from_expected_feedback;
    /* The built-in utility of a finished MI; *noise_var may be set (starts at 0). */
    double (*utility)(void *state, const pcc_mi_result *result, double *noise_var);
    /* A timed-out MI of the current epoch (NULL: its unknown packets count as lost and it is an ordinary result). */
    void (*on_timeout)(void *state, const pcc_mi_result *result);
    /* A finished MI of the current epoch. */
    void (*on_result)(void *state, const pcc_mi_outcome *outcome);
    /* Optional: an ack, before the MI bookkeeping sees it. */
    void (*on_ack)(void *state, const cc_ack_event *event);
    /* Optional: a loss, before the MI bookkeeping sees it. */
    void (*on_loss)(void *state, const cc_loss_event *event);
    /* The common parameters (rate bounds, initial rate) changed: bring the rates held inside the bounds;
     * nothing_sent: the initial rate still applies. */
    void (*rebound)(void *state, int nothing_sent);
    /* Optional: one of the algorithm's own parameters changed. */
    void (*on_param_changed)(void *state, size_t index);
    /* Telemetry state name. */
    const char *(*state_name)(const void *state);
    /* The sender could not fill an MI (it was app-limited): the rates the algorithm holds must not exceed
     * ceiling_rate, those of a start-up doubling start_ceiling_rate (validated_rate.h); it decides again there. */
    void (*limit_rate)(void *state, double ceiling_rate, double start_ceiling_rate);
} pcc_hooks;

/* The random order of a round's probe pairs (§3.2.3): slot = 2·pair + lower (0: the higher rate r(1+ε),
 * 1: the lower r(1-ε)), each pair in its own random order. */
typedef struct pcc_probe_round {
    int sent;                                  /* slots already sent */
    int order[PCC_PROBE_SLOTS];                /* slots in send order */
    int have[PCC_PROBE_SLOTS];                 /* result in, by slot */
} pcc_probe_round;

typedef struct pcc_loop {
    cc_context *ctx;
    const pcc_hooks *hooks;
    pcc_mi_tracker tracker;
    uint64_t epoch;                  /* one per decision: older MIs' results are dropped */
    int restart_mi;                  /* cut the open MI short at the next send */
    int64_t open_mi_duration_us;     /* length of the open MI, fixed when it opened */
    int open_mi_sized_by_rtt;        /* 1: that length came from the sRTT (mi_span_us), not the algorithm */
    /* recent average loss rate over MIs, weighted by PCC_LOSS_AVERAGE_WEIGHT */
    int have_loss_average;
    double loss_average;
    /* the delivery rate validated lately, and the latest event's time (for the app-limited rule) */
    cc_validated_rate validated;
    int64_t now_us;
    /* telemetry */
    double gradient;                 /* the algorithm's last utility gradient, if it has one */
    double last_utility;
    cc_mi_stats last_stats;
    uint64_t mi_completed;
} pcc_loop;

void pcc_loop_init(pcc_loop *loop, cc_context *ctx, const pcc_hooks *hooks);

/* A decision took effect: results of MIs sent before it no longer describe the current rate, and the open MI
 * is cut short so the new rate applies at once (§3.2.2). */
void pcc_loop_new_epoch(pcc_loop *loop);

/* The MI timeout: T_timeout min RTTs or sRTTs (timeout_from_expected_feedback; before any sample RFC 9002's
 * initial RTT), at least PCC_MI_TIMEOUT_MIN_US. */
int64_t pcc_loop_mi_timeout_us(const pcc_loop *loop);
/* The open MI, if the sRTT sized it and that length is more than stale_factor times what the sRTT says now, ends at
 * the length the sRTT says now (it stays open until it has carried its minimum packets, as any MI). */
void pcc_loop_shorten_stale_mi(pcc_loop *loop, double stale_factor);

/* For the rebound hook: brings an algorithm's base rate and next rate inside the bounds; both start from the
 * initial rate while nothing was sent. */
void pcc_loop_rebound_rates(const pcc_loop *loop, int nothing_sent, double *base_rate, double *next_rate);

/* A new probe round: each pair's order drawn from the seeded PRNG. */
void pcc_probe_round_start(pcc_probe_round *round, cc_context *ctx);
/* The next slot to send, or -1 when all are out; pcc_probe_round_take also advances. */
int pcc_probe_round_peek(const pcc_probe_round *round);
int pcc_probe_round_take(pcc_probe_round *round);
/* Records a slot's result; 1 when every slot's result is in. */
int pcc_probe_round_record(pcc_probe_round *round, int slot);
static inline int pcc_probe_slot_pair(int slot) { return slot / 2; }
static inline int pcc_probe_slot_lower(int slot) { return slot % 2; }

/* The cc_ops entries the loop implements; state is the algorithm's state, whose first member is a pcc_loop. */
void pcc_loop_on_packet_sent(void *state, const cc_sent_packet *packet);
void pcc_loop_on_ack(void *state, const cc_ack_event *event);
void pcc_loop_on_loss(void *state, const cc_loss_event *event);
void pcc_loop_on_tick(void *state, int64_t now_us);
void pcc_loop_on_app_state(void *state, const cc_app_state *app, int64_t now_us);
double pcc_loop_pacing_rate(const void *state);
double pcc_loop_cwnd(const void *state);
void pcc_loop_telemetry(const void *state, cc_telemetry *out);
void pcc_loop_on_param_changed(void *state, size_t index);

#define PCC_LOOP_OPS                                                                                          \
    .accepts_custom_utility = 1, .on_packet_sent = pcc_loop_on_packet_sent, .on_ack = pcc_loop_on_ack,        \
    .on_loss = pcc_loop_on_loss, .on_tick = pcc_loop_on_tick, .on_app_state = pcc_loop_on_app_state,      \
    .pacing_rate_bytes_per_s = pcc_loop_pacing_rate, .cwnd_bytes = pcc_loop_cwnd,                            \
    .get_telemetry = pcc_loop_telemetry, .on_param_changed = pcc_loop_on_param_changed

#endif /* PCC_LOOP_H */
