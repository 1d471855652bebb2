/*
 * A tiny deterministic single-flow bottleneck for algorithm tests: one sender paced at the
 * controller's rate and limited by its window, a FIFO link of fixed rate with a droptail buffer in
 * bytes, fixed propagation delay, acknowledgements carrying the receiver's (offset) clock, and loss
 * reported one RTT after the drop. It drives the controller only through the public API.
 * (The full multi-flow simulator lives in sim/; this is a fixture small enough to reason about.)
 */
#ifndef PCC_TEST_BOTTLENECK_LINK_H
#define PCC_TEST_BOTTLENECK_LINK_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app_state.h"
#include "pcc/cc.h"

#define LINK_RING 65536

typedef struct link_event {
    uint64_t pn;
    int64_t time_us;      /* when the sender learns of it */
    int64_t recv_time_us; /* receiver clock; acks only */
    int64_t rtt_us;       /* the sender's RTT sample with the reported ack delay removed; 0: now - sent time */
} link_event;

typedef struct link_ring {
    link_event items[LINK_RING];
    size_t head, count;
} link_ring;

typedef struct bottleneck_link {
    cc_controller *cc;
    double rate_bytes_per_s;        /* may be changed between link_run calls */
    int64_t rtt_us;                 /* propagation round trip */
    double buffer_bytes;
    int64_t receiver_clock_offset_us;
    int report_recv_time;           /* 0: acks carry no receiver timestamp */
    uint32_t packet_bytes;
    int64_t tick_interval_us;
    double app_rate_bytes_per_s;    /* > 0: the application offers at most this much (bytes/s) */
    /* > 0: the application offers app_segment_bytes every app_segment_period_us (video segments, sent at the
     * controller's pace) and nothing in between; the sender says when it runs out (cc_on_app_state). */
    int64_t app_segment_period_us;
    double app_segment_bytes;
    double app_backlog_bytes;
    int64_t app_next_segment_us;
    /* > 0: each group of 4 acks reaches the sender up to this much late (deterministic, order kept): a
     * receiver that acknowledges in batches, a busy event loop. Timing noise only, never a queue. */
    int64_t ack_lateness_us;
    /* > 0: the receiver reads what arrived only every recv_batch_us of its clock (an event loop that wakes in
     * turns, a Node client or a browser tab that was not scheduled) and stamps and acknowledges each read batch at
     * the read's time: receiver-clock delivery spans then start and end on the batches, not on the arrivals. */
    int64_t recv_batch_us;
    int64_t last_ack_time_us;
    /* Acks that would reach the sender in [ack_outage_from_us, ack_outage_until_us) arrive at its end instead: the
     * return path is down (an LTE uplink gap) while data still flows. */
    int64_t ack_outage_from_us, ack_outage_until_us;
    /* 1: the outage is the receiver holding its acks (a stalled event loop), and each ack reports its hold as ack
     * delay, so the sender's RTT sample is the path's; 0: the acks carry no such report. */
    int ack_outage_reported;
    /* > 0: what the link served leaves only at multiples of this on its clock (an LTE scheduler's transmit
     * opportunities, in bursts); a lone packet waits up to this long with no queue. */
    int64_t transmit_period_us;

    int64_t now_us;
    int64_t next_send_us;
    int64_t next_tick_us;
    double link_free_at_us;         /* when the link finishes what is queued */
    uint64_t next_pn;
    link_ring acks;
    link_ring losses;

    uint64_t delivered_bytes;
    uint64_t dropped_packets;
    double max_queue_delay_us;
    double sum_queue_delay_us;
    uint64_t queue_samples;
} bottleneck_link;

static inline void link_ring_push(link_ring *ring, link_event event)
{
    if (ring->count == LINK_RING) abort();   /* fixture misuse: far too much in flight */
    ring->items[(ring->head + ring->count) % LINK_RING] = event;
    ring->count++;
}

static inline link_event *link_ring_front(link_ring *ring) { return ring->count ? &ring->items[ring->head] : NULL; }

static inline void link_ring_pop(link_ring *ring)
{
    ring->head = (ring->head + 1) % LINK_RING;
    ring->count--;
}

static inline bottleneck_link *link_create(cc_controller *cc, double rate_bps, int64_t rtt_us, double buffer_bytes)
{
    bottleneck_link *link = calloc(1, sizeof *link);
    if (link == NULL) abort();
    link->cc = cc;
    link->rate_bytes_per_s = rate_bps / 8.0;
    link->rtt_us = rtt_us;
    link->buffer_bytes = buffer_bytes;
    link->report_recv_time = 1;
    link->receiver_clock_offset_us = 5000000000LL;   /* receiver clock unrelated to ours */
    link->packet_bytes = 1200;
    link->tick_interval_us = 1000;
    return link;
}

/* Deterministic lateness in [0, ack_lateness_us], the same for each group of 4 consecutive packets. */
static inline int64_t link_ack_lateness_us(const bottleneck_link *link, uint64_t pn)
{
    if (link->ack_lateness_us <= 0) return 0;
    uint64_t x = pn / 4 + 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    x ^= x >> 31;
    return (int64_t)(x % (uint64_t)(link->ack_lateness_us + 1));
}

