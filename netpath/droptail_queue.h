/* The bottleneck's FIFO buffer and its drop-tail rule, as mahimahi's DroppingPacketQueue: limits on the
 * packets and/or bytes waiting; an arrival that would take the queue over a limit is refused.
 * The packet being transmitted has left the queue and does not count. Items are stored by value, so the
 * simulator keeps whole packet records and linkem keeps packet pointers; each item carries its size in bytes
 * as the owner counts them (pcc-sim: packet bytes; linkem: IP length + 4, mahimahi's framing). */
#ifndef NETPATH_DROPTAIL_QUEUE_H
#define NETPATH_DROPTAIL_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#define DROPTAIL_NO_LIMIT UINT64_MAX

typedef struct droptail_limits {
    uint64_t packets; /* DROPTAIL_NO_LIMIT, or at most this many waiting (0: no buffer at all) */
    uint64_t bytes;   /* DROPTAIL_NO_LIMIT, or at most this many bytes waiting */
} droptail_limits;

typedef struct droptail_queue {
    unsigned char *slots;  /* ring of slot_bytes each: the item's size, then the item */
    size_t item_bytes;
    size_t slot_bytes;
    size_t head;
    size_t count;
    size_t capacity;       /* a power of two, so the ring index is a mask */
    uint64_t bytes;        /* sum of the queued items' sizes */
    droptail_limits limits;
} droptail_queue;

void droptail_init(droptail_queue *queue, size_t item_bytes, droptail_limits limits);
void droptail_free(droptail_queue *queue);
/* Whether an arrival of `bytes` fits under both limits. */
int droptail_admits(const droptail_queue *queue, uint64_t bytes);
/* Whether the queue holds more than a limit allows (after droptail_push_unchecked: drophead). */
int droptail_over_limit(const droptail_queue *queue);
/* The drop-tail rule: 1 queued, 0 refused (it would exceed a limit; the caller still owns the item),
 * -1 out of memory. */
int droptail_offer(droptail_queue *queue, const void *item, uint64_t bytes);
/* Appends whatever the limits say (an infinite queue; drophead, which then sheds from the head):
 * 0, or -1 out of memory. */
int droptail_push_unchecked(droptail_queue *queue, const void *item, uint64_t bytes);
/* 1 and the oldest item copied to *item_out (its size in *bytes_out unless NULL), or 0 when empty. */
int droptail_pop(droptail_queue *queue, void *item_out, uint64_t *bytes_out);

#endif
