/* The simulator's event queue: a binary min-heap ordered by (time, insertion sequence), so events at the
 * same microsecond run in the order they were scheduled and every run is reproducible. */
#ifndef PCC_SIM_EVENT_QUEUE_H
#define PCC_SIM_EVENT_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#include "sim_packet.h"

typedef enum sim_event_type {
    SIM_EVENT_FLOW_START,
    SIM_EVENT_SEND,          /* pacing timer of a flow */
    SIM_EVENT_SENDER_TIMER,  /* loss-detection / probe timer of a flow */
    SIM_EVENT_TICK,          /* periodic cc_on_tick */
    SIM_EVENT_LINK_SERVICE,  /* bottleneck finishes a packet / delivery opportunity */
    SIM_EVENT_ARRIVAL,       /* packet reaches its receiver */
    SIM_EVENT_ACK,           /* ack reaches the sender */
    SIM_EVENT_SCHEDULE,      /* rate / RTT / loss schedules redraw */
    SIM_EVENT_SAMPLE,        /* time-series interval ends */
    SIM_EVENT_VIDEO_REQUEST, /* a video player's segment request reaches the sender */
    SIM_EVENT_VIDEO_PLAYER,  /* a video player's buffer runs dry or drains to where it asks again */
    SIM_EVENT_ACK_TIMER      /* a delayed-ack receiver's timer (ack_delay_us) */
} sim_event_type;

typedef struct sim_event {
    int64_t time_us;
    uint64_t sequence;
    uint64_t generation;     /* timers: stale when it differs from the owner's current generation */
    sim_event_type type;
    uint32_t flow;
    sim_packet packet;       /* ARRIVAL and ACK */
} sim_event;

typedef struct sim_event_queue {
    sim_event *heap;
    size_t count;
    size_t capacity;
    uint64_t next_sequence;
} sim_event_queue;

void sim_event_queue_init(sim_event_queue *queue);
void sim_event_queue_free(sim_event_queue *queue);
/* Copies event in (its sequence is assigned here). Returns 0, or -1 when out of memory. */
int sim_event_queue_push(sim_event_queue *queue, const sim_event *event);
/* Removes the earliest event into *out. Returns 0 when empty. */
int sim_event_queue_pop(sim_event_queue *queue, sim_event *out);

#endif
