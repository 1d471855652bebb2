#include "validated_rate.h"

#include <math.h>

static double window_us(const cc_rtt_view *rtt) {
    double w = CC_VALIDATION_WINDOW_SRTTS * (double)(rtt->smoothed_rtt_us > 0 ? rtt->smoothed_rtt_us : (int64_t)CC_INITIAL_RTT_US);
    return w > CC_VALIDATION_WINDOW_MIN_US ? w : CC_VALIDATION_WINDOW_MIN_US;
}

void cc_validated_rate_on_ack(cc_validated_rate *v, const cc_ack_event *event) {
    if (cc_path_silence_spans(event->silence, event->packet)) return;
    double sample = event->delivery_rate_bytes_per_s;
    if (!(sample > 0) || !isfinite(sample)) return;
    /* A packet sent before any ack since the flow last started from idle (tcp_rate.c restarts both clocks then;
     * only an ack moves them apart) gives a sample of part of one flight over at least an RTT: the pace of the
     * application's first packets (a session's control packets, the head of a segment), not the path's. */
    if (event->packet->first_sent_time_at_send_us == event->packet->delivered_time_at_send_us) return;
    int i = v->current;
    double slot_us = window_us(event->rtt) / CC_VALIDATION_SLOTS;
    if (!v->used[i] || (double)(event->now_us - v->slot_start_us[i]) >= slot_us) {
        if (v->used[i]) i = v->current = (i + 1) % CC_VALIDATION_SLOTS;
        v->used[i] = 1;
        v->slot_start_us[i] = event->now_us;
        v->slot_max_bytes_per_s[i] = sample;
    } else if (sample > v->slot_max_bytes_per_s[i]) {
        v->slot_max_bytes_per_s[i] = sample;
    }
    v->slot_last_us[i] = event->now_us;
}

double cc_validated_rate_bytes_per_s(const cc_validated_rate *v, const cc_rtt_view *rtt, int64_t now_us) {
    /* A sub-window counts while its newest sample is within the window, not only its first: the window follows the
     * sRTT, which falls tenfold within a few acks when a queue that held the acks through a fade is gone (the held
     * acks had raised it to a second), and a sub-window begun before the fade but filled through it would drop out
     * whole, leaving the window to the next few acks (PTO probes, a new request's first packets: tens of kbit/s). */
    double oldest_us = (double)now_us - window_us(rtt);
    double best = 0.0;
    for (int i = 0; i < CC_VALIDATION_SLOTS; i++) {
        if (v->used[i] && (double)v->slot_last_us[i] >= oldest_us && v->slot_max_bytes_per_s[i] > best) {
            best = v->slot_max_bytes_per_s[i];
        }
    }
    /* Nothing measured lately (an idle gap): the last measurement is the newest validation there is. */
    if (!(best > 0) && v->used[v->current]) best = v->slot_max_bytes_per_s[v->current];
    return best;
}

double cc_app_limited_rate_ceiling(const cc_validated_rate *v, const cc_context *ctx, int64_t now_us, double gain) {
    double validated = cc_validated_rate_bytes_per_s(v, ctx->rtt, now_us);
    if (!(validated > 0)) return 0.0;
    double ceiling = gain * validated;
    /* Never below the initial rate, as the send-rate ceiling (pcc_rate_limits.c; RFC 5681 §4.1's restart window):
     * a sender that could not fill its rate learnt nothing that takes it below where a new flow starts. */
    if (ceiling < ctx->initial_rate_bytes_per_s) ceiling = ctx->initial_rate_bytes_per_s;
    if (ceiling < ctx->min_rate_bytes_per_s) ceiling = ctx->min_rate_bytes_per_s;
    if (ceiling > ctx->max_rate_bytes_per_s) ceiling = ctx->max_rate_bytes_per_s;
    return ceiling;
}
