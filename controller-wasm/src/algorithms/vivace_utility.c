/*
 * PCC Vivace's utility (thesis eq. 4.1) and the filters that make one MI's value trustworthy enough to compare
 * (§4.4.4 "contending with unreliable statistics"): the RTT gradient's significance, the low-pass filter on
 * loss, and the variance the loss count's binomial noise adds, which the decisions weigh differences against.
 */
#include "vivace_state.h"

#include <math.h>

#include "../portable_math.h"

/* An MI's RTT gradient counts only beyond this many standard errors of its regression (clustered samples:
 * monitor_interval.c), as the published user-space code filters by its own standard error: acks that reach the
 * sender in late batches tilt the regression without any queue. */
#define RTT_GRADIENT_STDERR_FILTER 2.0
/* gradient_span_ms: a probing MI's gradient beyond this multiple of ε is more than its step can explain (eq. 4.4: a probe
 * at r(1 + ε) with r at most the capacity grows the queue at most at ε), so it is the path's doing, and is forgiven
 * when the span shows no queue growing. A smaller one is the probe's own queue, which eq. 4.1 must keep charging: that
 * is what holds the rate below the capacity on a steady link. */
#define SPAN_STEP_MULTIPLE 2.0
/* Weight of the recent average loss rate in an MI's loss rate: halves the binomial noise of one MI's count,
 * keeps the expected x·L term. */
#define LOSS_SMOOTHING 0.5

double vivace_utility(const cc_mi_stats *mi, const vivace_utility_coefficients *k) {
    double x = mi->send_rate_bps * 1e-6;
    if (!(x > 0)) return 0.0;
    double loss = mi->loss_rate < k->loss_ignored_below ? 0.0 : mi->loss_rate;
    double gradient = mi->rtt_gradient;
    if (fabs(gradient) < k->latency_filter || gradient < k->latency_ignored_below) gradient = 0.0;
    /* Only a rising RTT counts: in the model behind eq. 4.1 (§4.3.1, eq. 4.4) latency grows at (S - C)/C when
     * the senders overshoot and is flat otherwise; a draining queue is no reward. */
    if (gradient < 0) gradient = 0.0;
    double reward = pcc_pow(x, k->throughput_exponent);
    /* Above a cap the reward falls as fast as it would have risen (2·cap^t - x^t): the utility peaks at the cap,
     * so probing and slow start settle there rather than wander on a flat top. */
    if (k->throughput_cap_mbps > 0 && x > k->throughput_cap_mbps) {
        reward = 2.0 * pcc_pow(k->throughput_cap_mbps, k->throughput_exponent) - reward;
    }
    return reward - k->latency_coefficient * x * gradient - k->loss_coefficient * x * loss;
}

/* The MI's RTT gradient, 0 when it is within its regression's noise. */
static double significant_rtt_gradient(const pcc_mi_result *r) {
    if (RTT_GRADIENT_STDERR_FILTER * r->rtt_gradient_stderr > fabs(r->stats.rtt_gradient)) return 0.0;
    return r->stats.rtt_gradient;
}

/* A rising RTT gradient less the part the sender's own unevenness inside the MI explains (monitor_interval.h,
 * emission_gradient). Eq. 4.1's latency term stands for (S - C)/C (§4.3.1, eq. 4.4), the queue a rate above the
 * capacity builds, and the model's sender is fluid. A late send turn's catch-up queues at any capacity, and just
 * below it drains for the rest of the MI, so the slope rises at a rate the path carries; charged, it pulls the rate
 * down whatever the rate is. What the emission cannot explain is still charged. A queue of one packet across the MI
 * is packet granularity, not unevenness (the simulator's sender makes that much where one MI's rate follows
 * another's), so only the emission slope beyond 1/packets counts. */
static double rate_driven_gradient(const pcc_mi_result *r, double gradient) {
    double uneven = r->stats.packets_sent > 0 ? r->emission_gradient - 1.0 / (double)r->stats.packets_sent : 0.0;
    if (!(gradient > 0) || !(uneven > 0)) return gradient;
    return gradient > uneven ? gradient - uneven : 0.0;
}

/* Whether the MI met a growing queue, as the utility counts one: a significant RTT gradient beyond the latency filter. */
int vivace_mi_queue_grew(const vivace_state *s, const pcc_mi_result *r) {
    double gradient = significant_rtt_gradient(r);
    return gradient > 0 && gradient >= vivace_param(s, VIVACE_P_LATENCY_FILTER);
}

/* gradient_span_ms: the slope of the RTT over the MIs sent in the last max(span, sRTT) up to this MI's end, this one
 * included; it pools their regressions (monitor_interval.h). Eq. 4.1's latency term stands for the queue a rate above
 * the capacity builds (§4.3.1, eq. 4.4). Where the capacity swings faster than an MI (an LTE scheduler's 3x within
 * 100 ms), one MI at the mean capacity meets a trough and reads a queue that the next peak drains: the regression over
 * a span of the swing shows it flat, as a rate above the mean capacity still shows it growing. The kernel-module
 * paper makes the same point for noisy RTT samples, which it filters over more than one MI. Returns 0 when no
 * earlier MI lies in the span (*pooled = 0): the MI's own gradient stands. */
