/* The link's packet queue. Each discipline is its own file behind a queue_discipline table, as mahimahi
   has one class per queue: queue_infinite.c, queue_droptail.c, queue_drophead.c, queue_codel.c. The FIFO
   and its packet/byte limits are netpath's droptail_queue (shared with pcc-sim); limits count link bytes
   (IP length + 4). queue_config.c turns the command line's KIND and ARGS into a queue_config. */
#ifndef LINKEM_QUEUE_H
#define LINKEM_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#include "droptail_queue.h"
#include "packet.h"
#include "queue_codel.h"

typedef struct {
    uint64_t packets;
    uint64_t link_bytes;
} queue_drops;

typedef struct queue_config queue_config;
typedef struct packet_queue packet_queue;

typedef enum { QUEUE_LIMITS_NONE, QUEUE_LIMITS_OPTIONAL, QUEUE_LIMITS_REQUIRED } queue_limits_rule;

typedef struct queue_discipline {
    const char *name;
    queue_limits_rule limits; /* whether packets=/bytes= are refused, allowed or needed */
    /* Defaults for the discipline's own arguments (NULL: it has none). */
    void (*set_defaults)(queue_config *c);
    /* One of its own key=value arguments: 1 taken, 0 not one of its keys, -1 bad value (err set). NULL: none. */
    int (*set_arg)(queue_config *c, const char *key, uint64_t value, char *err, size_t err_len);
    /* Appends its own arguments to a description, e.g. ", target=5, interval=100". NULL: none. */
    void (*describe_args)(const queue_config *c, char *buf, size_t len);
    /* Takes ownership of p; frees whatever it drops and reports it. */
    queue_drops (*enqueue)(packet_queue *q, packet *p);
    /* Next packet to transmit at now_us, or NULL; may drop (and free) packets on the way. */
    packet *(*dequeue)(packet_queue *q, uint64_t now_us, queue_drops *drops);
} queue_discipline;

extern const queue_discipline queue_infinite, queue_droptail, queue_drophead, queue_codel;

struct queue_config {
    const queue_discipline *discipline;
    uint64_t limit_packets; /* 0 = no limit */
    uint64_t limit_bytes;   /* 0 = no limit */
    codel_params codel;
};

struct packet_queue {
    queue_config config;
    droptail_queue fifo; /* of packet *, each sized by packet_link_bytes */
    codel_state codel;
};

/* kind: a discipline's name (NULL = "infinite"); args: "packets=N,bytes=N" and the discipline's own keys.
   Returns 0 or -1 with err. */
int queue_config_parse(queue_config *c, const char *kind, const char *args, char *err, size_t err_len);
/* mahimahi-style description for log headers, e.g. "droptail [bytes=300000]". */
void queue_config_describe(const queue_config *c, char *buf, size_t len);

void queue_init(packet_queue *q, const queue_config *c);
queue_drops queue_enqueue(packet_queue *q, packet *p);
packet *queue_dequeue(packet_queue *q, uint64_t now_us, queue_drops *drops);
int queue_is_empty(const packet_queue *q);
void queue_free_all(packet_queue *q);

/* For the disciplines: append p whatever the limits say (0, or -1 when out of memory); take the head. */
int queue_push(packet_queue *q, packet *p);
packet *queue_pop_head(packet_queue *q);
/* For the disciplines: count p as dropped and free it. */
void queue_drop(queue_drops *drops, packet *p);
/* The drop-tail arrival (droptail, and codel's packets=/bytes= limits) and the plain FIFO departure. */
queue_drops queue_enqueue_droptail(packet_queue *q, packet *p);
packet *queue_dequeue_fifo(packet_queue *q, uint64_t now_us, queue_drops *drops);

#endif
