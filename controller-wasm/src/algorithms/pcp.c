/*
 * PCP, the Probe Control Protocol (seed 001, Anderson et al.), rate-based.
 *
 * Table 2 of the paper, mechanism by mechanism:
 *  - probes (§3.1): a short train of k packets at a test rate (base + increment); success means the
 *    one-way delays measured at the receiver do not rise during the train;
 *  - probabilistic accept (§3.1): a least-squares line through (send time, delay) gives a slope (the
 *    probe's overload) and its standard error; the probe is accepted with the probability that the
 *    true slope is within a small tolerance, so slight overloads sometimes win (§3.3);
 *    a train the application could not send at its rate is no test and gets no verdict;
 *  - direct jump (§3.1): on success the base rate becomes the tested rate at once;
 *  - rate compensation (§3.2): receiver spacing wider than sender spacing (lost bytes counted as
 *    sent) or a standing queue (the delay that persisted through the last round trip over the min
 *    one-way delay) cuts the base rate, at most by half per RTT, applied incrementally against the
 *    cuts made since the measured packets were sent, outliers trimmed 10%/10%;
 *  - periodic probes, binary search, exponential backoff (§3.3): at most one probe per RTT; the
 *    increment doubles on success and halves on failure, bisecting between the base rate and the
 *    lowest failed rate; the smallest request is 1% of the base rate, and failing at it doubles
 *    the probing interval up to 100 RTTs, with the probe placed randomly inside it;
 *  - history (§3.4): a previous base rate for this destination (parameter) makes the first probe
 *    1/3 of it;
 *  - tit for tat (§3.5): when compensation fails to shrink the queue for several RTTs in a row
 *    (a loss-based competitor), compensation is scaled down tenfold until the queue is gone.
 * Not in the paper: when acknowledgements stop altogether the base rate halves per timeout, as a
 * TCP sender's retransmission timeout would.
 * One-way delay is receive time minus send time when the receiver's timestamp is present (its clock
 * offset cancels out of every difference used); otherwise the RTT stands in, as §3.5 proposes.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../cc_algorithm.h"
#include "../portable_math.h"
#include "../validated_rate.h"

enum pcp_param {
    PCP_PARAM_PROBE_PACKETS,
    PCP_PARAM_SLOPE_TOLERANCE,
    PCP_PARAM_SLOPE_NOISE_FLOOR,
    PCP_PARAM_MIN_REQUEST_FRACTION,
    PCP_PARAM_MAX_BACKOFF_RTTS,
    PCP_PARAM_MAX_COMPENSATION,
    PCP_PARAM_OUTLIER_TRIM,
    PCP_PARAM_DELAY_DEADBAND_US,
    PCP_PARAM_MIN_DELAY_WINDOW_S,
    PCP_PARAM_HISTORY_RATE_BPS,
    PCP_PARAM_HISTORY_FRACTION,
    PCP_PARAM_TIT_FOR_TAT_RTTS,
    PCP_PARAM_TIT_FOR_TAT_SCALE,
    PCP_PARAM_TIT_FOR_TAT_MIN_QUEUE,
    PCP_PARAM_PROBE_TIMEOUT_RTTS,
    PCP_PARAM_COUNT
};

#define PCP_MAX_PROBE_PACKETS 64

static const cc_param_desc pcp_params[PCP_PARAM_COUNT] = {
    {"pcp_probe_packets", 5.0, 3.0, (double)PCP_MAX_PROBE_PACKETS, "packets per probe train, k (seed 001 §3.1: 5)"},
    {"pcp_slope_tolerance", 0.05, 0.0, 1.0, "probe delay slope (us/us = overload fraction) accepted half the time (§3.1, §3.3)"},
    {"pcp_slope_noise_floor", 0.02, 0.0, 1.0, "least spread of the slope estimate in the probabilistic accept (§3.1, §3.3)"},
    {"pcp_min_request_fraction", 0.01, 0.0001, 0.5, "smallest probe increment as a fraction of the base rate (§3.3: 1%)"},
    {"pcp_max_backoff_rtts", 100.0, 1.0, 10000.0, "longest probing interval after repeated failures, in RTTs (§3.3: 100)"},
    {"pcp_max_compensation", 0.5, 0.0, 0.9, "largest rate cut per round trip (§3.2: half, the TCP backoff)"},
    {"pcp_outlier_trim", 0.1, 0.0, 0.4, "fraction of lowest and of highest measurements discarded (§3.2: 10%)"},
    {"pcp_delay_deadband_us", 0.0, 0.0, 1e6, "queueing delay below this is ignored by rate compensation"},
    {"pcp_min_delay_window_s", 10.0, 0.1, 3600.0, "min one-way delay expires after this long (§3.2 routing changes)"},
    {"pcp_history_rate_bps", 0.0, 0.0, 1e12, "base rate last used to this destination, bits/s; 0 = no history (§3.4)"},
    {"pcp_history_fraction", 1.0 / 3.0, 0.001, 1.0, "first probe = this fraction of the history rate (§3.4: 1/3)"},
    {"pcp_tit_for_tat_rtts", 3.0, 0.0, 100.0, "ineffective compensation for this many RTTs triggers tit for tat; 0 = off (§3.5)"},
    {"pcp_tit_for_tat_scale", 0.1, 0.0, 1.0, "compensation is multiplied by this under tit for tat (§3.5: a factor of ten)"},
    {"pcp_tit_for_tat_min_queue", 0.05, 0.0, 10.0, "only a queue above this fraction of the min RTT can make compensation count as ineffective"},
    {"pcp_probe_timeout_rtts", 4.0, 1.0, 100.0, "a probe unanswered this many RTTs after its last packet counts as failed"},
};

#define PCP_SAMPLE_RING 256
#define PCP_REDUCTION_RING 64
#define PCP_LOSS_RING 64
/* A train whose packets left slower than this fraction of its rate was application-limited. */
#define PCP_MIN_TRAIN_RATE_FRACTION 0.8
#define PCP_COMPENSATE_EVERY_ACKS 8   /* the most often compensation is evaluated */
/* Silence (no ack at all) for max(3 srtt, srtt + 4 rttvar, 200 ms) halves the base rate. */
#define PCP_SILENCE_RTTS 3
#define PCP_SILENCE_MIN_US 200000
/* A cut smaller than this (per RTT) is noise-level trimming, not an attempt to drain a queue. */
#define PCP_MEANINGFUL_CUT 0.05

