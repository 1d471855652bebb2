/* mahimahi's DropTailQueue: an arrival that would exceed packets= or bytes= is dropped (netpath's rule). */
#include "queue.h"

const queue_discipline queue_droptail = {
    .name = "droptail",
    .limits = QUEUE_LIMITS_REQUIRED,
    .enqueue = queue_enqueue_droptail,
    .dequeue = queue_dequeue_fifo,
};
