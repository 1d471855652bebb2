/* The link's packet queue, with mahimahi's disciplines: infinite, droptail,
   drophead (limits packets= and/or bytes=, counting IP length + 4 bytes), and CoDel. */
#ifndef LINKEM_QUEUE_H
#define LINKEM_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#include "packet.h"

typedef enum { QUEUE_INFINITE, QUEUE_DROPTAIL, QUEUE_DROPHEAD, QUEUE_CODEL } queue_kind;

typedef struct {
    queue_kind kind;
    uint64_t limit_packets; /* 0 = no limit */
    uint64_t limit_bytes;   /* 0 = no limit */
    uint64_t codel_target_us;
    uint64_t codel_interval_us;
} queue_config;

/* kind: "infinite" | "droptail" | "drophead" | "codel"; args: "packets=N,bytes=N"
   (codel also takes target=MS,interval=MS). Returns 0 or -1 with err. */
int queue_config_parse(queue_config *c, const char *kind, const char *args, char *err, size_t err_len);
/* mahimahi-style description for log headers, e.g. "droptail [bytes=300000]". */
void queue_config_describe(const queue_config *c, char *buf, size_t len);

typedef struct {
    uint64_t packets;
    uint64_t link_bytes;
} queue_drops;

typedef struct {
    queue_config config;
    packet_fifo fifo;
    /* CoDel state (RFC 8289 §5) */
    uint64_t first_above_time_us;
    uint64_t drop_next_us;
    uint32_t drop_count;
    uint32_t last_drop_count;
    int dropping;
} packet_queue;

void queue_init(packet_queue *q, const queue_config *c);
/* Takes ownership of p; frees whatever the discipline drops and reports it. */
queue_drops queue_enqueue(packet_queue *q, packet *p);
/* Next packet to transmit at now_us, or NULL; CoDel may drop (and free) packets here. */
packet *queue_dequeue(packet_queue *q, uint64_t now_us, queue_drops *drops);
int queue_is_empty(const packet_queue *q);
void queue_free_all(packet_queue *q);

#endif