typedef struct pcp_sample {
    int64_t sent_us;
    int64_t out_us;       /* receiver timestamp, or ack arrival when there is none */
    int64_t ack_us;
    double delay_us;      /* one-way delay (receiver clock offset included) or RTT */
    uint32_t bytes;
    int is_probe;
} pcp_sample;

typedef struct pcp_loss {
    int64_t time_us;      /* when the loss was reported */
    uint64_t bytes;
} pcp_loss;

typedef struct pcp_reduction {
    int64_t time_us;
    double factor;        /* new rate / old rate */
} pcp_reduction;

typedef struct pcp_probe {
    int active;           /* a train is being sent or awaits its verdict */
    int sending;          /* fewer than k packets of the train sent so far */
    uint32_t packets_target;
    uint32_t packets_sent;
    uint32_t packets_done;    /* acked or lost */
    int any_lost;
    double increment_bytes_per_s;
    int64_t start_us;
    int64_t last_send_us;
    uint64_t train_bytes;     /* bytes of the train after its first packet */
    int app_limited;          /* the sender said it ran out of data during the train */
    uint64_t pn[PCP_MAX_PROBE_PACKETS];
    int64_t sent_us[PCP_MAX_PROBE_PACKETS];
    double delay_us[PCP_MAX_PROBE_PACKETS];
    int acked[PCP_MAX_PROBE_PACKETS];
} pcp_probe;

typedef enum pcp_phase { PCP_STARTUP, PCP_PROBING, PCP_HOLDING, PCP_BACKOFF } pcp_phase;

typedef struct pcp_state {
    cc_context *ctx;
    double base_rate_bytes_per_s;
    cc_validated_rate validated;   /* delivery rates measured lately: the app-limited rule (validated_rate.h) */
    double increment_bytes_per_s;      /* next probe's request */
    double first_increment_bytes_per_s; /* the first probe's request (history or initial rate) */
    double failed_rate_bytes_per_s;    /* lowest total rate that failed; 0 = none (binary search bound) */
    double backoff_rtts;
    int any_probe_failed;
    int64_t next_probe_us;
    pcp_probe probe;
    int64_t unanswered_since_us;       /* first send since the last ack; 0 = none */
    int64_t silence_cut_us;            /* last cut for silence; 0 = none since the last ack */

    /* Measurements for rate compensation. */
    pcp_sample samples[PCP_SAMPLE_RING];
    size_t sample_head, sample_count;
    int delay_from_receiver;           /* which kind of delay the samples hold */
    int delay_kind_known;
    double min_delay_us;
    int64_t min_delay_stamp_us;
    int min_delay_valid;
    pcp_loss losses[PCP_LOSS_RING];
    size_t loss_head, loss_count;
    pcp_reduction reductions[PCP_REDUCTION_RING];
    size_t reduction_head, reduction_count;
    uint32_t acks_since_compensation;
    uint32_t compensate_every_acks;    /* about 8 evaluations per round trip, at least every 8 acks */

    /* Tit for tat: per-RTT epochs of the measured queue. */
    int64_t epoch_start_us;
    double previous_epoch_queue_us;
    double epoch_cut_factor;           /* product of this epoch's cuts */
    double cut_one_epoch_ago;          /* fraction cut in the previous epochs */
    double cut_two_epochs_ago;
    uint32_t ineffective_epochs;
    int tit_for_tat;

    /* Telemetry. */
    uint64_t probes_completed;
    uint64_t probes_accepted;
    double last_probe_rate_bytes_per_s;
    double last_probe_slope;
    double last_probe_accept_probability;
    double last_queue_delay_us;
    double scratch[PCP_SAMPLE_RING];
} pcp_state;

static double pcp_param(const pcp_state *s, enum pcp_param p) { return s->ctx->params[p]; }

static int64_t pcp_rtt_us(const pcp_state *s)
{
    int64_t srtt = s->ctx->rtt->smoothed_rtt_us;
    return srtt > 0 ? srtt : (int64_t)CC_INITIAL_RTT_US;
}

static double pcp_min_request(const pcp_state *s)
{
    double request = pcp_param(s, PCP_PARAM_MIN_REQUEST_FRACTION) * s->base_rate_bytes_per_s;
    /* With no base rate yet, 1% of nothing would stall the search: ask at least for the floor. */
    double floor_rate = s->ctx->min_rate_bytes_per_s;
    return request > floor_rate ? request : floor_rate;
}

