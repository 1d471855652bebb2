#include "queue.h"

#include <string.h>

void queue_init(packet_queue *q, const queue_config *c) {
    memset(q, 0, sizeof *q);
    q->config = *c;
    /* 0 (not given) means no limit on the command line; netpath spells that DROPTAIL_NO_LIMIT */
    droptail_limits limits = {c->limit_packets ? c->limit_packets : DROPTAIL_NO_LIMIT,
                              c->limit_bytes ? c->limit_bytes : DROPTAIL_NO_LIMIT};
    droptail_init(&q->fifo, sizeof(packet *), limits);
}

queue_drops queue_enqueue(packet_queue *q, packet *p) { return q->config.discipline->enqueue(q, p); }

packet *queue_dequeue(packet_queue *q, uint64_t now_us, queue_drops *drops) {
    return q->config.discipline->dequeue(q, now_us, drops);
}

int queue_is_empty(const packet_queue *q) { return q->fifo.count == 0; }

void queue_free_all(packet_queue *q) {
    packet *p;
    while ((p = queue_pop_head(q))) packet_free(p);
    droptail_free(&q->fifo);
}

int queue_push(packet_queue *q, packet *p) { return droptail_push_unchecked(&q->fifo, &p, packet_link_bytes(p)); }

packet *queue_pop_head(packet_queue *q) {
    packet *p = NULL;
    return droptail_pop(&q->fifo, &p, NULL) ? p : NULL;
}

void queue_drop(queue_drops *drops, packet *p) {
    drops->packets++;
    drops->link_bytes += packet_link_bytes(p);
    packet_free(p);
}

queue_drops queue_enqueue_droptail(packet_queue *q, packet *p) {
    queue_drops drops = {0, 0};
    if (droptail_offer(&q->fifo, &p, packet_link_bytes(p)) != 1) queue_drop(&drops, p);
    return drops;
}

packet *queue_dequeue_fifo(packet_queue *q, uint64_t now_us, queue_drops *drops) {
    (void)now_us;
    (void)drops;
    return queue_pop_head(q);
}
