/* The bottleneck's FIFO buffer with a droptail limit in bytes: an arriving packet that would push the
 * queued bytes over the limit is dropped. */
#ifndef PCC_SIM_DROPTAIL_QUEUE_H
#define PCC_SIM_DROPTAIL_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#include "sim_packet.h"

typedef struct sim_droptail_queue {
    sim_packet *ring;
    size_t head;
    size_t count;
    size_t capacity;
    uint64_t bytes;
    uint64_t limit_bytes;
} sim_droptail_queue;

void sim_droptail_init(sim_droptail_queue *queue, uint64_t limit_bytes);
void sim_droptail_free(sim_droptail_queue *queue);
/* 1 queued, 0 dropped (full), -1 out of memory. */
int sim_droptail_push(sim_droptail_queue *queue, const sim_packet *packet);
/* 1 and the oldest packet in *out, or 0 when empty. */
int sim_droptail_pop(sim_droptail_queue *queue, sim_packet *out);

#endif
