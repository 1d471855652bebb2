#include "event_queue.h"

#include <stdlib.h>

void sim_event_queue_init(sim_event_queue *queue) {
    queue->heap = NULL;
    queue->count = 0;
    queue->capacity = 0;
    queue->next_sequence = 0;
}

void sim_event_queue_free(sim_event_queue *queue) {
    free(queue->heap);
    sim_event_queue_init(queue);
}

static int earlier(const sim_event *a, const sim_event *b) {
    if (a->time_us != b->time_us) return a->time_us < b->time_us;
    return a->sequence < b->sequence;
}

int sim_event_queue_push(sim_event_queue *queue, const sim_event *event) {
    if (queue->count == queue->capacity) {
        size_t capacity = queue->capacity ? queue->capacity * 2 : 256;
        sim_event *heap = realloc(queue->heap, capacity * sizeof *heap);
        if (!heap) return -1;
        queue->heap = heap;
        queue->capacity = capacity;
    }
    sim_event item = *event;
    item.sequence = queue->next_sequence++;
    size_t i = queue->count++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!earlier(&item, &queue->heap[parent])) break;
        queue->heap[i] = queue->heap[parent];
        i = parent;
    }
    queue->heap[i] = item;
    return 0;
}

int sim_event_queue_pop(sim_event_queue *queue, sim_event *out) {
    if (queue->count == 0) return 0;
    *out = queue->heap[0];
    sim_event last = queue->heap[--queue->count];
    size_t n = queue->count;
    size_t i = 0;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && earlier(&queue->heap[child + 1], &queue->heap[child])) child++;
        if (!earlier(&queue->heap[child], &last)) break;
        queue->heap[i] = queue->heap[child];
        i = child;
    }
    if (n > 0) queue->heap[i] = last;
    return 1;
}
