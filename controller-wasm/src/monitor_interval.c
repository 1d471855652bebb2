#include "monitor_interval.h"

#include <math.h>
#include <string.h>

static pcc_mi *at(pcc_mi_tracker *tracker, size_t age) {
    return &tracker->ring[(tracker->head + age) % PCC_MI_CAPACITY];
}

void pcc_mi_tracker_init(pcc_mi_tracker *tracker) { memset(tracker, 0, sizeof *tracker); }

size_t pcc_mi_count(const pcc_mi_tracker *tracker) { return tracker->count; }

pcc_mi *pcc_mi_open(const pcc_mi_tracker *tracker) {
    if (tracker->count == 0) return NULL;
    pcc_mi *newest = at((pcc_mi_tracker *)tracker, tracker->count - 1); /* like strchr: caller decides */
    return newest->open ? newest : NULL;
}

void pcc_mi_close(pcc_mi_tracker *tracker, int64_t now_us) {
    pcc_mi *mi = pcc_mi_open(tracker);
    if (mi == NULL) return;
    mi->open = 0;
    /* An MI that never sent anything has no feedback to wait for and would only confuse the
     * algorithm: it is dropped (only possible for the newest MI, so the ring stays contiguous). */
    if (mi->packets_sent == 0) {
        tracker->count--;
        return;
    }
    /* end_time_us holds the last send. If the sender went idle since and said it ran out of data (an
     * application-limited gap, common for video), the idle time is not part of the MI: it ends one average spacing after its
     * last packet. Otherwise it ends now, when the next MI takes over. */
    int64_t last_send_us = mi->end_time_us;
    double spacing_us = mi->packets_sent > 1
                            ? (double)(last_send_us - mi->start_time_us - mi->idle_us) / (double)(mi->packets_sent - 1)
                            : 0.0;
    double paced_gap_us = mi->target_rate_bytes_per_s > 0 ? (double)mi->bytes_sent / mi->packets_sent * 1e6 /
                                                                mi->target_rate_bytes_per_s
                                                          : 0.0;
    double idle_threshold_us = PCC_MI_IDLE_FACTOR * (spacing_us > paced_gap_us ? spacing_us : paced_gap_us);
    if (idle_threshold_us < PCC_MI_IDLE_MIN_US) idle_threshold_us = PCC_MI_IDLE_MIN_US;
    if (tracker->out_of_data && (double)(now_us - last_send_us) > idle_threshold_us) {
        double tail_us = spacing_us > 0 ? spacing_us : paced_gap_us;
        mi->end_time_us = last_send_us + (int64_t)tail_us;
    } else {
        mi->end_time_us = now_us > mi->start_time_us ? now_us : mi->start_time_us;
    }
    /* An MI open when a silence of the acks ended spans it (an MI opened before the first RTT sample stays open until
     * then, pcc_loop.c): a video sender's requests were stuck upstream as well, and its PTO probes (RFC 9002 §6.2.4)
     * came with no new data. What it sent measures the silence's wait, not what the sender manages, and the send
     * ceiling would pull the next rate down to 2.5 x the requests' pace (the floor on ATT-LTE-driving-2016). */
    int spans_silence = mi->start_time_us < tracker->ack_silence_end_us;
    if (!spans_silence && mi->end_time_us - mi->idle_us > mi->start_time_us) {
        double rate = (double)mi->bytes_sent * 1e6 / (double)(mi->end_time_us - mi->start_time_us - mi->idle_us);
        tracker->recent_send_rate_bytes_per_s[tracker->recent_rates_written % PCC_MI_RECENT_RATES] = rate;
        tracker->recent_rates_written++;
    }
}

void pcc_mi_mark_app_limited(pcc_mi_tracker *tracker) {
    tracker->out_of_data = 1;
    pcc_mi *mi = pcc_mi_open(tracker);
    if (mi != NULL && mi->packets_sent > 0) mi->app_limited = 1;
}

