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
 * MI length (§3.2.2): max(time to send mi_min_packets, uniform random in [1.7, 2.2] sRTT), plus a floor
 * in ms so loopback RTTs still give measurable MIs. Results of MIs sent before a decision are dropped
 * (they measured a rate no longer in use). An MI whose packets' fate is still unknown long after it
 * ended counts those packets as lost: to Allegro, silence is the worst loss.
 */
#include "allegro.h"

#include <math.h>

#include "../monitor_interval.h"
#include "../pcc_rate_limits.h"
#include "../portable_math.h"

enum {
    P_EPSILON_MIN,
    P_EPSILON_MAX,
    P_SIGMOID_ALPHA,
    P_LOSS_CUTOFF,
    P_MI_RTTS_MIN,
    P_MI_RTTS_MAX,
    P_MI_MIN_PACKETS,
    P_MI_MIN_DURATION_MS,
    P_MI_TIMEOUT_RTTS,
    P_MI_TIMEOUT_MIN_MS,
    P_MAX_RATE_OVER_SENT,
    P_COUNT
};

static const cc_param_desc allegro_params[P_COUNT] = {
    {"epsilon_min", 0.01, 0.001, 0.5, "ε_min: first trial step and rate-adjusting unit (§3.2.3)"},
    {"epsilon_max", 0.05, 0.001, 0.5, "ε_max: largest trial step after inconclusive rounds (§3.2.3)"},
    {"sigmoid_alpha", 100, 1, 1000, "α of the loss cut-off sigmoid, >= max(2.2(n-1), 100) (§2.3, Theorem 1)"},
    {"loss_cutoff", 0.05, 0, 1, "loss rate where the sigmoid cuts the utility off (§2.3)"},
    {"mi_rtts_min", 1.7, 0.1, 10, "MI length drawn uniformly from [min, max] sRTTs (§3.2.2)"},
    {"mi_rtts_max", 2.2, 0.1, 10, "MI length drawn uniformly from [min, max] sRTTs (§3.2.2)"},
    {"mi_min_packets", 10, 2, 10000, "MI lasts at least the time to send this many MSS (§3.2.2)"},
    {"mi_min_duration_ms", 5, 0, 10000, "MI floor in ms: a few pacer ticks even on loopback"},
    {"mi_timeout_rtts", 5, 1, 100, "unresolved packets of an MI this many sRTTs after it ended count as lost"},
    {"mi_timeout_min_ms", 50, 1, 60000, "floor of the MI timeout, ms"},
    {"max_rate_over_sent", 2.5, 1.1, 1e6, "rate ceiling: this multiple of the best send rate achieved in the last 4 MIs (> 2 so starting can double)"},
};

enum { TAG_STARTING, TAG_HOLD, TAG_ADJUSTING, TAG_TRIAL_FIRST };
/* trial tags: TAG_TRIAL_FIRST + 2 * pair + (0 higher, 1 lower) */
#define TRIAL_PAIRS 2

typedef enum { PHASE_STARTING, PHASE_DECISION, PHASE_ADJUSTING } allegro_phase;
static const char *const phase_names[] = {"starting", "decision", "rate_adjusting"};

#define INITIAL_RTT_GUESS_US 333000.0

typedef struct allegro_state {
    cc_context *ctx;
    pcc_mi_tracker tracker;
    allegro_phase phase;
    uint64_t epoch;
    int restart_mi;
    double base_rate;                 /* bytes/s: r */
    /* starting and rate adjusting: the previous result to compare with */
    int have_previous;
    double previous_rate;
    double previous_utility;
    double next_rate;                 /* latest starting / adjusting MI rate */
    int64_t open_mi_duration_us;      /* drawn when the open MI started */
    unsigned adjust_step;             /* n in eq. 3.1 */
    int direction;
    /* decision making */
    double epsilon;
    int trials_sent;
    int trial_schedule[2 * TRIAL_PAIRS];
    int have_trial[TRIAL_PAIRS][2];
    double trial_utility[TRIAL_PAIRS][2];
    /* telemetry */
    double last_utility;
    cc_mi_stats last_stats;
    uint64_t mi_completed;
} allegro_state;

static double param(const allegro_state *s, int index) { return s->ctx->params[index]; }

static double clamp_rate(const allegro_state *s, double rate) { return pcc_clamp_rate(s->ctx, rate); }

