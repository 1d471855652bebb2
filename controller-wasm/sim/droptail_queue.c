#include "droptail_queue.h"

#include <stdlib.h>

void sim_droptail_init(sim_droptail_queue *queue, uint64_t limit_bytes) {
    queue->ring = NULL;
    queue->head = 0;
    queue->count = 0;
    queue->capacity = 0;
    queue->bytes = 0;
    queue->limit_bytes = limit_bytes;
}

void sim_droptail_free(sim_droptail_queue *queue) {
    free(queue->ring);
    sim_droptail_init(queue, queue->limit_bytes);
}

static int grow(sim_droptail_queue *queue) {
    size_t capacity = queue->capacity ? queue->capacity * 2 : 64;
    sim_packet *ring = malloc(capacity * sizeof *ring);
    if (!ring) return -1;
    for (size_t i = 0; i < queue->count; i++) ring[i] = queue->ring[(queue->head + i) % queue->capacity];
    free(queue->ring);
    queue->ring = ring;
    queue->head = 0;
    queue->capacity = capacity;
    return 0;
}

int sim_droptail_push(sim_droptail_queue *queue, const sim_packet *packet) {
    if (queue->bytes + packet->bytes > queue->limit_bytes) return 0;
    if (queue->count == queue->capacity && grow(queue) != 0) return -1;
    queue->ring[(queue->head + queue->count) % queue->capacity] = *packet;
    queue->count++;
    queue->bytes += packet->bytes;
    return 1;
}

int sim_droptail_pop(sim_droptail_queue *queue, sim_packet *out) {
    if (queue->count == 0) return 0;
    *out = queue->ring[queue->head];
    queue->head = (queue->head + 1) % queue->capacity;
    queue->count--;
    queue->bytes -= out->bytes;
    return 1;
}
