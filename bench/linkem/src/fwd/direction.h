/* One direction of the emulated path: read from one TUN, then (as the issue orders it)
   random loss, then delay, then the link, then write to the other TUN. */
#ifndef LINKEM_DIRECTION_H
#define LINKEM_DIRECTION_H

#include <stdint.h>
#include <stdio.h>

#include "delay.h"
#include "link.h"
#include "loss.h"
#include "mmlog.h"
#include "packet.h"
#include "stats.h"

typedef struct {
    const char *name; /* "uplink" or "downlink" (mahimahi's words) */
    int in_fd;
    int out_fd;
    /* Only IPv4 packets between these two addresses (network byte order) cross:
       the namespace can reach the host address and nothing else. */
    uint32_t allowed_src;
    uint32_t allowed_dst;
    loss_model loss;
    const delay_model *delay;
    uint64_t start_us;
    packet_fifo delay_fifo;   /* release times never decrease: no reordering */
    uint64_t last_release_us;
    link_model link;
    packet_fifo out_fifo;     /* departed, waiting to be written */
    mm_log log;
    /* NULL = off. Per packet written, "READ_US DEPARTURE_US WRITE_US" (CLOCK_MONOTONIC us): what the summary's
       writeLatenessMs aggregates, per packet, so a test can tell the emulator's own lateness from its model's. */
    FILE *timing_log;
    direction_stats stats;
} direction;

/* Events passed to link_init so the link reports to this direction. */
link_events direction_link_events(direction *d);
/* Read up to max_packets from in_fd; returns the number read, or -1 on a fatal read error. */
int direction_read(direction *d, int max_packets);
/* Process every delay release and delivery opportunity up to now_us, in timestamp order. */
void direction_advance(direction *d, uint64_t now_us);
/* Time of the next event that needs a wake-up (UINT64_MAX if none). */
uint64_t direction_next_event_us(const direction *d);
/* Write departed packets; returns 1 if the device pushed back (EAGAIN) with packets left. */
int direction_flush(direction *d);
void direction_free(direction *d);

#endif