double pcc_mi_recent_send_rate(const pcc_mi_tracker *tracker) {
    double best = 0.0;
    size_t n = tracker->recent_rates_written < PCC_MI_RECENT_RATES ? tracker->recent_rates_written : PCC_MI_RECENT_RATES;
    for (size_t i = 0; i < n; i++) {
        if (tracker->recent_send_rate_bytes_per_s[i] > best) best = tracker->recent_send_rate_bytes_per_s[i];
    }
    return best;
}

pcc_mi *pcc_mi_start(pcc_mi_tracker *tracker, double target_rate_bytes_per_s, int tag, uint64_t epoch,
                     int64_t now_us) {
    pcc_mi_close(tracker, now_us);
    if (tracker->count == PCC_MI_CAPACITY) {
        /* Re-open the newest MI rather than lose track of it: it simply lasts longer. */
        pcc_mi *newest = at(tracker, tracker->count - 1);
        newest->open = 1;
        return NULL;
    }
    pcc_mi *mi = at(tracker, tracker->count);
    memset(mi, 0, sizeof *mi);
    mi->id = tracker->next_id++;
    mi->tag = tag;
    mi->epoch = epoch;
    mi->target_rate_bytes_per_s = target_rate_bytes_per_s;
    mi->start_time_us = now_us;
    mi->end_time_us = now_us;
    mi->open = 1;
    tracker->count++;
    return mi;
}

static void regression_add(pcc_regression *g, double x, double y);

/* The MI's sends through a bottleneck draining at its target rate: the queue each packet meets on top of the one before. */
static void add_emission_queue(pcc_mi *mi, const cc_sent_packet *packet) {
    double rate_bytes_per_us = mi->target_rate_bytes_per_s * 1e-6;
    if (!(rate_bytes_per_us > 0)) return;
    double drained = (double)(packet->sent_time_us - mi->end_time_us) * rate_bytes_per_us;
    mi->emission_queue_bytes = mi->emission_queue_bytes > drained ? mi->emission_queue_bytes - drained : 0.0;
    mi->emission_queue_bytes += (double)packet->bytes;
    regression_add(&mi->emission_queue, (double)(packet->sent_time_us - mi->start_time_us),
                   mi->emission_queue_bytes / rate_bytes_per_us);
}

void pcc_mi_on_sent(pcc_mi_tracker *tracker, const cc_sent_packet *packet) {
    pcc_mi *mi = pcc_mi_open(tracker);
    if (mi == NULL) return;
    if (mi->packets_sent == 0) {
        mi->first_pn = packet->pn;
        mi->start_time_us = packet->sent_time_us;
    }
    add_emission_queue(mi, packet);
    /* The threshold below is never under PCC_MI_IDLE_MIN_US, so a shorter gap (nearly every packet) cannot
     * be idle: testing that first skips a division per packet without changing any result. */
    double gap_us = (double)(packet->sent_time_us - mi->end_time_us);
    if (tracker->out_of_data && mi->packets_sent > 0 && gap_us > PCC_MI_IDLE_MIN_US) {
        /* A pause inside the MI longer than PCC_MI_IDLE_FACTOR paced gaps after the sender said it ran out of
         * data (video between segments) is not the rate; a pause with data waiting (the sender not scheduled,
         * held by a window) is what the MI really sent (thesis §4.4) and stays in. An idle pause is left out of
         * the MI's duration like an idle tail (pcc_mi_close), or MIs spanning bursts measure the application's
         * rate, and the send-rate ceiling then drags every segment's start down. */
        double paced_gap_us = mi->target_rate_bytes_per_s > 0 ? (double)packet->bytes * 1e6 / mi->target_rate_bytes_per_s : 0.0;
        double idle_threshold_us = PCC_MI_IDLE_FACTOR * paced_gap_us;
        if (idle_threshold_us < PCC_MI_IDLE_MIN_US) idle_threshold_us = PCC_MI_IDLE_MIN_US;
        if (gap_us > idle_threshold_us) mi->idle_us += (int64_t)(gap_us - paced_gap_us);
    }
    mi->last_pn = packet->pn;
    mi->packets_sent++;
    mi->bytes_sent += packet->bytes;
    mi->end_time_us = packet->sent_time_us;
    tracker->out_of_data = 0;
}

