/* One IP packet held by the forwarder, and a FIFO of them. */
#ifndef LINKEM_PACKET_H
#define LINKEM_PACKET_H

#include <stddef.h>
#include <stdint.h>

/* The TUN MTU is 1500; anything larger is refused at read time. */
#define PACKET_MAX_BYTES 2048
/* mahimahi's TUN frames carry a 4-byte packet-info header, so its link charges
   every packet its IP length + 4 bytes against 1504-byte delivery opportunities. */
#define LINK_FRAMING_BYTES 4u

typedef struct packet {
    struct packet *next;
    uint64_t ingress_us;      /* read from the TUN device */
    uint64_t release_us;      /* leaves the delay stage */
    uint64_t link_arrival_us; /* enters the link queue */
    uint64_t departure_us;    /* leaves the link (model time) */
    uint32_t ip_bytes;
    unsigned char data[PACKET_MAX_BYTES];
} packet;

static inline uint32_t packet_link_bytes(const packet *p) { return p->ip_bytes + LINK_FRAMING_BYTES; }

typedef struct {
    packet *head;
    packet *tail;
    uint64_t count;
    uint64_t link_bytes;
} packet_fifo;

void fifo_push(packet_fifo *q, packet *p);
packet *fifo_pop(packet_fifo *q);

/* A free list so the hot path never calls malloc once warmed up. */
packet *packet_alloc(void);
void packet_free(packet *p);
void packet_pool_release_all(void);

#endif
