#include "path_silence.h"

#include "cc_algorithm.h"

/* Beyond 2^53 µs (285 years) a receive timestamp is forged, and the subtractions below must not overflow. */
#define RECV_TIME_MAX_US ((int64_t)1 << 53)

static int64_t silence_limit_us(const cc_rtt_view *rtt) {
    double srtt_us = rtt->smoothed_rtt_us > 0 ? (double)rtt->smoothed_rtt_us : CC_INITIAL_RTT_US;
    double var_us = 4.0 * (double)rtt->rtt_var_us;
    double pto_us = srtt_us + (var_us > 1000.0 ? var_us : 1000.0);
    return (int64_t)(pto_us > CC_SILENCE_MIN_US ? pto_us : CC_SILENCE_MIN_US);
}

void cc_path_silence_on_ack(cc_path_silence *s, const cc_sent_packet *packet, int64_t recv_time_us, int64_t now_us,
                            const cc_rtt_view *rtt) {
    /* A packet sent from idle (nothing out) restarted the delivery clock at its send, after the last ack: that gap
     * was the application's, not the path's. Before the first ack the wait began at the send that started the
     * delivery clock (the flow's first, with data out since), and the limit is RFC 9002's first PTO. */
    int64_t waited_since_us = s->last_ack_us > 0 ? s->last_ack_us : packet->delivered_time_at_send_us;
    int64_t limit_us = s->last_ack_us > 0 ? s->limit_us : (int64_t)CC_FIRST_SILENCE_LIMIT_US;
    if (now_us - waited_since_us > limit_us && packet->delivered_time_at_send_us <= waited_since_us) {
        s->ack_silence_end_us = now_us;
    }
    if (now_us > s->last_ack_us) s->last_ack_us = now_us;
    s->limit_us = silence_limit_us(rtt);
    s->forward_gap_us = 0;
    if (recv_time_us > 0 && recv_time_us <= RECV_TIME_MAX_US) {
        if (s->last_recv_us > 0) s->forward_gap_us = recv_time_us - s->last_recv_us;
        if (recv_time_us > s->last_recv_us) s->last_recv_us = recv_time_us;
    }
}

int cc_path_silence_spans(const cc_path_silence *s, const cc_sent_packet *packet) {
    return packet->first_sent_time_at_send_us < s->ack_silence_end_us;
}

int64_t cc_path_silence_ack_silence_end_us(const cc_path_silence *s) { return s->ack_silence_end_us; }

int64_t cc_path_silence_forward_gap_us(const cc_path_silence *s) { return s->forward_gap_us; }
