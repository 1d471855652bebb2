/* A data packet as the simulator carries it from sender to receiver (acks carry the same record back). */
#ifndef PCC_SIM_PACKET_H
#define PCC_SIM_PACKET_H

#include <stdint.h>

typedef struct sim_packet {
    uint64_t pn;             /* the flow's packet number */
    int64_t sent_us;         /* when the sender sent it */
    int64_t enqueued_us;     /* when it reached the bottleneck queue */
    int64_t received_us;     /* when the receiver got it (set on arrival) */
    uint32_t flow;
    uint32_t bytes;
    uint64_t piece;          /* video flows: the piece of a segment it carries (video_stream.h); VIDEO_REQUEST:
                              * the segment index asked for */
} sim_packet;

#endif