static void pcp_clamp_base(pcp_state *s)
{
    double max_rate = s->ctx->max_rate_bytes_per_s;
    if (!isfinite(s->base_rate_bytes_per_s) || s->base_rate_bytes_per_s < 0.0) s->base_rate_bytes_per_s = 0.0;
    if (s->base_rate_bytes_per_s > max_rate) s->base_rate_bytes_per_s = max_rate;
}

static void pcp_init(void *state, cc_context *ctx, int64_t now_us)
{
    pcp_state *s = state;
    s->ctx = ctx;
    s->backoff_rtts = 1.0;
    s->next_probe_us = now_us;
    /* §3.4: with history, start at a fraction of the old base rate; otherwise at the framework's
     * initial rate (the paper's one packet per half RTT needs a handshake RTT we do not have). */
    double history = pcp_param(s, PCP_PARAM_HISTORY_RATE_BPS) / 8.0;
    if (history > 0.0)
        s->increment_bytes_per_s = history * pcp_param(s, PCP_PARAM_HISTORY_FRACTION);
    else
        s->increment_bytes_per_s = ctx->initial_rate_bytes_per_s;
    s->first_increment_bytes_per_s = s->increment_bytes_per_s;
    s->epoch_start_us = now_us;
    s->epoch_cut_factor = 1.0;
    s->compensate_every_acks = PCP_COMPENSATE_EVERY_ACKS;
}

static double pcp_pacing_rate_bytes_per_s(const void *state)
{
    const pcp_state *s = state;
    double rate = s->base_rate_bytes_per_s;
    if (s->probe.active && s->probe.sending) rate += s->probe.increment_bytes_per_s;
    return rate;
}

static void pcp_start_probe(pcp_state *s, int64_t now_us)
{
    double max_rate = s->ctx->max_rate_bytes_per_s;
    /* The search doubles the increment as the base grows (§3.3): the n-th increment is the base
     * plus the first one, never above twice the base. When compensation has cut the base since, a
     * stale large increment would leap far past anything measured (and on links that deliver in
     * bursts the delay test cannot catch it), so it is held to that bound. */
    double cap = 2.0 * s->base_rate_bytes_per_s;
    if (cap < s->first_increment_bytes_per_s) cap = s->first_increment_bytes_per_s;
    if (s->increment_bytes_per_s > cap) s->increment_bytes_per_s = cap;
    double increment = s->increment_bytes_per_s;
    if (s->base_rate_bytes_per_s + increment > max_rate) increment = max_rate - s->base_rate_bytes_per_s;
    if (increment <= 0.0) {
        /* Already at the ceiling: nothing to ask for; look again in a round trip. */
        s->next_probe_us = now_us + pcp_rtt_us(s);
        return;
    }
    memset(&s->probe, 0, sizeof s->probe);
    s->probe.active = 1;
    s->probe.sending = 1;
    s->probe.packets_target = (uint32_t)pcp_param(s, PCP_PARAM_PROBE_PACKETS);
    s->probe.increment_bytes_per_s = increment;
    s->probe.start_us = now_us;
    s->probe.last_send_us = now_us;
}

/* Standard normal CDF. */
static double pcp_normal_cdf(double z) { return 0.5 * pcc_erfc(-z / sqrt(2.0)); }

/* §3.1: least squares through (send time, delay); the probability that the slope is at most the
 * tolerance, taking the fit's standard error as the spread of the estimate. The slope is the
 * probe's overload: (probe rate - available rate) / available rate. §3.3 wants a probe that causes
 * "a small amount of queuing" to succeed now and then, so that newcomers win bandwidth and rate
 * compensation makes incumbents give some back; with the default tolerance of 5% and spread floor
 * of 2%, an exactly flat train is accepted with Phi(2.5) = 99.4%, a 5% overload half the time, 10%
 * with 0.6%. Without the floor a noise-free path would never accept any overload and a full link
 * would freeze whatever split it has. */
static double pcp_probe_accept_probability(pcp_state *s, double *slope_out)
{
    const pcp_probe *p = &s->probe;
    double xs[PCP_MAX_PROBE_PACKETS], ys[PCP_MAX_PROBE_PACKETS];
    size_t n = 0;
    for (uint32_t i = 0; i < p->packets_sent; i++) {
        if (!p->acked[i]) continue;
        xs[n] = (double)(p->sent_us[i] - p->sent_us[0]);
        ys[n] = p->delay_us[i] - p->delay_us[0];
        n++;
    }
    *slope_out = 0.0;
    if (n < 3) return 0.0;
    double mean_x = 0.0, mean_y = 0.0;
    for (size_t i = 0; i < n; i++) {
        mean_x += xs[i];
        mean_y += ys[i];
    }
    mean_x /= (double)n;
    mean_y /= (double)n;
    double sxx = 0.0, sxy = 0.0;
    for (size_t i = 0; i < n; i++) {
        sxx += (xs[i] - mean_x) * (xs[i] - mean_x);
        sxy += (xs[i] - mean_x) * (ys[i] - mean_y);
    }
    if (sxx < 1.0) {
        /* The train left in one burst (no pacing below 1 us): no time axis to fit against. */
        return 0.0;
    }
    double slope = sxy / sxx;
    double ssr = 0.0;
    for (size_t i = 0; i < n; i++) {
        double residual = ys[i] - mean_y - slope * (xs[i] - mean_x);
        ssr += residual * residual;
    }
    double fit_error = sqrt(ssr / (double)(n - 2) / sxx);
    double floor_error = pcp_param(s, PCP_PARAM_SLOPE_NOISE_FLOOR);
    double standard_error = sqrt(fit_error * fit_error + floor_error * floor_error);
    *slope_out = slope;
    double tolerance = pcp_param(s, PCP_PARAM_SLOPE_TOLERANCE);
    /* Below 1e-9 (a nanosecond per second) the fit is exact for practical purposes. */
    if (!(standard_error > 1e-9)) return slope <= tolerance + 1e-9 ? 1.0 : 0.0;
    return pcp_normal_cdf((tolerance - slope) / standard_error);
}

