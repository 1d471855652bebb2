/* mahimahi's InfiniteQueue: every packet waits, nothing is dropped. */
#include "queue.h"

static queue_drops infinite_enqueue(packet_queue *q, packet *p) {
    queue_drops drops = {0, 0};
    if (queue_push(q, p) != 0) queue_drop(&drops, p); /* out of memory */
    return drops;
}

const queue_discipline queue_infinite = {
    .name = "infinite",
    .limits = QUEUE_LIMITS_NONE,
    .enqueue = infinite_enqueue,
    .dequeue = queue_dequeue_fifo,
};