/* The MI owning pn, oldest first (feedback arrives roughly in send order, so the oldest MI still
 * waiting is nearly always the owner); NULL when none does. */
static pcc_mi *owner(pcc_mi_tracker *tracker, uint64_t pn) {
    for (size_t age = 0; age < tracker->count; age++) {
        pcc_mi *mi = at(tracker, age);
        if (mi->packets_sent == 0) continue;
        if (pn < mi->first_pn) return NULL; /* ranges are ordered: no newer MI can own it */
        if (pn <= mi->last_pn) {
            /* A finished MI has stopped listening; a late event is not counted twice. */
            if (mi->timed_out || mi->packets_acked + mi->packets_lost >= mi->packets_sent) return NULL;
            return mi;
        }
    }
    return NULL;
}

/* 1 when this event completed a closed MI (only then can a result be ready). */
static int just_completed(const pcc_mi *mi) {
    return !mi->open && mi->packets_acked + mi->packets_lost == mi->packets_sent;
}

/* Order-free: an ACK that arrives late with an earlier time moves the span's start, and the bytes it carries then
 * count as received before the span. */
static void record_receiver_time(pcc_mi *mi, uint32_t bytes, int64_t recv_time_us) {
    if (mi->bytes_recv_timed == 0) {
        mi->recv_first_us = mi->recv_last_us = recv_time_us;
        mi->bytes_at_recv_first = bytes;
    } else if (recv_time_us < mi->recv_first_us) {
        mi->recv_first_us = recv_time_us;
        mi->bytes_at_recv_first = bytes;
    } else if (recv_time_us == mi->recv_first_us) {
        mi->bytes_at_recv_first += bytes;
    } else if (recv_time_us > mi->recv_last_us) {
        mi->recv_last_us = recv_time_us;
    }
    mi->bytes_recv_timed += bytes;
}

/* Welford's online update of a regression's means and co-moments with the point (x, y). */
static void regression_add(pcc_regression *g, double x, double y) {
    g->n++;
    double inverse_n = 1.0 / (double)g->n;
    double dx = x - g->mean_x;
    double dy = y - g->mean_y;
    g->mean_x += dx * inverse_n;
    g->mean_y += dy * inverse_n;
    g->m2_x += dx * (x - g->mean_x);
    g->m2_y += dy * (y - g->mean_y);
    g->co_moment += dx * (y - g->mean_y);
}

double pcc_regression_slope(const pcc_regression *g) {
    return g->n >= 2 && g->m2_x > 0 ? g->co_moment / g->m2_x : 0.0;
}

void pcc_regression_merge(pcc_regression *a, const pcc_regression *b, double x_offset) {
    if (b->n == 0) return;
    double b_mean_x = b->mean_x + x_offset;
    if (a->n == 0) {
        *a = *b;
        a->mean_x = b_mean_x;
        return;
    }
    double n = (double)a->n + (double)b->n;
    double dx = b_mean_x - a->mean_x;
    double dy = b->mean_y - a->mean_y;
    double weight = (double)a->n * (double)b->n / n;
    a->m2_x += b->m2_x + dx * dx * weight;
    a->m2_y += b->m2_y + dy * dy * weight;
    a->co_moment += b->co_moment + dx * dy * weight;
    a->mean_x += dx * (double)b->n / n;
    a->mean_y += dy * (double)b->n / n;
    a->n += b->n;
}

/* An ack with a receiver time: another time than the frame's starts a new frame. Earlier receipts ended at the latest
 * time seen before it; a late frame (no later than that) was received among them, where is unknown (0). */
