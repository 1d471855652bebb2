#include "pcc_rate_limits.h"

double pcc_clamp_rate(const cc_context *ctx, double rate_bytes_per_s) {
    if (!(rate_bytes_per_s >= ctx->min_rate_bytes_per_s)) return ctx->min_rate_bytes_per_s; /* also NaN */
    if (rate_bytes_per_s > ctx->max_rate_bytes_per_s) return ctx->max_rate_bytes_per_s;
    return rate_bytes_per_s;
}

double pcc_clamp_to_send_ceiling(const cc_context *ctx, const pcc_mi_tracker *tracker, double max_rate_over_sent,
                                 double rate_bytes_per_s) {
    double rate = pcc_clamp_rate(ctx, rate_bytes_per_s);
    double sent = pcc_mi_recent_send_rate(tracker);
    if (!(sent > 0)) return rate;
    double ceiling = pcc_clamp_rate(ctx, max_rate_over_sent * sent);
    return rate < ceiling ? rate : ceiling;
}

int pcc_mi_due(const pcc_mi_tracker *tracker, const cc_context *ctx, int64_t now_us, int64_t open_mi_duration_us,
               double min_packets) {
    const pcc_mi *open = pcc_mi_open(tracker);
    if (open == NULL) return 1;
    return ctx->rtt->smoothed_rtt_us > 0 && now_us - open->start_time_us >= open_mi_duration_us &&
           open->packets_sent >= (uint32_t)min_packets;
}