static void pcp_schedule_next_probe(pcp_state *s, int64_t now_us)
{
    int64_t rtt_us = pcp_rtt_us(s);
    int64_t earliest = s->probe.start_us + rtt_us;   /* §3.3: never more than one probe per RTT */
    /* Not within the event that delivered the verdict: the new base rate is visible for a moment. */
    if (earliest <= now_us) earliest = now_us + 1;
    if (s->backoff_rtts > 1.0) {
        /* §3.3: the probe is placed randomly within the backed-off interval. */
        double span_us = (s->backoff_rtts - 1.0) * (double)rtt_us;
        earliest += (int64_t)(s->ctx->random_unit(s->ctx) * span_us);
    }
    s->next_probe_us = earliest;
}

/* A train sent slower than its rate tested nothing: an application that had no data would
 * otherwise see every probe succeed and the base rate grow without bound. */
static int pcp_train_was_app_limited(const pcp_state *s)
{
    const pcp_probe *p = &s->probe;
    if (p->app_limited) return 1;
    if (p->packets_sent < 2) return 0;
    double span_us = (double)(p->sent_us[p->packets_sent - 1] - p->sent_us[0]);
    if (span_us <= 0.0) return 0;
    double train_rate = (double)p->train_bytes * 1e6 / span_us;
    return train_rate < PCP_MIN_TRAIN_RATE_FRACTION * (s->base_rate_bytes_per_s + p->increment_bytes_per_s);
}

static void pcp_finish_probe(pcp_state *s, int64_t now_us)
{
    pcp_probe *p = &s->probe;
    if (pcp_train_was_app_limited(s)) {
        /* Inconclusive: no verdict; try again a round trip later. A sender that ran out of data keeps no base
         * rate beyond what it validated (validated_rate.h, the rule the PCC loop applies to its MIs). */
        double ceiling = p->app_limited ? cc_app_limited_rate_ceiling(&s->validated, s->ctx, now_us, CC_RATE_OVER_VALIDATED) : 0.0;
        if (ceiling > 0 && s->base_rate_bytes_per_s > ceiling) {
            s->base_rate_bytes_per_s = ceiling;
            pcp_clamp_base(s);
        }
        p->active = 0;
        p->sending = 0;
        pcp_schedule_next_probe(s, now_us);
        return;
    }
    double slope = 0.0;
    double probability = p->any_lost ? 0.0 : pcp_probe_accept_probability(s, &slope);
    int accepted = s->ctx->random_unit(s->ctx) < probability;
    double tested_rate = s->base_rate_bytes_per_s + p->increment_bytes_per_s;
    double min_request = pcp_min_request(s);

    s->probes_completed++;
    s->last_probe_rate_bytes_per_s = tested_rate;
    s->last_probe_slope = slope;
    s->last_probe_accept_probability = probability;

    if (accepted) {
        s->probes_accepted++;
        s->base_rate_bytes_per_s = tested_rate;   /* §3.1 direct jump */
        pcp_clamp_base(s);
        s->backoff_rtts = 1.0;
        double next = 2.0 * p->increment_bytes_per_s;
        if (s->failed_rate_bytes_per_s > 0.0) {
            /* §3.3 binary search: bisect what is left below the lowest failed rate. */
            double half_gap = (s->failed_rate_bytes_per_s - s->base_rate_bytes_per_s) / 2.0;
            if (half_gap < next) next = half_gap;
        }
        min_request = pcp_min_request(s);
        if (next < min_request) {
            /* The search has converged (or the failed rate went stale): start over from the minimum. */
            next = min_request;
            s->failed_rate_bytes_per_s = 0.0;
        }
        s->increment_bytes_per_s = next;
    } else {
        s->any_probe_failed = 1;
        if (s->failed_rate_bytes_per_s <= 0.0 || tested_rate < s->failed_rate_bytes_per_s)
            s->failed_rate_bytes_per_s = tested_rate;
        if (p->increment_bytes_per_s <= min_request * (1.0 + 1e-9)) {
            /* §3.3: failing at the minimum request backs off exponentially; the search is over. */
            double doubled = s->backoff_rtts * 2.0;
            double limit = pcp_param(s, PCP_PARAM_MAX_BACKOFF_RTTS);
            s->backoff_rtts = doubled < limit ? doubled : limit;
            s->failed_rate_bytes_per_s = 0.0;
            s->increment_bytes_per_s = min_request;
        } else {
            double half = p->increment_bytes_per_s / 2.0;
            s->increment_bytes_per_s = half > min_request ? half : min_request;
        }
    }
    p->active = 0;
    p->sending = 0;
    pcp_schedule_next_probe(s, now_us);
}