static int note_frame(pcc_mi_tracker *tracker, const cc_sent_packet *packet, int64_t recv_time_us) {
    int released = 0;
    if (recv_time_us != tracker->frame_recv_us) {
        released = pcc_mi_end_frame(tracker);
        tracker->previous_frame_recv_us = recv_time_us > tracker->latest_recv_us ? tracker->latest_recv_us : 0;
        if (recv_time_us > tracker->latest_recv_us) tracker->latest_recv_us = recv_time_us;
        tracker->frame_recv_us = recv_time_us;
        tracker->frame_bytes = 0;
    }
    tracker->frame_open = 1;
    int64_t offset_us = recv_time_us - packet->sent_time_us;
    if (!tracker->have_recv_offset || offset_us < tracker->min_recv_offset_us) tracker->min_recv_offset_us = offset_us;
    tracker->have_recv_offset = 1;
    return released;
}

/* Every receiver time the MI has is the frame being read's. */
static int within_frame(const pcc_mi_tracker *tracker, const pcc_mi *mi) {
    return mi->bytes_recv_timed > 0 && mi->recv_first_us == mi->recv_last_us && mi->recv_last_us == tracker->frame_recv_us;
}

/* 1 when this event completed a closed MI whose result can be taken now; one completed inside the frame being read
 * waits for the frame's end, when its delivery can count the whole frame (pcc_mi_end_frame). */
static int completed(pcc_mi_tracker *tracker, pcc_mi *mi) {
    if (!just_completed(mi)) return 0;
    if (tracker->frame_open && mi->idle_us == 0 && tracker->previous_frame_recv_us != 0 && within_frame(tracker, mi)) {
        mi->frame_pending = 1;
        tracker->frame_pending_mis++;
        return 0;
    }
    return 1;
}

/* The receiver's span of an MI all of whose packets one ACK frame acknowledged: it has no span of its own, so it
 * starts where the previous frame's receipts ended, and counts every byte this frame acknowledged (its own and its
 * neighbours', which arrived in the same span). That holds while the bottleneck stayed busy from there. After an idle
 * link (the sender app-limited, or slower than the path) the previous frame can be long past and its span would
 * hold the idle time: the span then starts no earlier than the MI's first packet could arrive (its send time on the
 * receiver's clock by the lowest one-way offset seen, which only overstates that offset), and counts the bytes from
 * the MI on less that first packet, which arrived at the span's start. With nothing left, no span: the send figure. */
static void set_frame_span(const pcc_mi_tracker *tracker, pcc_mi *mi) {
    int64_t start_us = tracker->previous_frame_recv_us;
    uint64_t bytes = tracker->frame_bytes;
    int64_t earliest_us = mi->start_time_us + tracker->min_recv_offset_us;
    if (earliest_us > start_us) {
        uint64_t first_packet_bytes = mi->bytes_sent / mi->packets_sent;
        uint64_t from_mi = tracker->frame_bytes - mi->frame_bytes_before;
        start_us = earliest_us;
        bytes = from_mi > first_packet_bytes ? from_mi - first_packet_bytes : 0;
    }
    if (tracker->frame_recv_us > start_us && bytes > 0) {
        mi->frame_span_start_us = start_us;
        mi->frame_span_bytes = bytes;
    }
}

int pcc_mi_end_frame(pcc_mi_tracker *tracker) {
    if (!tracker->frame_open) return 0;
    tracker->frame_open = 0;
    if (tracker->previous_frame_recv_us != 0) {
        for (size_t age = 0; age < tracker->count; age++) {
            pcc_mi *mi = at(tracker, age);
            if (mi->idle_us == 0 && within_frame(tracker, mi)) set_frame_span(tracker, mi);
            mi->frame_pending = 0;
        }
    }
    int released = tracker->frame_pending_mis > 0;
    tracker->frame_pending_mis = 0;
    return released;
}

