/* The bottleneck link: a droptail queue drained either at a constant rate or by a mahimahi trace's
 * delivery opportunities. The packet at the head of the line (being serialised, or waiting for the next
 * opportunity) has left the buffer and does not count against its limit.
 *
 * The link is passive: the simulator tells it the time, and it answers when it next needs service. */
#ifndef PCC_SIM_LINK_H
#define PCC_SIM_LINK_H

#include <stdint.h>

#include "droptail_queue.h"
#include "sim_packet.h"
#include "trace_schedule.h"

typedef void (*sim_link_deliver_fn)(void *context, const sim_packet *packet, int64_t now_us);

typedef struct sim_link {
    int uses_trace;
    double rate_bps;                 /* constant-rate mode */
    mm_trace trace;                  /* trace mode */
    mm_trace_cursor cursor;
    droptail_queue queue;            /* of sim_packet, limited in bytes */
    int busy;                        /* a packet is at the head of the line */
    sim_packet head;
    uint32_t head_remaining_bytes;   /* trace mode: bytes of head still to send */
    double head_done_exact_us;       /* constant-rate mode: exact completion time (no rounding drift) */
    double capacity_bits;            /* constant-rate mode: capacity offered up to rate_since_us */
    int64_t rate_since_us;
    uint64_t delivered_bytes;
    uint64_t delivered_packets;
    double last_sojourn_us;          /* enqueue-to-departure time of the last packet that left */
} sim_link;

/* Constant rate (bits per second > 0). */
void sim_link_init_rate(sim_link *link, double rate_bps, uint64_t buffer_bytes);
/* Trace mode; trace must have been checked with mm_trace_init. */
void sim_link_init_trace(sim_link *link, const mm_trace *trace, uint64_t buffer_bytes);
void sim_link_free(sim_link *link);

/* Offers a packet at now_us. Returns 1 accepted, 0 dropped by the droptail limit, -1 out of memory.
 * When the link was idle, *service_at_us is set to the time of its next service call, else to -1. */
int sim_link_enqueue(sim_link *link, const sim_packet *packet, int64_t now_us, int64_t *service_at_us);
/* Serves the link at now_us (a time it asked for): delivers the packets whose last byte leaves now and
 * returns the time of the next service call, or -1 when idle. */
int64_t sim_link_service(sim_link *link, int64_t now_us, sim_link_deliver_fn deliver, void *context);
/* Constant-rate mode: the rate changes at now_us; the packet being sent keeps its completion time. */
void sim_link_set_rate(sim_link *link, double rate_bps, int64_t now_us);
uint64_t sim_link_queue_bytes(const sim_link *link);
/* Bits the link could have delivered in [0, end_us). */
double sim_link_capacity_bits(const sim_link *link, int64_t end_us);

#endif
