#include "pcc_rate_limits.h"

double pcc_clamp_rate(const cc_context *ctx, double rate_bytes_per_s) {
    if (!(rate_bytes_per_s >= ctx->min_rate_bytes_per_s)) return ctx->min_rate_bytes_per_s; /* also NaN */
    if (rate_bytes_per_s > ctx->max_rate_bytes_per_s) return ctx->max_rate_bytes_per_s;
    return rate_bytes_per_s;
}

double pcc_clamp_to_send_ceiling(const cc_context *ctx, const pcc_mi_tracker *tracker, double rate_bytes_per_s) {
    double rate = pcc_clamp_rate(ctx, rate_bytes_per_s);
    double sent = pcc_mi_recent_send_rate(tracker);
    if (!(sent > 0)) return rate;
    double ceiling = PCC_MAX_RATE_OVER_SENT * sent;
    /* Never below the initial rate: RFC 5681 §4.1's restart window and RFC 7661 keep an application-limited sender's
     * window at the initial one at least; a low send rate is not evidence the path carries less. */
    if (ceiling < ctx->initial_rate_bytes_per_s) ceiling = ctx->initial_rate_bytes_per_s;
    ceiling = pcc_clamp_rate(ctx, ceiling);
    return rate < ceiling ? rate : ceiling;
}
