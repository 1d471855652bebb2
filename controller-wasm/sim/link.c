#include "link.h"

#include <math.h>
#include <string.h>

#include "pcc_sim.h"

static void init_common(sim_link *link, uint64_t buffer_bytes) {
    memset(link, 0, sizeof *link);
    droptail_init(&link->queue, sizeof(sim_packet), (droptail_limits){DROPTAIL_NO_LIMIT, buffer_bytes});
}

void sim_link_init_rate(sim_link *link, double rate_bps, uint64_t buffer_bytes) {
    init_common(link, buffer_bytes);
    link->rate_bps = rate_bps;
}

void sim_link_init_trace(sim_link *link, const mm_trace *trace, uint64_t buffer_bytes) {
    init_common(link, buffer_bytes);
    link->uses_trace = 1;
    link->trace = *trace;
}

void sim_link_free(sim_link *link) { droptail_free(&link->queue); }

static double serialisation_us(const sim_link *link, uint32_t bytes) {
    return (double)bytes * 8.0 * 1e6 / link->rate_bps;
}

static int64_t ceil_us(double exact_us) { return (int64_t)ceil(exact_us - 1e-6); }

/* Puts packet at the head of the line at exact time start_us and returns when the link needs service. */
static int64_t start_head(sim_link *link, const sim_packet *packet, double start_us) {
    link->head = *packet;
    link->busy = 1;
    if (!link->uses_trace) {
        link->head_done_exact_us = start_us + serialisation_us(link, packet->bytes);
        return ceil_us(link->head_done_exact_us);
    }
    link->head_remaining_bytes = packet->bytes;
    mm_trace_cursor_seek(&link->trace, &link->cursor, ceil_us(start_us));
    return mm_trace_cursor_time_us(&link->trace, &link->cursor);
}

int sim_link_enqueue(sim_link *link, const sim_packet *packet, int64_t now_us, int64_t *service_at_us) {
    sim_packet queued = *packet;
    queued.enqueued_us = now_us;
    *service_at_us = -1;
    if (!link->busy) {
        *service_at_us = start_head(link, &queued, (double)now_us);
        return 1;
    }
    return droptail_offer(&link->queue, &queued, queued.bytes);
}

static void depart(sim_link *link, int64_t now_us, sim_link_deliver_fn deliver, void *context) {
    link->delivered_bytes += link->head.bytes;
    link->delivered_packets++;
    link->last_sojourn_us = (double)(now_us - link->head.enqueued_us);
    link->busy = 0;
    sim_packet leaving = link->head;
    deliver(context, &leaving, now_us);
}

static int64_t serve_constant(sim_link *link, int64_t now_us, sim_link_deliver_fn deliver, void *context) {
    if (!link->busy) return -1;
    double done_us = link->head_done_exact_us;
    depart(link, now_us, deliver, context);
    sim_packet next;
    if (!droptail_pop(&link->queue, &next, NULL)) return -1;
    /* The next packet starts when the previous one's last bit left, not at the rounded event time. */
    double start_us = done_us > (double)next.enqueued_us ? done_us : (double)next.enqueued_us;
    return start_head(link, &next, start_us);
}

static int64_t serve_trace(sim_link *link, int64_t now_us, sim_link_deliver_fn deliver, void *context) {
    if (!link->busy) return -1;
    /* All opportunities at this instant pool their bytes; bytes left when the queue empties are wasted. */
    uint64_t credit_bytes = 0;
    while (mm_trace_cursor_time_us(&link->trace, &link->cursor) <= now_us) {
        credit_bytes += MM_TRACE_OPPORTUNITY_BYTES;
        mm_trace_cursor_next(&link->trace, &link->cursor);
    }
    while (link->busy && credit_bytes > 0) {
        if (link->head_remaining_bytes > credit_bytes) {
            link->head_remaining_bytes -= (uint32_t)credit_bytes;
            credit_bytes = 0;
            break;
        }
        credit_bytes -= link->head_remaining_bytes;
        depart(link, now_us, deliver, context);
        sim_packet next;
        if (droptail_pop(&link->queue, &next, NULL)) {
            link->head = next;
            link->busy = 1;
            link->head_remaining_bytes = next.bytes;
        }
    }
    if (!link->busy) return -1;
    return mm_trace_cursor_time_us(&link->trace, &link->cursor);
}

int64_t sim_link_service(sim_link *link, int64_t now_us, sim_link_deliver_fn deliver, void *context) {
    return link->uses_trace ? serve_trace(link, now_us, deliver, context)
                            : serve_constant(link, now_us, deliver, context);
}

void sim_link_set_rate(sim_link *link, double rate_bps, int64_t now_us) {
    link->capacity_bits += link->rate_bps * (double)(now_us - link->rate_since_us) / 1e6;
    link->rate_since_us = now_us;
    link->rate_bps = rate_bps;
}

uint64_t sim_link_queue_bytes(const sim_link *link) { return link->queue.bytes; }

double sim_link_capacity_bits(const sim_link *link, int64_t end_us) {
    if (link->uses_trace) {
        return (double)mm_trace_opportunities_before(&link->trace, end_us) * MM_TRACE_OPPORTUNITY_BYTES * 8.0;
    }
    return link->capacity_bits + link->rate_bps * (double)(end_us - link->rate_since_us) / 1e6;
}