static double span_gradient(const vivace_state *s, const pcc_mi_result *r, int *pooled) {
    *pooled = 0;
    double span_us = vivace_param(s, VIVACE_P_GRADIENT_SPAN_MS) * 1000.0;
    double srtt_us = (double)s->loop.ctx->rtt->smoothed_rtt_us;
    if (srtt_us > span_us) span_us = srtt_us;
    pcc_regression sum = r->rtt;
    unsigned kept = s->span_written < VIVACE_SPAN_MIS ? s->span_written : VIVACE_SPAN_MIS;
    for (unsigned i = 1; i <= kept; i++) {
        unsigned at = (s->span_written - i) % VIVACE_SPAN_MIS;
        if ((double)(r->end_time_us - s->span_start_us[at]) > span_us) break;
        pcc_regression_merge(&sum, &s->span_rtt[at], (double)(s->span_start_us[at] - r->start_time_us));
        *pooled = 1;
    }
    return *pooled ? pcc_regression_slope(&sum) : 0.0;
}

static void span_note(vivace_state *s, const pcc_mi_result *r) {
    if (r->timed_out || r->rtt.n == 0) return;
    unsigned at = s->span_written % VIVACE_SPAN_MIS;
    s->span_rtt[at] = r->rtt;
    s->span_start_us[at] = r->start_time_us;
    s->span_written++;
}

double vivace_mi_utility(void *state, const pcc_mi_result *r, double *noise_var) {
    return vivace_mi_utility_adjusted(state, r, noise_var, 1.0, 0.0);
}

double vivace_mi_utility_adjusted(void *state, const pcc_mi_result *r, double *noise_var, double latency_scale,
                                  double throughput_cap_mbps) {
    vivace_state *s = state;
    const pcc_loop *loop = &s->loop;
    cc_mi_stats stats = r->stats;
    int slow_start = r->tag == VIVACE_TAG_SLOW_START;
    /* Slow start keeps the whole gradient: its exit has its own tests of a gradient the rate did not cause
     * (vivace_slow_start.c), and a sender that stalls while the rate doubles must still stop the doubling. */
    stats.rtt_gradient = slow_start ? significant_rtt_gradient(r) : rate_driven_gradient(r, significant_rtt_gradient(r));
    if (vivace_param(s, VIVACE_P_GRADIENT_SPAN_MS) > 0) {
        /* the span's pooled regression only for a probing MI whose gradient its step cannot explain */
        if (!slow_start && stats.rtt_gradient > SPAN_STEP_MULTIPLE * vivace_param(s, VIVACE_P_EPSILON)) {
            int pooled;
            double spanned = span_gradient(s, r, &pooled);
            if (pooled && spanned < vivace_param(s, VIVACE_P_LATENCY_FILTER)) stats.rtt_gradient = 0.0;
        }
        span_note(s, r);
    }
    /* Slow start's th_loss (Table 4.1) is weighed against the loss this MI measured, not the filtered value below: an
     * MI that lost every packet filters to less than 1, and th_loss = 1 ignored it, so slow start never ended while
     * every packet was lost. */
    int loss_ignored = slow_start && r->stats.loss_rate < vivace_param(s, VIVACE_P_SLOW_START_LOSS_IGNORED);
    /* Low-pass filter on loss, the counterpart of the latency filter: a loss rate every rate shares (random loss)
     * keeps its full weight in the expected utility (x·L_avg), the noise of one MI's count shrinks by (1 - w). */
    double smoothing = LOSS_SMOOTHING;
    if (loop->have_loss_average) stats.loss_rate = (1 - smoothing) * stats.loss_rate + smoothing * loop->loss_average;
    else smoothing = 0;
    if (loss_ignored) stats.loss_rate = 0.0;
    vivace_utility_coefficients k = {
        .throughput_exponent = vivace_param(s, VIVACE_P_THROUGHPUT_EXPONENT),
        .latency_coefficient = latency_scale * vivace_param(s, VIVACE_P_LATENCY_COEFFICIENT),
        .loss_coefficient = vivace_param(s, VIVACE_P_LOSS_COEFFICIENT),
        .latency_filter = vivace_param(s, VIVACE_P_LATENCY_FILTER),
        .loss_ignored_below = 0.0, /* applied above, to the MI's own loss */
        .latency_ignored_below = slow_start ? vivace_param(s, VIVACE_P_SLOW_START_LATENCY_IGNORED) : 0.0,
        .throughput_cap_mbps = throughput_cap_mbps,
    };
    double u = vivace_utility(&stats, &k);
    double x = stats.send_rate_bps * 1e-6;
    if (stats.packets_sent > 0 && x > 0) {
        /* Binomial variance of the loss count. In slow start MIs are short, so the (lost + 1)/(sent + 2)
         * estimate keeps a handful of loss-free packets from passing as a noiseless measurement; later the
         * recent average loss rate is the better estimate of the underlying probability (0 on a loss-free path,
         * so clean gradients keep the thesis's amplifier). RTT noise needs no term: an RTT gradient within its
         * standard error was zeroed above. */
        double n = (double)stats.packets_sent;
        double p = slow_start || !loop->have_loss_average ? ((double)r->stats.packets_lost + 1.0) / (n + 2.0)
                                                          : loop->loss_average;
        double loss_sd = (1 - smoothing) * k.loss_coefficient * x * sqrt(p * (1 - p) / n);
        *noise_var = loss_sd * loss_sd;
        if (!isfinite(*noise_var)) *noise_var = 0.0;
    }
    return u;
}
