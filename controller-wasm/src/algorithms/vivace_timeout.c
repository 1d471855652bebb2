/*
 * PCC Vivace's MI timeouts (thesis §4.4.4 "MI timeout"): an MI whose packets' fate is unknown T_timeout after
 * its feedback was due is outdated news, and the rate halves, once per epoch. The PCC loop counts T_timeout in
 * min RTTs from the feedback time the MI could expect when it opened (pcc_hooks.timeout_from_expected_feedback):
 * the literal "T_timeout sRTTs after the MI" never fires on LTE, where the sender's own queue inflates the sRTT
 * as fast as the feedback delay. Ours adds what happens after the halvings: recovery when feedback flows again,
 * and the undo of halvings that the acks' receive timestamps show were spurious.
 */
#include "vivace_state.h"

/* A late ack whose forward queueing delay is below 1/SPURIOUS_QUEUE_SHARE of its lateness was late on the way back
 * (or held by the receiver). */
#define SPURIOUS_QUEUE_SHARE 4

void vivace_on_timeout(void *state, const pcc_mi_result *r) {
    vivace_state *s = state;
    double current = s->phase == STATE_SLOW_START ? r->stats.target_rate_bps / 8.0 : s->base_rate;
    if (!s->awaiting_feedback) s->rate_after_first_halving = current / 2.0;
    s->awaiting_feedback = 1;
    vivace_reset_direction(s);
    vivace_enter_probing(s, current / 2.0);
}

/* The first MI of the current epoch that completes after MI-timeout halvings shows that feedback flows again.
 * Halvings on a link that kept acking (congestion, or capacity falling under the rate) leave the rate far down,
 * and from there the gradient climbs by 5%, 15%, ... per round of four MIs: at low rates with 10-packet MIs, tens
 * of seconds. Like TCP's slow start up to ssthresh after a retransmission timeout, the rate now doubles per MI
 * while the utility rises, up to the rate the first halving left; a utility drop ends it as it ends slow start.
 * Returns 1 when recovery started (the result is consumed). */
int vivace_start_timeout_recovery(vivace_state *s) {
    s->awaiting_feedback = 0;
    if (!(s->base_rate < s->rate_after_first_halving)) return 0;
    s->recovery_target = s->rate_after_first_halving;
    s->delivery_max = 0.0; /* capacity may have changed since: measure again */
    s->slow_start_last_rate = 0.0;
    s->phase = STATE_SLOW_START;
    s->slow_start_have_best = 0;
    s->slow_start_next_rate = s->base_rate;
    pcc_loop_new_epoch(&s->loop);
    return 1;
}

/* MI-timeout halvings assume the silence was congestion. A path's return direction alone also goes silent for
 * seconds (LTE uplinks): the data got through, only the acks waited, and the halvings leave the rate at the floor,
 * where 10-packet MIs take about a second each. Receive timestamps tell the two apart: a late ack whose packet met
 * no forward queue (its one-way delay near the lowest seen, while it came more than the MI timeout after the path's
 * RTT) was delayed on the way back. Then, like TCP's spurious-RTO undo (RFC 5682 F-RTO, Eifel), the rate returns
 * to what it was before the first halving. */
void vivace_undo_spurious_timeout(vivace_state *s, const cc_ack_event *event) {
    /* 0: no timestamp; beyond 2^53 µs (285 years) a forged one, and the subtraction below must not overflow */
    if (event->recv_time_us <= 0 || event->recv_time_us > ((int64_t)1 << 53)) return;
    int64_t one_way_us = event->recv_time_us - event->packet->sent_time_us;
    if (!s->have_one_way || one_way_us < s->min_one_way_us) s->min_one_way_us = one_way_us;
    s->have_one_way = 1;
    if (!s->awaiting_feedback) return;
    /* How late the ack came, from its packet's send time: a receiver that held its acks and reported the hold as ack
     * delay gives an RTT sample at the path's RTT, yet its late acks timed the MI out just the same. */
    int64_t late_us = (event->now_us - event->packet->sent_time_us) - s->loop.ctx->rtt->min_rtt_us;
    int64_t forward_queue_us = one_way_us - s->min_one_way_us;
    if (late_us <= pcc_loop_mi_timeout_us(&s->loop) || SPURIOUS_QUEUE_SHARE * forward_queue_us >= late_us) return;
    s->awaiting_feedback = 0;
    s->recovery_target = 0.0;
    vivace_reset_direction(s);
    double before = vivace_clamp_rate(s, 2.0 * s->rate_after_first_halving);
    vivace_enter_probing(s, before);
    s->base_rate = before; /* past the send-rate ceiling: the halved MIs sent little, but this rate was sent */
}
