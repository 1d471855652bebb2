#include "validated_rate.h"

#include <math.h>

static double window_us(const cc_rtt_view *rtt) {
    double w = CC_VALIDATION_WINDOW_SRTTS * (double)(rtt->smoothed_rtt_us > 0 ? rtt->smoothed_rtt_us : (int64_t)CC_INITIAL_RTT_US);
    return w > CC_VALIDATION_WINDOW_MIN_US ? w : CC_VALIDATION_WINDOW_MIN_US;
}

/* RFC 9002 §6.2.1's PTO without the ack delay (sRTT + max(4 rttvar, 1 ms)), at least CC_SILENCE_MIN_US: an ack
 * later than that after the one before, with data out, is a silence of the path. */
static int64_t quiet_limit_us(const cc_rtt_view *rtt) {
    double srtt_us = rtt->smoothed_rtt_us > 0 ? (double)rtt->smoothed_rtt_us : CC_INITIAL_RTT_US;
    double var_us = 4.0 * (double)rtt->rtt_var_us;
    double pto_us = srtt_us + (var_us > 1000.0 ? var_us : 1000.0);
    return (int64_t)(pto_us > CC_SILENCE_MIN_US ? pto_us : CC_SILENCE_MIN_US);
}

/* Whether the ack's delivery interval holds the latest silence. tcp_rate.c's interval starts at the send of the
 * packet last acked when this one was sent (first_sent_time_at_send): one sent before the silence ended was held
 * through it, or sent into it, so the interval spans it, on the ack side (a held packet) or the send side (a packet
 * sent after the silence before anything sent after it was acked). A flow restarted from idle starts its clocks at
 * its first send. */
static int spans_silence(const cc_validated_rate *v, const cc_ack_event *event) {
    return event->packet->first_sent_time_at_send_us < v->silence_end_us;
}

void cc_validated_rate_on_ack(cc_validated_rate *v, const cc_ack_event *event) {
    /* An ack after a gap longer than the limit, of a packet whose delivery clock ran through the gap: a silence of
     * the path. A packet sent from idle (nothing out) restarted the clock at its send, after the last ack: the gap
     * was the application's. */
    if (v->last_ack_us > 0 && event->now_us - v->last_ack_us > v->quiet_limit_us &&
        event->packet->delivered_time_at_send_us <= v->last_ack_us) {
        v->silence_end_us = event->now_us;
    }
    if (event->now_us > v->last_ack_us) v->last_ack_us = event->now_us;
    v->quiet_limit_us = quiet_limit_us(event->rtt);
    if (spans_silence(v, event)) return;
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
}

double cc_validated_rate_bytes_per_s(const cc_validated_rate *v, const cc_rtt_view *rtt, int64_t now_us) {
    double oldest_us = (double)now_us - window_us(rtt);
    double best = 0.0;
    for (int i = 0; i < CC_VALIDATION_SLOTS; i++) {
        if (v->used[i] && (double)v->slot_start_us[i] >= oldest_us && v->slot_max_bytes_per_s[i] > best) {
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
    if (ceiling < ctx->min_rate_bytes_per_s) ceiling = ctx->min_rate_bytes_per_s;
    if (ceiling > ctx->max_rate_bytes_per_s) ceiling = ctx->max_rate_bytes_per_s;
    return ceiling;
}