static inline void link_send_one(bottleneck_link *link)
{
    uint64_t pn = link->next_pn++;
    uint32_t bytes = link->packet_bytes;
    cc_on_packet_sent(link->cc, pn, bytes, link->now_us);
    /* The bottleneck sits at the sender's side of the path; the whole propagation delay follows it. */
    double arrival_us = (double)link->now_us;
    double queue_delay_us = link->link_free_at_us > arrival_us ? link->link_free_at_us - arrival_us : 0.0;
    double queued_bytes = queue_delay_us * link->rate_bytes_per_s / 1e6;
    if (queued_bytes + bytes > link->buffer_bytes) {
        link->dropped_packets++;
        link_event loss = {pn, link->now_us + link->rtt_us, 0, 0};
        link_ring_push(&link->losses, loss);
    } else {
        double start_us = arrival_us + queue_delay_us;
        double depart_us = start_us + (double)bytes * 1e6 / link->rate_bytes_per_s;
        link->link_free_at_us = depart_us;
        if (link->transmit_period_us > 0) {
            double period_us = (double)link->transmit_period_us;
            depart_us = ceil(depart_us / period_us) * period_us;
        }
        if (queue_delay_us > link->max_queue_delay_us) link->max_queue_delay_us = queue_delay_us;
        link->sum_queue_delay_us += queue_delay_us;
        link->queue_samples++;
        int64_t recv_us = (int64_t)depart_us + link->rtt_us / 2;
        if (link->recv_batch_us > 0) recv_us = (recv_us / link->recv_batch_us + 1) * link->recv_batch_us;
        int64_t ack_time_us = recv_us + (link->rtt_us - link->rtt_us / 2) + link_ack_lateness_us(link, pn);
        int64_t sample_rtt_us = 0;
        if (ack_time_us >= link->ack_outage_from_us && ack_time_us < link->ack_outage_until_us) {
            if (link->ack_outage_reported) sample_rtt_us = ack_time_us - link->now_us;
            ack_time_us = link->ack_outage_until_us;
        }
        if (ack_time_us < link->last_ack_time_us) ack_time_us = link->last_ack_time_us;
        link->last_ack_time_us = ack_time_us;
        link_event ack = {pn, ack_time_us,
                          link->report_recv_time ? recv_us + link->receiver_clock_offset_us : 0, sample_rtt_us};
        link_ring_push(&link->acks, ack);
    }
    double rate = cc_pacing_rate_bytes_per_s(link->cc);
    if (link->app_segment_period_us > 0) {
        link->app_backlog_bytes -= bytes;
        if (link->app_backlog_bytes <= 0) mark_app_limited(link->cc, link->now_us);
    }
    if (link->app_rate_bytes_per_s > 0 && link->app_rate_bytes_per_s < rate) {
        /* The application, not the controller, sets the pace: say so (tcp_rate.c app-limited mark). */
        rate = link->app_rate_bytes_per_s;
        mark_app_limited(link->cc, link->now_us);
    }
    int64_t gap_us = (int64_t)((double)bytes * 1e6 / rate);
    link->next_send_us = link->now_us + (gap_us > 0 ? gap_us : 1);
}

/* Whether the window and the application allow a send now. */
static inline int link_can_send(const bottleneck_link *link)
{
    return (double)cc_bytes_in_flight(link->cc) + link->packet_bytes <= cc_cwnd_bytes(link->cc) &&
           (link->app_segment_period_us == 0 || link->app_backlog_bytes > 0);
}

/* When the fixture's next event falls (a segment, a loss, an ack, a send if `can_send`, a tick), `until_us` at the
 * latest. */
static inline int64_t link_next_event_us(bottleneck_link *link, int64_t until_us, int can_send)
{
    int64_t next = until_us;
    if (link->app_segment_period_us > 0 && link->app_next_segment_us < next) next = link->app_next_segment_us;
    link_event *ack = link_ring_front(&link->acks);
    link_event *loss = link_ring_front(&link->losses);
    if (ack && ack->time_us < next) next = ack->time_us;
    if (loss && loss->time_us < next) next = loss->time_us;
    if (can_send && link->next_send_us < next) next = link->next_send_us;
    if (link->next_tick_us < next) next = link->next_tick_us;
    return next;
}

/* Runs the loop until `until_us` (absolute). */
static inline void link_run(bottleneck_link *link, int64_t until_us)
{
    while (link->now_us < until_us) {
        if (link->app_segment_period_us > 0 && link->app_next_segment_us <= link->now_us) {
            link->app_backlog_bytes = link->app_backlog_bytes > 0 ? link->app_backlog_bytes + link->app_segment_bytes
                                                                  : link->app_segment_bytes;
            link->app_next_segment_us = link->now_us + link->app_segment_period_us;
        }
        int can_send = link_can_send(link);
        int64_t next = link_next_event_us(link, until_us, can_send);
        link_event *ack = link_ring_front(&link->acks);
        link_event *loss = link_ring_front(&link->losses);
        if (next > link->now_us) link->now_us = next;
        if (link->now_us >= until_us) break;

        if (loss && loss->time_us <= link->now_us) {
            cc_on_loss(link->cc, loss->pn, link->now_us);
            link_ring_pop(&link->losses);
        } else if (ack && ack->time_us <= link->now_us) {
            link->delivered_bytes += link->packet_bytes;
            cc_on_ack(link->cc, ack->pn, ack->rtt_us, ack->recv_time_us, link->now_us);
            link_ring_pop(&link->acks);
        } else if (can_send && link->next_send_us <= link->now_us) {
            link_send_one(link);
        } else if (link->next_tick_us <= link->now_us) {
            cc_on_tick(link->cc, link->now_us);
            link->next_tick_us = link->now_us + link->tick_interval_us;
        }
    }
}

static inline double link_mean_queue_delay_us(const bottleneck_link *link)
{
    return link->queue_samples ? link->sum_queue_delay_us / (double)link->queue_samples : 0.0;
}

static inline void link_reset_stats(bottleneck_link *link)
{
    link->delivered_bytes = 0;
    link->dropped_packets = 0;
    link->max_queue_delay_us = 0;
    link->sum_queue_delay_us = 0;
    link->queue_samples = 0;
}

#endif /* PCC_TEST_BOTTLENECK_LINK_H */