static void pcp_on_packet_sent(void *state, const cc_sent_packet *packet)
{
    pcp_state *s = state;
    pcp_probe *p = &s->probe;
    if (s->unanswered_since_us == 0) s->unanswered_since_us = packet->sent_time_us;
    if (!p->active || !p->sending) return;
    uint32_t index = p->packets_sent++;
    p->pn[index] = packet->pn;
    p->sent_us[index] = packet->sent_time_us;
    p->last_send_us = packet->sent_time_us;
    if (index > 0) p->train_bytes += packet->bytes;
    if (packet->is_app_limited) p->app_limited = 1;
    if (p->packets_sent >= p->packets_target) p->sending = 0;   /* back to the base rate */
}

static int pcp_probe_index(const pcp_probe *p, uint64_t pn)
{
    if (!p->active) return -1;
    for (uint32_t i = 0; i < p->packets_sent; i++) {
        if (p->pn[i] == pn) return (int)i;
    }
    return -1;
}

/* k-th smallest of values[0..n), n > 0, k < n (Wirth's selection; reorders values). */
static double pcp_select(double *values, size_t n, size_t k)
{
    long lo = 0, hi = (long)n - 1, target = (long)k;
    while (lo < hi) {
        double pivot = values[target];
        long i = lo, j = hi;
        do {
            while (values[i] < pivot) i++;
            while (pivot < values[j]) j--;
            if (i <= j) {
                double t = values[i];
                values[i] = values[j];
                values[j] = t;
                i++;
                j--;
            }
        } while (i <= j);
        if (j < target) lo = i;
        if (target < i) hi = j;
    }
    return values[target];
}

static const pcp_sample *pcp_sample_at(const pcp_state *s, size_t age)
{
    /* age 0 = newest */
    return &s->samples[(s->sample_head + s->sample_count - 1 - age) % PCP_SAMPLE_RING];
}

/* Product of the cuts made since `since_us` (§3.2 incremental application). Cuts older than a few
 * round trips can no longer matter and are dropped. */
static double pcp_reduction_factor_since(pcp_state *s, int64_t now_us, int64_t since_us)
{
    int64_t keep_us = 4 * pcp_rtt_us(s);
    while (s->reduction_count > 0 && s->reductions[s->reduction_head].time_us < now_us - keep_us) {
        s->reduction_head = (s->reduction_head + 1) % PCP_REDUCTION_RING;
        s->reduction_count--;
    }
    double factor = 1.0;
    for (size_t i = 0; i < s->reduction_count; i++) {
        const pcp_reduction *r = &s->reductions[(s->reduction_head + i) % PCP_REDUCTION_RING];
        if (r->time_us >= since_us) factor *= r->factor;
    }
    return factor;
}

static void pcp_record_reduction(pcp_state *s, int64_t now_us, double factor)
{
    if (s->reduction_count == PCP_REDUCTION_RING) {
        /* Fold the oldest into its neighbour so the product stays exact. */
        size_t oldest = s->reduction_head;
        size_t next = (oldest + 1) % PCP_REDUCTION_RING;
        s->reductions[next].factor *= s->reductions[oldest].factor;
        s->reduction_head = next;
        s->reduction_count--;
    }
    s->reductions[(s->reduction_head + s->reduction_count) % PCP_REDUCTION_RING] =
        (pcp_reduction){.time_us = now_us, .factor = factor};
    s->reduction_count++;
}