/* No growth beyond what the sender manages to send (application- or CPU-limited; RFC 7661's point). */
static double clamp_to_ceiling(const allegro_state *s, double rate) {
    return pcc_clamp_to_send_ceiling(s->ctx, &s->tracker, param(s, P_MAX_RATE_OVER_SENT), rate);
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

static double epsilon_min(const allegro_state *s) { return param(s, P_EPSILON_MIN); }

static double epsilon_max(const allegro_state *s) {
    double max = param(s, P_EPSILON_MAX);
    return max > epsilon_min(s) ? max : epsilon_min(s);
}

static void new_epoch(allegro_state *s) {
    s->epoch++;
    s->restart_mi = 1;
}

static void enter_decision(allegro_state *s, double rate, double epsilon) {
    s->phase = PHASE_DECISION;
    s->base_rate = clamp_to_ceiling(s, rate);
    s->epsilon = epsilon;
    s->trials_sent = 0;
    for (int pair = 0; pair < TRIAL_PAIRS; pair++) {
        int higher_first = s->ctx->random_unit(s->ctx) < 0.5;
        s->trial_schedule[2 * pair] = TAG_TRIAL_FIRST + 2 * pair + (higher_first ? 0 : 1);
        s->trial_schedule[2 * pair + 1] = TAG_TRIAL_FIRST + 2 * pair + (higher_first ? 1 : 0);
        s->have_trial[pair][0] = s->have_trial[pair][1] = 0;
    }
    new_epoch(s);
}

static void enter_adjusting(allegro_state *s, double rate, int direction) {
    s->phase = PHASE_ADJUSTING;
    s->base_rate = clamp_to_ceiling(s, rate);
    s->direction = direction;
    s->adjust_step = 0;
    s->have_previous = 0;
    s->next_rate = s->base_rate;
    new_epoch(s);
}

static void allegro_init(void *state, cc_context *ctx, int64_t now_us) {
    (void)now_us;
    allegro_state *s = state;
    s->ctx = ctx;
    pcc_mi_tracker_init(&s->tracker);
    s->phase = PHASE_STARTING;
    s->base_rate = clamp_rate(s, ctx->initial_rate_bytes_per_s);
    s->next_rate = s->base_rate;
    s->epsilon = param(s, P_EPSILON_MIN);
}

static int64_t mi_duration_us(allegro_state *s, double rate) {
    double srtt_us = (double)s->ctx->rtt->smoothed_rtt_us;
    double lo = param(s, P_MI_RTTS_MIN), hi = param(s, P_MI_RTTS_MAX);
    if (hi < lo) hi = lo;
    double by_rtt = (lo + (hi - lo) * s->ctx->random_unit(s->ctx)) * srtt_us;
    double by_packets = param(s, P_MI_MIN_PACKETS) * (double)s->ctx->mss_bytes / rate * 1e6;
    double d = by_rtt > by_packets ? by_rtt : by_packets;
    double floor_us = param(s, P_MI_MIN_DURATION_MS) * 1000.0;
    return (int64_t)(d > floor_us ? d : floor_us);
}

static int64_t mi_timeout_us(const allegro_state *s) {
    double srtt_us = s->ctx->rtt->smoothed_rtt_us > 0 ? (double)s->ctx->rtt->smoothed_rtt_us : INITIAL_RTT_GUESS_US;
    double t = param(s, P_MI_TIMEOUT_RTTS) * srtt_us;
    double floor_us = param(s, P_MI_TIMEOUT_MIN_MS) * 1000.0;
    return (int64_t)(t > floor_us ? t : floor_us);
}

static double trial_rate(const allegro_state *s, int tag) {
    int lower = (tag - TAG_TRIAL_FIRST) % 2;
    return clamp_rate(s, s->base_rate * (lower ? 1.0 - s->epsilon : 1.0 + s->epsilon));
}

/* The rate and tag of the next MI; advances the per-MI schedules. */
static void next_mi(allegro_state *s, double *rate, int *tag) {
    switch (s->phase) {
    case PHASE_STARTING:
        *rate = clamp_to_ceiling(s, s->next_rate);
        *tag = TAG_STARTING;
        s->next_rate = clamp_rate(s, *rate * 2.0);
        return;
    case PHASE_ADJUSTING:
        /* eq. 3.1: r_n = r_{n-1}(1 + n·ε_min·dir) */
        s->adjust_step++;
        s->next_rate = clamp_to_ceiling(s, s->next_rate * (1.0 + s->adjust_step * epsilon_min(s) * s->direction));
        *rate = s->next_rate;
        *tag = TAG_ADJUSTING;
        return;
    case PHASE_DECISION:
        if (s->trials_sent < 2 * TRIAL_PAIRS) {
            *tag = s->trial_schedule[s->trials_sent++];
            *rate = trial_rate(s, *tag);
            return;
        }
        *rate = s->base_rate;
        *tag = TAG_HOLD;
        return;
    }
}

static void drain_results(allegro_state *s);

static void allegro_on_packet_sent(void *state, const cc_sent_packet *packet) {
    allegro_state *s = state;
    int64_t now_us = packet->sent_time_us;
    if (s->restart_mi || pcc_mi_due(&s->tracker, s->ctx, now_us, s->open_mi_duration_us, param(s, P_MI_MIN_PACKETS))) {
        pcc_mi_close(&s->tracker, now_us); /* first, so its achieved rate counts for the ceiling */
        pcc_mi_expire(&s->tracker, now_us, mi_timeout_us(s));
        drain_results(s); /* an MI may have completed at its close (tiny RTT) or expired */
        double rate = s->base_rate;
        int tag = TAG_HOLD;
        next_mi(s, &rate, &tag);
        if (pcc_mi_start(&s->tracker, rate, tag, s->epoch, now_us) != NULL) {
            s->open_mi_duration_us = mi_duration_us(s, rate); /* drawn once per MI (§3.2.2) */
        }
        s->restart_mi = 0;
    }
    pcc_mi_on_sent(&s->tracker, packet);
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
    for (int pair = 0; pair < TRIAL_PAIRS; pair++) {
        if (s->trial_utility[pair][0] > s->trial_utility[pair][1]) higher_wins++;
        else if (s->trial_utility[pair][0] < s->trial_utility[pair][1]) lower_wins++;
    }
    if (higher_wins == TRIAL_PAIRS) {
        enter_adjusting(s, s->base_rate * (1.0 + s->epsilon), +1);
    } else if (lower_wins == TRIAL_PAIRS) {
        enter_adjusting(s, s->base_rate * (1.0 - s->epsilon), -1);
    } else {
        /* inconclusive: stay at r with a coarser experiment, ε += ε_min up to ε_max */
        double epsilon = s->epsilon + epsilon_min(s);
        enter_decision(s, s->base_rate, epsilon < epsilon_max(s) ? epsilon : epsilon_max(s));
    }
}

static void on_result(allegro_state *s, const pcc_mi_result *r) {
    s->mi_completed++;
    cc_mi_stats stats = r->stats;
    if (r->timed_out && stats.packets_sent > 0) {
        /* packets still unaccounted for count as lost */
        stats.packets_lost = stats.packets_sent - stats.packets_acked;
        stats.loss_rate = (double)stats.packets_lost / (double)stats.packets_sent;
    }
    double utility = s->ctx->custom_utility != NULL
                         ? s->ctx->custom_utility(&stats, s->ctx->custom_utility_data)
                         : allegro_utility(&stats, param(s, P_SIGMOID_ALPHA), param(s, P_LOSS_CUTOFF));
    s->last_stats = stats;
    s->last_utility = isfinite(utility) ? utility : 0.0;
    if (r->epoch != s->epoch) return;
    if (!isfinite(utility)) {
        /* not comparable: decide afresh at the current rate */
        enter_decision(s, s->phase == PHASE_DECISION ? s->base_rate : stats.target_rate_bps / 8.0, epsilon_min(s));
        return;
    }
    switch (s->phase) {
    case PHASE_STARTING:
        if (r->tag == TAG_STARTING) on_climb_result(s, r, utility);
        if (s->phase == PHASE_STARTING && stats.target_rate_bps / 8.0 >= s->ctx->max_rate_bytes_per_s) {
            enter_decision(s, s->ctx->max_rate_bytes_per_s, epsilon_min(s)); /* nothing left to double */
        }
        return;
    case PHASE_ADJUSTING:
        if (r->tag == TAG_ADJUSTING) on_climb_result(s, r, utility);
        return;
    case PHASE_DECISION: {
        if (r->tag < TAG_TRIAL_FIRST) return;
        int pair = (r->tag - TAG_TRIAL_FIRST) / 2, lower = (r->tag - TAG_TRIAL_FIRST) % 2;
        if (pair >= TRIAL_PAIRS) return;
        s->have_trial[pair][lower] = 1;
        s->trial_utility[pair][lower] = utility;
        for (int p = 0; p < TRIAL_PAIRS; p++) {
            if (!s->have_trial[p][0] || !s->have_trial[p][1]) return;
        }
        on_trials_complete(s);
        return;
    }
    }
}

static void drain_results(allegro_state *s) {
    pcc_mi_result r;
    while (pcc_mi_pop_result(&s->tracker, (double)s->ctx->rtt->min_rtt_us, &r)) on_result(s, &r);
}

static void allegro_on_ack(void *state, const cc_ack_event *event) {
    allegro_state *s = state;
    if (pcc_mi_on_ack(&s->tracker, event->packet, event->rtt_us)) drain_results(s);
}

static void allegro_on_loss(void *state, const cc_loss_event *event) {
    allegro_state *s = state;
    if (pcc_mi_on_loss(&s->tracker, event->packet)) drain_results(s);
}

static void allegro_on_tick(void *state, int64_t now_us) {
    allegro_state *s = state;
    pcc_mi_expire(&s->tracker, now_us, mi_timeout_us(s));
    drain_results(s);
}

static double allegro_pacing_rate(const void *state) {
    const allegro_state *s = state;
    const pcc_mi *open = pcc_mi_open(&s->tracker);
    if (open != NULL && !s->restart_mi) return open->target_rate_bytes_per_s;
    switch (s->phase) {
    case PHASE_STARTING:
        return s->next_rate;
    case PHASE_ADJUSTING:
        return clamp_rate(s, s->next_rate * (1.0 + (s->adjust_step + 1) * epsilon_min(s) * s->direction));
    case PHASE_DECISION:
        return s->trials_sent < 2 * TRIAL_PAIRS ? trial_rate(s, s->trial_schedule[s->trials_sent]) : s->base_rate;
    }
    return s->base_rate;
}

static double allegro_cwnd(const void *state) {
    (void)state;
    return CC_CWND_UNLIMITED_BYTES;
}

static void allegro_telemetry(const void *state, cc_telemetry *out) {
    const allegro_state *s = state;
    out->state = phase_names[s->phase];
    out->mi_rate_bps = allegro_pacing_rate(state) * 8.0;
    out->last_mi_rate_bps = s->last_stats.target_rate_bps;
    out->last_mi_utility = s->last_utility;
    out->last_mi_loss_rate = s->last_stats.loss_rate;
    out->last_mi_rtt_gradient = s->last_stats.rtt_gradient;
    out->last_mi_throughput_bps = s->last_stats.throughput_bps;
    out->mi_completed = s->mi_completed;
}

static void allegro_on_param_changed(void *state, size_t index) {
    allegro_state *s = state;
    if (index == CC_COMMON_PARAMS_CHANGED) {
        if (s->tracker.next_id == 0) {
            /* nothing sent yet: a new initial rate still applies */
            s->base_rate = clamp_rate(s, s->ctx->initial_rate_bytes_per_s);
            s->next_rate = s->base_rate;
        }
        s->base_rate = clamp_rate(s, s->base_rate);
        s->next_rate = clamp_rate(s, s->next_rate);
        s->restart_mi = 1;
    }
}

const cc_ops cc_ops_allegro = {
    .name = "allegro",
    .description = "PCC Allegro: randomized controlled trials on a loss-sigmoid utility (thesis ch. 2-3)",
    .state_size = sizeof(allegro_state),
    .params = allegro_params,
    .param_count = P_COUNT,
    .accepts_custom_utility = 1,
    .delivery_rate_unused = 1,
    .init = allegro_init,
    .on_packet_sent = allegro_on_packet_sent,
    .on_ack = allegro_on_ack,
    .on_loss = allegro_on_loss,
    .on_tick = allegro_on_tick,
    .pacing_rate_bytes_per_s = allegro_pacing_rate,
    .cwnd_bytes = allegro_cwnd,
    .get_telemetry = allegro_telemetry,
    .on_param_changed = allegro_on_param_changed,
};