int pcc_mi_on_ack(pcc_mi_tracker *tracker, const cc_sent_packet *packet, int64_t rtt_us, int64_t recv_time_us) {
    int released = recv_time_us > 0 ? note_frame(tracker, packet, recv_time_us) : 0;
    pcc_mi *mi = owner(tracker, packet->pn);
    if (mi != NULL && recv_time_us > 0) {
        if (mi->bytes_recv_timed == 0) mi->frame_bytes_before = tracker->frame_bytes;
        record_receiver_time(mi, packet->bytes, recv_time_us);
        regression_add(&mi->owd, (double)(packet->sent_time_us - mi->start_time_us), (double)(recv_time_us - packet->sent_time_us));
    }
    /* packets no MI listens for any more were received in the frame all the same */
    if (recv_time_us > 0) tracker->frame_bytes += packet->bytes;
    if (mi == NULL) return released;
    mi->packets_acked++;
    mi->bytes_acked += packet->bytes;
    if (mi->rtt.n == 0 || rtt_us != mi->last_rtt_us) mi->rtt_distinct_samples++;
    mi->last_rtt_us = rtt_us;
    if (mi->rtt.n == 0 || rtt_us < mi->lowest_rtt_us) mi->lowest_rtt_us = rtt_us;
    regression_add(&mi->rtt, (double)(packet->sent_time_us - mi->start_time_us), (double)rtt_us);
    return completed(tracker, mi) || released;
}

int pcc_mi_on_loss(pcc_mi_tracker *tracker, const cc_sent_packet *packet) {
    pcc_mi *mi = owner(tracker, packet->pn);
    if (mi == NULL) return 0;
    mi->packets_lost++;
    mi->bytes_lost += packet->bytes;
    return completed(tracker, mi);
}

void pcc_mi_expire(pcc_mi_tracker *tracker, int64_t now_us, int64_t timeout_us) {
    for (size_t age = 0; age < tracker->count; age++) {
        pcc_mi *mi = at(tracker, age);
        if (mi->open) break;
        int complete = mi->packets_acked + mi->packets_lost >= mi->packets_sent;
        if (!complete && !mi->timed_out && now_us - mi->end_time_us > timeout_us + mi->expected_delay_us) mi->timed_out = 1;
    }
}