/* §3.2: the fraction by which the base rate should have dropped over the last round trip. */
static void pcp_required_compensation(pcp_state *s, int64_t now_us, int64_t window_us, int64_t *oldest_sent_us,
                                      double *queue_fraction, double *gap_fraction)
{
    double trim = pcp_param(s, PCP_PARAM_OUTLIER_TRIM);
    size_t n = 0;
    double delivered_bytes = 0.0, lost_bytes = 0.0;
    for (size_t i = 0; i < s->loss_count; i++) {
        const pcp_loss *loss = &s->losses[(s->loss_head + i) % PCP_LOSS_RING];
        if (loss->time_us >= now_us - window_us) lost_bytes += (double)loss->bytes;
    }
    for (size_t age = 0; age < s->sample_count; age++) {
        const pcp_sample *sample = pcp_sample_at(s, age);
        if (sample->ack_us < now_us - window_us) break;
        if (n == 0 || sample->sent_us < *oldest_sent_us) *oldest_sent_us = sample->sent_us;
        delivered_bytes += sample->bytes;
        s->scratch[n++] = sample->delay_us;
    }
    *queue_fraction = 0.0;
    *gap_fraction = 0.0;
    uint32_t every = (uint32_t)(n / 8);
    s->compensate_every_acks = every > PCP_COMPENSATE_EVERY_ACKS ? every : PCP_COMPENSATE_EVERY_ACKS;
    if (n < 4) return;

    /* Standing queue over the min delay, drained within one round trip. The paper compares the max
     * delay of the last round trip; but a queue that is already draining (or a probe's short bump)
     * also raises the max, and cutting for it again overshoots: after a capacity drop the queue
     * takes several round trips to drain, and a cut in each leaves the rate far below the new
     * capacity once it is gone. The delay that held through the whole round trip (trimmed minimum)
     * is the persistent queue the paper aims at (§3.2). */
    if (s->min_delay_valid) {
        size_t k = (size_t)ceil(trim * (double)(n - 1));
        double persistent = pcp_select(s->scratch, n, k);
        double queue_us = persistent - s->min_delay_us;
        s->last_queue_delay_us = queue_us > 0.0 ? queue_us : 0.0;
        /* The paper divides by max one-way delay; with an unknown receiver clock offset we use
         * the round trip (min RTT + queue), which is what "drain within one RTT" needs. */
        double min_rtt_us = (double)(s->ctx->rtt->min_rtt_us > 0 ? s->ctx->rtt->min_rtt_us : pcp_rtt_us(s));
        if (queue_us > pcp_param(s, PCP_PARAM_DELAY_DEADBAND_US)) *queue_fraction = queue_us / (queue_us + min_rtt_us);
    }

    /* Receiver spacing wider than sender spacing: reduce by (out - in) / out. Summed over the
     * consecutive packets of the window the gaps telescope into spans; the 10% outliers are
     * trimmed at both ends of the window (per-pair ratios are useless on links that deliver in
     * bursts, where most receive gaps are zero). The paper's test assumes no loss, but a droptail
     * queue that drops most of what we send leaves the survivors' spacing matched; so the sent side
     * counts the bytes lost in the window too: fraction = 1 - D / (D + L) x in / out. */
    size_t newest = (size_t)floor(trim * (double)(n - 1));          /* ages: 0 = newest */
    size_t oldest = (size_t)ceil((1.0 - trim) * (double)(n - 1));
    const pcp_sample *last = pcp_sample_at(s, newest);
    const pcp_sample *first = pcp_sample_at(s, oldest);
    double span_in = (double)(last->sent_us - first->sent_us);
    double span_out = (double)last->out_us - (double)first->out_us;   /* receiver clock: any value */
    if (span_in > 0.0 && span_out > 0.0) {
        double delivered_share = delivered_bytes / (delivered_bytes + lost_bytes);
        double fraction = 1.0 - delivered_share * span_in / span_out;
        if (fraction > 0.0) *gap_fraction = fraction;
    }
}

static void pcp_compensate(pcp_state *s, int64_t now_us)
{
    int64_t window_us = pcp_rtt_us(s);
    int64_t oldest_sent_us = now_us;
    double queue_fraction, gap_fraction;
    pcp_required_compensation(s, now_us, window_us, &oldest_sent_us, &queue_fraction, &gap_fraction);
    /* Tit for tat (§3.5) softens draining the queue a competitor keeps full; it never lets the
     * flow send faster than its own packets get through (the gap test), which only builds loss. */
    if (s->tit_for_tat) queue_fraction *= pcp_param(s, PCP_PARAM_TIT_FOR_TAT_SCALE);
    double required = queue_fraction > gap_fraction ? queue_fraction : gap_fraction;
    double max_cut = pcp_param(s, PCP_PARAM_MAX_COMPENSATION);
    if (required > max_cut) required = max_cut;
    if (required <= 0.0) return;
    /* The measurements describe packets sent since oldest_sent_us; cuts made since then already
     * answer them ("prior compensation is presumed to have eliminated the overloads", §3.2). */
    double applied = 1.0 - pcp_reduction_factor_since(s, now_us, oldest_sent_us);
    if (required <= applied + 1e-12) return;
    double factor = (1.0 - required) / (1.0 - applied);
    s->base_rate_bytes_per_s *= factor;
    pcp_clamp_base(s);
    pcp_record_reduction(s, now_us, factor);
    s->epoch_cut_factor *= factor;
}

/* §3.5: once per RTT, was compensation effective at shrinking the queue? */
static void pcp_update_epoch(pcp_state *s, int64_t now_us)
{
    if (now_us - s->epoch_start_us < pcp_rtt_us(s)) return;
    /* The queue as measured at the end of the epoch (a peak inside it may predate the cuts). */
    double queue_us = s->last_queue_delay_us;
    uint32_t needed = (uint32_t)pcp_param(s, PCP_PARAM_TIT_FOR_TAT_RTTS);
    /* A queue of a few packets is the accept rule's intended residue (§3.3), not a competitor. */
    double min_rtt_us = (double)(s->ctx->rtt->min_rtt_us > 0 ? s->ctx->rtt->min_rtt_us : pcp_rtt_us(s));
    int significant = queue_us > pcp_param(s, PCP_PARAM_TIT_FOR_TAT_MIN_QUEUE) * min_rtt_us;
    s->cut_two_epochs_ago = s->cut_one_epoch_ago;
    s->cut_one_epoch_ago = 1.0 - s->epoch_cut_factor;
    if (s->tit_for_tat) {
        /* Stays on while the queue persists; when the competitor leaves the queue drains. */
        if (!significant) s->tit_for_tat = 0;
        s->ineffective_epochs = 0;
    } else {
        /* A cut shows in the acks a round trip after it is made, and the queue measured over a
         * round trip lags by one more: judge a real cut from two epochs back by today's queue. */
        int ineffective = s->cut_two_epochs_ago >= PCP_MEANINGFUL_CUT && significant &&
                          queue_us >= s->previous_epoch_queue_us;
        s->ineffective_epochs = ineffective ? s->ineffective_epochs + 1 : 0;
        if (needed > 0 && s->ineffective_epochs >= needed) s->tit_for_tat = 1;
    }
    s->previous_epoch_queue_us = queue_us;
    s->epoch_cut_factor = 1.0;
    s->epoch_start_us = now_us;
}

