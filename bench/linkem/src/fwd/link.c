#include "link.h"

#include <stdlib.h>
#include <string.h>

int link_init(link_model *l, link_kind kind, uint32_t **trace_ms, size_t count, double rate_bps, const queue_config *qc,
               uint64_t base_us, link_events events, const char **reason) {
    memset(l, 0, sizeof *l);
    l->kind = kind;
    if (kind == LINK_TRACE) {
        l->trace_ms = *trace_ms;
        *trace_ms = NULL;
        if (mm_trace_init(&l->schedule, l->trace_ms, count, reason) != 0) return -1;
    }
    l->rate_bps = rate_bps;
    l->base_us = base_us;
    l->events = events;
    queue_init(&l->queue, qc);
    return 0;
}

uint64_t link_next_opportunity_us(const link_model *l) {
    switch (l->kind) {
    case LINK_TRACE:
        return l->base_us + (uint64_t)mm_trace_cursor_time_us(&l->schedule, &l->cursor);
    case LINK_CONSTANT_RATE:
        /* computed from the opportunity number, so rounding never accumulates */
        return l->base_us + (uint64_t)((double)l->next_index * (MM_TRACE_OPPORTUNITY_BYTES * 8.0 * 1e6) / l->rate_bps);
    case LINK_UNLIMITED:
    default:
        return UINT64_MAX;
    }
}

static void consume_opportunity(link_model *l) {
    if (l->kind == LINK_TRACE) mm_trace_cursor_next(&l->schedule, &l->cursor);
    else l->next_index++;
}

static void use_opportunity(link_model *l, uint64_t t_us) {
    uint32_t bytes_left = MM_TRACE_OPPORTUNITY_BYTES;
    consume_opportunity(l);
    if (l->events.opportunity) l->events.opportunity(l->events.ctx, t_us);
    while (bytes_left > 0) {
        if (l->in_transit_bytes_left == 0) {
            queue_drops drops = {0, 0};
            packet *p = queue_dequeue(&l->queue, t_us, &drops);
            if (drops.packets && l->events.drop) l->events.drop(l->events.ctx, t_us, drops.packets, drops.link_bytes);
            if (!p) break;
            l->in_transit = p;
            l->in_transit_bytes_left = packet_link_bytes(p);
        }
        uint32_t sent = bytes_left < l->in_transit_bytes_left ? bytes_left : l->in_transit_bytes_left;
        bytes_left -= sent;
        l->in_transit_bytes_left -= sent;
        if (l->in_transit_bytes_left == 0) {
            packet *done = l->in_transit;
            l->in_transit = NULL;
            l->events.departure(l->events.ctx, done, t_us);
        }
    }
}

void link_advance(link_model *l, uint64_t now_us) {
    if (l->kind == LINK_UNLIMITED) return;
    for (uint64_t t = link_next_opportunity_us(l); t <= now_us; t = link_next_opportunity_us(l)) use_opportunity(l, t);
}

void link_enqueue(link_model *l, packet *p, uint64_t t_us) {
    p->link_arrival_us = t_us;
    if (l->kind == LINK_UNLIMITED) {
        l->events.departure(l->events.ctx, p, t_us);
        return;
    }
    link_advance(l, t_us);
    queue_drops drops = queue_enqueue(&l->queue, p);
    if (drops.packets && l->events.drop) l->events.drop(l->events.ctx, t_us, drops.packets, drops.link_bytes);
}

int link_is_busy(const link_model *l) { return l->in_transit_bytes_left > 0 || !queue_is_empty(&l->queue); }

void link_free(link_model *l) {
    queue_free_all(&l->queue);
    packet_free(l->in_transit);
    l->in_transit = NULL;
    free(l->trace_ms);
    l->trace_ms = NULL;
}
