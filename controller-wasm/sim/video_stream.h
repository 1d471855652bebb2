/* A video flow's segments on their way: the requests the sender has received, the packets ("pieces") each segment
 * is cut into, which piece every packet number carried, pieces declared lost waiting to be sent again (before new
 * ones, as a QUIC or TCP sender retransmits first), and at the receiver which pieces of each segment arrived, so a
 * segment is complete when every piece has, whatever the order. Complete segments are handed on in order. */
#ifndef PCC_SIM_VIDEO_STREAM_H
#define PCC_SIM_VIDEO_STREAM_H

#include <stddef.h>
#include <stdint.h>

/* Media bytes per packet: a 1500-byte packet less IPv4, TCP and its timestamp option (Linux's 1448-byte MSS), so
 * every controller here carries video with kernel TCP's overhead. */
#define SIM_VIDEO_HEADER_BYTES 52u
#define SIM_VIDEO_NO_PIECE UINT64_MAX

typedef struct sim_video_segment {
    double bitrate_bps;
    uint64_t bytes;
    uint32_t pieces;            /* ceil(bytes / payload) whole packets */
    uint32_t pieces_received;
    uint8_t *received;          /* bitmap at the receiver; freed once complete */
    uint32_t next_new_piece;    /* sender: the next piece never sent */
    int at_sender;              /* the request has reached the sender */
    int abandoned;              /* the player gave up on it: arrivals are ignored, it is never handed on */
    int cancelled_at_sender;    /* the sender heard so: it sends none of it any more */
    int complete;
    int64_t requested_us;
    double requested_buffer_s;  /* the player's buffer when it asked (CMCD bl) */
    int64_t first_byte_us;      /* first piece at the receiver, -1 before */
    int64_t completed_us;
} sim_video_segment;

typedef struct sim_video_stream {
    uint32_t payload_bytes;
    sim_video_segment *segments;   /* every segment asked for, by index */
    size_t count;
    size_t capacity;
    size_t send_head;              /* first segment the sender may still have new pieces of */
    size_t next_handoff;           /* next segment to hand to the player */
    uint64_t *retransmit;          /* ring of piece ids declared lost */
    size_t retransmit_head, retransmit_count, retransmit_capacity;
    uint64_t *sent;                /* ring: piece carried by packet number pn_base + i; SIM_VIDEO_NO_PIECE once settled */
    uint64_t pn_base;
    size_t sent_head, sent_count, sent_capacity;
} sim_video_stream;

/* A piece id: segment index and piece number. */
static inline uint64_t sim_video_piece_id(uint32_t segment, uint32_t piece) { return ((uint64_t)segment << 32) | piece; }
static inline uint32_t sim_video_piece_segment(uint64_t id) { return (uint32_t)(id >> 32); }
static inline uint32_t sim_video_piece_number(uint64_t id) { return (uint32_t)id; }

void sim_video_stream_init(sim_video_stream *stream, uint32_t packet_bytes);
void sim_video_stream_free(sim_video_stream *stream);
/* The player asks for a segment; `index` is the stream's next entry (stream->count; the player's segment number
 * when it never abandons one, as an abandoned download's replacement is a new entry). 0, or -1 when out of memory. */
int sim_video_stream_request(sim_video_stream *stream, uint32_t index, double bitrate_bps, uint64_t bytes,
                             int64_t now_us, double buffer_s);
/* The player abandons segment entry `index` (its replacement is a new entry). */
void sim_video_stream_abandon(sim_video_stream *stream, uint32_t index);
/* The abandonment of entry index reached the sender. */
void sim_video_stream_cancel_at_sender(sim_video_stream *stream, uint32_t index);
/* The request for segment index reached the sender. */
void sim_video_stream_request_arrived(sim_video_stream *stream, uint32_t index);
/* Whether the sender has a piece to send (a retransmission, or a new piece of a segment it was asked for). */
int sim_video_stream_has_data(const sim_video_stream *stream);
/* The sender sends packet pn (numbers increase by one per packet): the piece it carries (SIM_VIDEO_NO_PIECE when
 * there was nothing to send). -1 out of memory via *status. */
uint64_t sim_video_stream_take(sim_video_stream *stream, uint64_t pn, int *status);
/* Packet pn was acknowledged / declared lost (its piece goes back in line). 0, or -1 when out of memory. */
void sim_video_stream_on_acked(sim_video_stream *stream, uint64_t pn);
int sim_video_stream_on_lost(sim_video_stream *stream, uint64_t pn);
/* The loss-recovery timer allows `count` probe packets (RFC 9002 §6.2.4) and there is no new data: the oldest
 * pieces still unacknowledged go in line again, so a lost tail is found without new data to send. */
int sim_video_stream_probe(sim_video_stream *stream, int count);
/* A packet carrying piece id reached the receiver at now_us. 0, or -1 when out of memory. */
int sim_video_stream_on_arrival(sim_video_stream *stream, uint64_t piece, int64_t now_us);
/* Whether the next segment in order is complete. */
int sim_video_stream_has_complete(const sim_video_stream *stream);
/* Bytes of entry index that have reached the receiver (whole pieces; at most its size). */
uint64_t sim_video_stream_received_bytes(const sim_video_stream *stream, uint32_t index);
/* The next complete segment in order (abandoned entries skipped), or NULL (then call again later). The pointer is valid until the next
 * request. */
const sim_video_segment *sim_video_stream_next_complete(sim_video_stream *stream);

#endif