static void pcp_check_timers(pcp_state *s, int64_t now_us)
{
    pcp_probe *p = &s->probe;
    int64_t rtt_us = pcp_rtt_us(s);
    if (p->active) {
        int64_t timeout_us = (int64_t)(pcp_param(s, PCP_PARAM_PROBE_TIMEOUT_RTTS) * (double)rtt_us);
        if (p->sending) {
            /* The train is paced at the probe rate: allow a few of its packet gaps on top. */
            double probe_rate = s->base_rate_bytes_per_s + p->increment_bytes_per_s;
            double gap_us = (double)s->ctx->mss_bytes * 1e6 / (probe_rate > 1.0 ? probe_rate : 1.0);
            int64_t since_us = now_us - (p->packets_sent > 0 ? p->last_send_us : p->start_us);
            if ((double)since_us <= (double)timeout_us + 4.0 * gap_us) return;
            if (p->packets_sent < 3) {
                /* The application stopped sending: no verdict, try again later. */
                p->active = 0;
                p->sending = 0;
                s->next_probe_us = now_us + rtt_us;
                return;
            }
            p->sending = 0;   /* judge the train on what was sent */
            if (p->packets_done >= p->packets_sent) pcp_finish_probe(s, now_us);
            return;
        }
        if (now_us - p->last_send_us > timeout_us) {
            /* Unanswered packets count as lost. */
            if (p->packets_done < p->packets_sent) p->any_lost = 1;
            pcp_finish_probe(s, now_us);
        }
        return;
    }
    if (now_us >= s->next_probe_us) pcp_start_probe(s, now_us);
}

static void pcp_record_sample(pcp_state *s, const cc_ack_event *event, double delay_us, int is_probe)
{
    pcp_sample sample = {
        .sent_us = event->packet->sent_time_us,
        .out_us = event->recv_time_us > 0 ? event->recv_time_us : event->now_us,
        .ack_us = event->now_us,
        .delay_us = delay_us,
        .bytes = event->packet->bytes,
        .is_probe = is_probe,
    };
    if (s->sample_count == PCP_SAMPLE_RING) {
        s->sample_head = (s->sample_head + 1) % PCP_SAMPLE_RING;
        s->sample_count--;
    }
    s->samples[(s->sample_head + s->sample_count) % PCP_SAMPLE_RING] = sample;
    s->sample_count++;
}

static void pcp_on_ack(void *state, const cc_ack_event *event)
{
    pcp_state *s = state;
    int64_t now_us = event->now_us;
    cc_validated_rate_on_ack(&s->validated, event);
    s->unanswered_since_us = 0;
    s->silence_cut_us = 0;
    int from_receiver = event->recv_time_us > 0;
    if (!s->delay_kind_known || from_receiver != s->delay_from_receiver) {
        /* Receiver timestamps appeared or vanished: old delays are on another scale. */
        s->delay_kind_known = 1;
        s->delay_from_receiver = from_receiver;
        s->sample_count = 0;
        s->min_delay_valid = 0;
    }
    /* In doubles: the receiver's clock is arbitrary and an int64 difference could overflow. */
    double delay_us = from_receiver ? (double)event->recv_time_us - (double)event->packet->sent_time_us
                                    : (double)event->rtt_us;
    int64_t window_us = (int64_t)(pcp_param(s, PCP_PARAM_MIN_DELAY_WINDOW_S) * 1e6);
    if (!s->min_delay_valid || delay_us < s->min_delay_us || now_us - s->min_delay_stamp_us > window_us) {
        s->min_delay_us = delay_us;
        s->min_delay_stamp_us = now_us;
        s->min_delay_valid = 1;
    }

    int index = pcp_probe_index(&s->probe, event->packet->pn);
    pcp_record_sample(s, event, delay_us, index >= 0);
    if (index >= 0 && !s->probe.acked[index]) {
        s->probe.acked[index] = 1;
        s->probe.delay_us[index] = delay_us;
        s->probe.packets_done++;
        if (!s->probe.sending && s->probe.packets_done >= s->probe.packets_sent) pcp_finish_probe(s, now_us);
    }

    if (++s->acks_since_compensation >= s->compensate_every_acks) {
        s->acks_since_compensation = 0;
        pcp_compensate(s, now_us);
    }
    pcp_update_epoch(s, now_us);
    pcp_check_timers(s, now_us);
}

static void pcp_record_loss(pcp_state *s, const cc_loss_event *event)
{
    if (s->loss_count > 0) {
        pcp_loss *last = &s->losses[(s->loss_head + s->loss_count - 1) % PCP_LOSS_RING];
        if (last->time_us == event->now_us) {
            last->bytes += event->packet->bytes;
            return;
        }
    }
    if (s->loss_count == PCP_LOSS_RING) {
        /* Fold the oldest into the next so no lost byte is forgotten early. */
        size_t next = (s->loss_head + 1) % PCP_LOSS_RING;
        s->losses[next].bytes += s->losses[s->loss_head].bytes;
        s->loss_head = next;
        s->loss_count--;
    }
    s->losses[(s->loss_head + s->loss_count) % PCP_LOSS_RING] =
        (pcp_loss){.time_us = event->now_us, .bytes = event->packet->bytes};
    s->loss_count++;
}

