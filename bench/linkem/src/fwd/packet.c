#include "packet.h"

#include <stdlib.h>

static packet *free_list;

void fifo_push(packet_fifo *q, packet *p) {
    p->next = NULL;
    if (q->tail) q->tail->next = p;
    else q->head = p;
    q->tail = p;
    q->count++;
    q->link_bytes += packet_link_bytes(p);
}

packet *fifo_pop(packet_fifo *q) {
    packet *p = q->head;
    if (!p) return NULL;
    q->head = p->next;
    if (!q->head) q->tail = NULL;
    q->count--;
    q->link_bytes -= packet_link_bytes(p);
    p->next = NULL;
    return p;
}

packet *packet_alloc(void) {
    packet *p = free_list;
    if (p) {
        free_list = p->next;
        return p;
    }
    return malloc(sizeof(packet));
}

void packet_free(packet *p) {
    if (!p) return;
    p->next = free_list;
    free_list = p;
}

void packet_pool_release_all(void) {
    while (free_list) {
        packet *p = free_list;
        free_list = p->next;
        free(p);
    }
}
