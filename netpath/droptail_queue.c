#include "droptail_queue.h"

#include <stdlib.h>
#include <string.h>

void droptail_init(droptail_queue *queue, size_t item_bytes, droptail_limits limits) {
    memset(queue, 0, sizeof *queue);
    queue->item_bytes = item_bytes;
    /* the size field, then the item, aligned for any item type */
    size_t align = _Alignof(max_align_t);
    queue->slot_bytes = (sizeof(uint64_t) + item_bytes + align - 1) / align * align;
    queue->limits = limits;
}

void droptail_free(droptail_queue *queue) {
    free(queue->slots);
    droptail_init(queue, queue->item_bytes, queue->limits);
}

int droptail_admits(const droptail_queue *queue, uint64_t bytes) {
    /* written as "room left", so DROPTAIL_NO_LIMIT cannot overflow */
    if (queue->count >= queue->limits.packets) return 0;
    if (bytes > queue->limits.bytes || queue->bytes > queue->limits.bytes - bytes) return 0;
    return 1;
}

int droptail_over_limit(const droptail_queue *queue) {
    return queue->count > queue->limits.packets || queue->bytes > queue->limits.bytes;
}

static unsigned char *slot(const droptail_queue *queue, size_t position) {
    return queue->slots + ((queue->head + position) & (queue->capacity - 1)) * queue->slot_bytes;
}

static int grow(droptail_queue *queue) {
    size_t capacity = queue->capacity ? queue->capacity * 2 : 64;
    unsigned char *slots = malloc(capacity * queue->slot_bytes);
    if (!slots) return -1;
    for (size_t i = 0; i < queue->count; i++) memcpy(slots + i * queue->slot_bytes, slot(queue, i), queue->slot_bytes);
    free(queue->slots);
    queue->slots = slots;
    queue->head = 0;
    queue->capacity = capacity;
    return 0;
}

int droptail_push_unchecked(droptail_queue *queue, const void *item, uint64_t bytes) {
    if (queue->count == queue->capacity && grow(queue) != 0) return -1;
    unsigned char *s = slot(queue, queue->count);
    memcpy(s, &bytes, sizeof bytes);
    memcpy(s + sizeof bytes, item, queue->item_bytes);
    queue->count++;
    queue->bytes += bytes;
    return 0;
}

int droptail_offer(droptail_queue *queue, const void *item, uint64_t bytes) {
    if (!droptail_admits(queue, bytes)) return 0;
    return droptail_push_unchecked(queue, item, bytes) == 0 ? 1 : -1;
}

int droptail_pop(droptail_queue *queue, void *item_out, uint64_t *bytes_out) {
    if (queue->count == 0) return 0;
    const unsigned char *s = slot(queue, 0);
    uint64_t bytes;
    memcpy(&bytes, s, sizeof bytes);
    memcpy(item_out, s + sizeof bytes, queue->item_bytes);
    if (bytes_out) *bytes_out = bytes;
    queue->head = (queue->head + 1) & (queue->capacity - 1);
    queue->count--;
    queue->bytes -= bytes;
    return 1;
}
