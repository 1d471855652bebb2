/* The emulated link, with mm-link's semantics: delivery opportunities of 1504 bytes
   at trace timestamps (or at a constant rate); the trace loops shifted by its last
   timestamp; unused bytes of an opportunity are wasted; a packet may span several
   opportunities and departs with its last byte. */
#ifndef LINKEM_LINK_H
#define LINKEM_LINK_H

#include <stdint.h>

#include "packet.h"
#include "queue.h"
#include "trace_schedule.h"

typedef enum { LINK_UNLIMITED, LINK_TRACE, LINK_CONSTANT_RATE } link_kind;

typedef struct {
    void *ctx;
    void (*opportunity)(void *ctx, uint64_t t_us);
    void (*departure)(void *ctx, packet *p, uint64_t t_us); /* takes ownership */
    void (*drop)(void *ctx, uint64_t t_us, uint64_t packets, uint64_t link_bytes);
} link_events;

typedef struct {
    link_kind kind;
    uint32_t *trace_ms;      /* LINK_TRACE: owned timestamps behind schedule */
    mm_trace schedule;       /* LINK_TRACE (netpath: loops shifted by the last timestamp) */
    mm_trace_cursor cursor;  /* LINK_TRACE: the next opportunity */
    double rate_bps;         /* LINK_CONSTANT_RATE */
    uint64_t base_us;        /* time of the schedule's zero */
    uint64_t next_index;     /* LINK_CONSTANT_RATE: opportunity number */
    packet_queue queue;
    packet *in_transit;
    uint32_t in_transit_bytes_left;
    link_events events;
} link_model;

/* kind LINK_TRACE takes ownership of *trace_ms (count timestamps) and sets it to NULL.
   Returns 0, or -1 with the reason the timestamps are unusable (none once mm_trace_read_file accepted them). */
int link_init(link_model *l, link_kind kind, uint32_t **trace_ms, size_t count, double rate_bps, const queue_config *qc,
               uint64_t base_us, link_events events, const char **reason);
/* Packet p enters the link queue at t_us (opportunities up to t_us are used first, as mm-link). */
void link_enqueue(link_model *l, packet *p, uint64_t t_us);
/* Time of the next delivery opportunity (UINT64_MAX for an unlimited link). */
uint64_t link_next_opportunity_us(const link_model *l);
/* Use every opportunity at or before now_us. */
void link_advance(link_model *l, uint64_t now_us);
/* Whether the link has bytes waiting, i.e. whether the next opportunity matters. */
int link_is_busy(const link_model *l);
void link_free(link_model *l);

#endif
