/* mahimahi's DropHeadQueue: the arrival is admitted, then packets are shed from the head until the queue
   is within packets= and bytes= again. */
#include "queue.h"

static queue_drops drophead_enqueue(packet_queue *q, packet *p) {
    queue_drops drops = {0, 0};
    if (queue_push(q, p) != 0) {
        queue_drop(&drops, p); /* out of memory */
        return drops;
    }
    while (droptail_over_limit(&q->fifo)) queue_drop(&drops, queue_pop_head(q));
    return drops;
}

const queue_discipline queue_drophead = {
    .name = "drophead",
    .limits = QUEUE_LIMITS_REQUIRED,
    .enqueue = drophead_enqueue,
    .dequeue = queue_dequeue_fifo,
};