static void pcp_on_loss(void *state, const cc_loss_event *event)
{
    pcp_state *s = state;
    pcp_record_loss(s, event);
    /* Loss by itself is no congestion signal in PCP (§4.2.5): it fails a probe it hits, and rate
     * compensation counts lost bytes as sent when it compares sent and delivered rates. */
    int index = pcp_probe_index(&s->probe, event->packet->pn);
    if (index < 0 || s->probe.acked[index]) return;
    s->probe.acked[index] = 0;
    s->probe.any_lost = 1;
    s->probe.packets_done++;
    if (!s->probe.sending && s->probe.packets_done >= s->probe.packets_sent) pcp_finish_probe(s, event->now_us);
}

/* Rate compensation needs acknowledgements; when they stop altogether (the path went dark), a
 * rate-based sender would go on at full rate forever. Not in the paper: like TCP's retransmission
 * timeout (RFC 6298, 200 ms floor as in Linux), halve the base rate for every timeout of silence. */
static void pcp_check_silence(pcp_state *s, int64_t now_us)
{
    if (s->unanswered_since_us == 0) return;
    const cc_rtt_view *rtt = s->ctx->rtt;
    int64_t srtt_us = pcp_rtt_us(s);
    int64_t timeout_us = PCP_SILENCE_RTTS * srtt_us;
    if (srtt_us + 4 * rtt->rtt_var_us > timeout_us) timeout_us = srtt_us + 4 * rtt->rtt_var_us;
    if (timeout_us < PCP_SILENCE_MIN_US) timeout_us = PCP_SILENCE_MIN_US;
    int64_t since_us = s->silence_cut_us > 0 ? s->silence_cut_us : s->unanswered_since_us;
    if (now_us - since_us <= timeout_us) return;
    s->base_rate_bytes_per_s *= 0.5;
    pcp_clamp_base(s);
    s->silence_cut_us = now_us;
}

static void pcp_on_tick(void *state, int64_t now_us)
{
    pcp_state *s = state;
    pcp_check_silence(s, now_us);
    pcp_update_epoch(s, now_us);
    pcp_check_timers(s, now_us);
}

static double pcp_cwnd_bytes(const void *state)
{
    (void)state;
    return CC_CWND_UNLIMITED_BYTES;
}

static pcp_phase pcp_current_phase(const pcp_state *s)
{
    if (s->probe.active) return s->any_probe_failed ? PCP_PROBING : PCP_STARTUP;
    if (!s->any_probe_failed) return PCP_STARTUP;
    return s->backoff_rtts > 1.0 ? PCP_BACKOFF : PCP_HOLDING;
}

static void pcp_get_telemetry(const void *state, cc_telemetry *out)
{
    const pcp_state *s = state;
    static const char *const names[] = {"startup", "probing", "holding", "backoff"};
    out->state = s->tit_for_tat ? "tit_for_tat" : names[pcp_current_phase(s)];
    out->mi_rate_bps = s->probe.active ? (s->base_rate_bytes_per_s + s->probe.increment_bytes_per_s) * 8.0 : 0.0;
    out->last_mi_rate_bps = s->last_probe_rate_bytes_per_s * 8.0;
    out->last_mi_rtt_gradient = s->last_probe_slope;
    out->last_mi_utility = s->last_probe_accept_probability;
    out->mi_completed = s->probes_completed;
}

static void pcp_on_param_changed(void *state, size_t index)
{
    pcp_state *s = state;
    if (index == PCP_PARAM_MAX_BACKOFF_RTTS && s->backoff_rtts > pcp_param(s, PCP_PARAM_MAX_BACKOFF_RTTS))
        s->backoff_rtts = pcp_param(s, PCP_PARAM_MAX_BACKOFF_RTTS);
    if (index == PCP_PARAM_HISTORY_RATE_BPS || index == PCP_PARAM_HISTORY_FRACTION || index == CC_COMMON_PARAMS_CHANGED) {
        /* History and the initial rate only shape the search while nothing has been learned yet. */
        double history = pcp_param(s, PCP_PARAM_HISTORY_RATE_BPS) / 8.0;
        if (s->probes_completed == 0 && !s->probe.active) {
            s->increment_bytes_per_s = history > 0.0 ? history * pcp_param(s, PCP_PARAM_HISTORY_FRACTION)
                                                     : s->ctx->initial_rate_bytes_per_s;
            s->first_increment_bytes_per_s = s->increment_bytes_per_s;
        }
    }
    if (index == CC_COMMON_PARAMS_CHANGED) pcp_clamp_base(s);
}

const cc_ops cc_ops_pcp = {
    .name = "pcp",
    .description = "PCP: probe trains with a probabilistic delay-trend test, direct jump, rate compensation (seed 001 §3)",
    .state_size = sizeof(pcp_state),
    .params = pcp_params,
    .param_count = PCP_PARAM_COUNT,
    .accepts_custom_utility = 0,
    .delivery_rate_unused = 0,   /* the app-limited rule reads it */
    .init = pcp_init,
    .release = 0,
    .on_packet_sent = pcp_on_packet_sent,
    .on_ack = pcp_on_ack,
    .on_loss = pcp_on_loss,
    .on_tick = pcp_on_tick,
    .pacing_rate_bytes_per_s = pcp_pacing_rate_bytes_per_s,
    .cwnd_bytes = pcp_cwnd_bytes,
    .get_telemetry = pcp_get_telemetry,
    .on_param_changed = pcp_on_param_changed,
};