void pcc_mi_compute_stats(const pcc_mi *mi, double min_rtt_us, cc_mi_stats *out, double *rtt_gradient_stderr) {
    memset(out, 0, sizeof *out);
    double duration_us = (double)(mi->end_time_us - mi->start_time_us - mi->idle_us);
    out->target_rate_bps = mi->target_rate_bytes_per_s * 8.0;
    out->duration_us = duration_us;
    if (duration_us > 0) {
        out->send_rate_bps = (double)mi->bytes_sent * 8e6 / duration_us;
        out->throughput_bps = (double)mi->bytes_acked * 8e6 / duration_us;
    } else {
        /* A zero-length MI (one packet, or a burst in one microsecond) has no measurable rate of its
         * own: it is taken to have been sent at its target rate. */
        out->send_rate_bps = out->target_rate_bps;
        out->throughput_bps = mi->packets_sent > 0
                                  ? out->target_rate_bps * (double)mi->bytes_acked / (double)mi->bytes_sent
                                  : 0.0;
    }
    /* What the MI delivered, no faster than it was sent nor than it was received: the bytes the receiver got
     * after its first time, over the span of its own clock (differences only; its clock's origin is not ours),
     * when that is lower. An MI sent in a burst into a queue has a send rate far above the link's, which the
     * receiver's clock does not see: it got them at the bottleneck's pace, however bunched the ACKs came back. A
     * receiver that was not scheduled stamps a late batch at once, which its clock does see (the longer of the
     * two intervals, as tcp_rate.c takes for send and ack). An MI with idle pauses (pcc_mi_on_sent) keeps the
     * figure over its send duration: its receiver span holds the pauses. */
    double received_us = (double)(mi->recv_last_us - mi->recv_first_us);
    uint64_t received_bytes = mi->bytes_recv_timed - mi->bytes_at_recv_first;
    if (received_us == 0 && mi->frame_span_bytes > 0) { /* acknowledged in one ACK frame (set_frame_span) */
        received_us = (double)(mi->recv_last_us - mi->frame_span_start_us);
        received_bytes = mi->frame_span_bytes;
    }
    if (mi->idle_us == 0 && received_us > 0 && received_bytes > 0) {
        double received_bps = (double)received_bytes * 8e6 / received_us;
        if (received_bps < out->throughput_bps) out->throughput_bps = received_bps;
    }
    out->loss_rate = mi->packets_sent > 0 ? (double)mi->packets_lost / (double)mi->packets_sent : 0.0;
    out->avg_rtt_us = mi->rtt.n > 0 ? mi->rtt.mean_y : 0.0;
    out->min_rtt_us = min_rtt_us;
    out->packets_sent = mi->packets_sent;
    out->packets_acked = mi->packets_acked;
    out->packets_lost = mi->packets_lost;
    out->rtt_samples = mi->rtt.n;
    double gradient = 0.0, stderr_slope = 0.0;
    /* Thesis §4.4.4: the RTT gradient is the least-squares slope of RTT over send time. */
    const pcc_regression *rtt = &mi->rtt;
    if (rtt->n >= 2 && rtt->m2_x > 0) {
        gradient = pcc_regression_slope(rtt);
        if (rtt->n >= 3) {
            double residual = rtt->m2_y - gradient * rtt->co_moment;
            if (residual < 0) residual = 0;
            /* Errors shared within an ack inflate the slope's variance by about the packets per ack
             * (the design effect of clustered samples); without this a batch of late acks passed as a
             * significant RTT rise. */
            double packets_per_sample = (double)rtt->n / (double)mi->rtt_distinct_samples;
            stderr_slope = sqrt(residual / ((double)rtt->n - 2) / rtt->m2_x * packets_per_sample);
        }
    }
    out->rtt_gradient = isfinite(gradient) ? gradient : 0.0;
    if (rtt_gradient_stderr != NULL) *rtt_gradient_stderr = isfinite(stderr_slope) ? stderr_slope : 0.0;
}

int pcc_mi_pop_result(pcc_mi_tracker *tracker, double min_rtt_us, pcc_mi_result *out) {
    if (tracker->count == 0) return 0;
    pcc_mi *mi = at(tracker, 0);
    if (mi->open || mi->frame_pending) return 0;
    int complete = mi->packets_acked + mi->packets_lost >= mi->packets_sent;
    if (!complete && !mi->timed_out) return 0;
    pcc_mi_compute_stats(mi, min_rtt_us, &out->stats, &out->rtt_gradient_stderr);
    out->tag = mi->tag;
    out->epoch = mi->epoch;
    out->id = mi->id;
    out->timed_out = !complete;
    out->app_limited = mi->app_limited;
    out->first_pn = mi->first_pn;
    out->last_pn = mi->last_pn;
    out->start_time_us = mi->start_time_us;
    out->end_time_us = mi->end_time_us;
    out->lowest_rtt_us = mi->lowest_rtt_us;
    double owd_gradient = pcc_regression_slope(&mi->owd);
    out->owd_gradient_known = mi->owd.n >= 2 && mi->owd.m2_x > 0 && isfinite(owd_gradient);
    out->owd_gradient = out->owd_gradient_known ? owd_gradient : 0.0;
    double emission_gradient = pcc_regression_slope(&mi->emission_queue);
    out->emission_gradient = isfinite(emission_gradient) ? emission_gradient : 0.0;
    out->rtt = mi->rtt;
    tracker->head = (tracker->head + 1) % PCC_MI_CAPACITY;
    tracker->count--;
    return 1;
}
