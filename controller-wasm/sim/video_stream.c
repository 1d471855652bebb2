#include "video_stream.h"

#include <stdlib.h>
#include <string.h>

void sim_video_stream_init(sim_video_stream *stream, uint32_t packet_bytes) {
    memset(stream, 0, sizeof *stream);
    stream->payload_bytes = packet_bytes > SIM_VIDEO_HEADER_BYTES ? packet_bytes - SIM_VIDEO_HEADER_BYTES : 1;
}

void sim_video_stream_free(sim_video_stream *stream) {
    for (size_t i = 0; i < stream->count; i++) free(stream->segments[i].received);
    free(stream->segments);
    free(stream->retransmit);
    free(stream->sent);
    memset(stream, 0, sizeof *stream);
}

int sim_video_stream_request(sim_video_stream *stream, uint32_t index, double bitrate_bps, uint64_t bytes,
                             int64_t now_us, double buffer_s) {
    if (index != stream->count) return -1;
    if (stream->count == stream->capacity) {
        size_t capacity = stream->capacity ? stream->capacity * 2 : 32;
        sim_video_segment *grown = realloc(stream->segments, capacity * sizeof *grown);
        if (!grown) return -1;
        stream->segments = grown;
        stream->capacity = capacity;
    }
    sim_video_segment *segment = &stream->segments[stream->count];
    memset(segment, 0, sizeof *segment);
    uint64_t pieces = (bytes + stream->payload_bytes - 1) / stream->payload_bytes;
    segment->pieces = pieces > 0 ? (uint32_t)pieces : 1;
    segment->received = calloc((segment->pieces + 7) / 8, 1);
    if (!segment->received) return -1;
    segment->bitrate_bps = bitrate_bps;
    segment->bytes = bytes;
    segment->requested_us = now_us;
    segment->requested_buffer_s = buffer_s;
    segment->first_byte_us = -1;
    segment->completed_us = -1;
    stream->count++;
    return 0;
}

void sim_video_stream_request_arrived(sim_video_stream *stream, uint32_t index) {
    if (index < stream->count) stream->segments[index].at_sender = 1;
}

void sim_video_stream_abandon(sim_video_stream *stream, uint32_t index) {
    if (index >= stream->count) return;
    sim_video_segment *segment = &stream->segments[index];
    segment->abandoned = 1;
    free(segment->received);
    segment->received = NULL;
}

/* Whether no piece of the segment needs sending again: it arrived whole, or nobody wants it. */
static int settled(const sim_video_segment *segment) { return segment->complete || segment->cancelled_at_sender; }

/* Moves send_head past segments whose new pieces are all sent, or that were cancelled. */
static void settle_head(sim_video_stream *stream) {
    while (stream->send_head < stream->count) {
        const sim_video_segment *head = &stream->segments[stream->send_head];
        if (head->next_new_piece < head->pieces && !head->cancelled_at_sender) break;
        stream->send_head++;
    }
}

void sim_video_stream_cancel_at_sender(sim_video_stream *stream, uint32_t index) {
    if (index >= stream->count) return;
    stream->segments[index].cancelled_at_sender = 1;
    settle_head(stream);
}

int sim_video_stream_has_data(const sim_video_stream *stream) {
    for (size_t i = 0; i < stream->retransmit_count; i++) {
        uint64_t piece = stream->retransmit[(stream->retransmit_head + i) % stream->retransmit_capacity];
        if (!stream->segments[sim_video_piece_segment(piece)].cancelled_at_sender) return 1;
    }
    if (stream->send_head >= stream->count) return 0;
    const sim_video_segment *head = &stream->segments[stream->send_head];
    return head->at_sender && head->next_new_piece < head->pieces;
}

static int ring_push(uint64_t **items, size_t *head, size_t *count, size_t *capacity, uint64_t value) {
    if (*count == *capacity) {
        size_t grown_capacity = *capacity ? *capacity * 2 : 256;
        uint64_t *grown = malloc(grown_capacity * sizeof *grown);
        if (!grown) return -1;
        for (size_t i = 0; i < *count; i++) grown[i] = (*items)[(*head + i) % *capacity];
        free(*items);
        *items = grown;
        *head = 0;
        *capacity = grown_capacity;
    }
    (*items)[(*head + *count) % *capacity] = value;
    (*count)++;
    return 0;
}

uint64_t sim_video_stream_take(sim_video_stream *stream, uint64_t pn, int *status) {
    *status = 0;
    uint64_t piece = SIM_VIDEO_NO_PIECE;
    /* Retransmissions of cancelled segments are dropped from the line, not sent. */
    while (stream->retransmit_count > 0 &&
           stream->segments[sim_video_piece_segment(stream->retransmit[stream->retransmit_head])].cancelled_at_sender) {
        stream->retransmit_head = (stream->retransmit_head + 1) % stream->retransmit_capacity;
        stream->retransmit_count--;
    }
    if (stream->retransmit_count > 0) {
        piece = stream->retransmit[stream->retransmit_head];
        stream->retransmit_head = (stream->retransmit_head + 1) % stream->retransmit_capacity;
        stream->retransmit_count--;
    } else if (sim_video_stream_has_data(stream)) {
        sim_video_segment *head = &stream->segments[stream->send_head];
        piece = sim_video_piece_id((uint32_t)stream->send_head, head->next_new_piece++);
        settle_head(stream);
    } else {
        return SIM_VIDEO_NO_PIECE;
    }
    if (stream->sent_count == 0) {
        stream->pn_base = pn;
        stream->sent_head = 0;
    }
    /* Packet numbers are consecutive (every packet of a video flow carries a piece), so pn_base + position. */
    while (stream->pn_base + stream->sent_count < pn) {
        if (ring_push(&stream->sent, &stream->sent_head, &stream->sent_count, &stream->sent_capacity, SIM_VIDEO_NO_PIECE) != 0) {
            *status = -1;
            return piece;
        }
    }
    if (ring_push(&stream->sent, &stream->sent_head, &stream->sent_count, &stream->sent_capacity, piece) != 0) *status = -1;
    return piece;
}

/* The piece packet pn carried, marked settled; SIM_VIDEO_NO_PIECE when unknown or settled before. */
static uint64_t settle(sim_video_stream *stream, uint64_t pn) {
    if (stream->sent_count == 0 || pn < stream->pn_base || pn - stream->pn_base >= stream->sent_count) {
        return SIM_VIDEO_NO_PIECE;
    }
    size_t slot = (stream->sent_head + (size_t)(pn - stream->pn_base)) % stream->sent_capacity;
    uint64_t piece = stream->sent[slot];
    stream->sent[slot] = SIM_VIDEO_NO_PIECE;
    while (stream->sent_count > 0 && stream->sent[stream->sent_head] == SIM_VIDEO_NO_PIECE) {
        stream->sent_head = (stream->sent_head + 1) % stream->sent_capacity;
        stream->sent_count--;
        stream->pn_base++;
    }
    return piece;
}

void sim_video_stream_on_acked(sim_video_stream *stream, uint64_t pn) { (void)settle(stream, pn); }

int sim_video_stream_on_lost(sim_video_stream *stream, uint64_t pn) {
    uint64_t piece = settle(stream, pn);
    if (piece == SIM_VIDEO_NO_PIECE) return 0;
    if (settled(&stream->segments[sim_video_piece_segment(piece)])) return 0;
    return ring_push(&stream->retransmit, &stream->retransmit_head, &stream->retransmit_count,
                     &stream->retransmit_capacity, piece);
}

int sim_video_stream_probe(sim_video_stream *stream, int count) {
    for (size_t i = 0; i < stream->sent_count && count > 0; i++) {
        uint64_t piece = stream->sent[(stream->sent_head + i) % stream->sent_capacity];
        if (piece == SIM_VIDEO_NO_PIECE || settled(&stream->segments[sim_video_piece_segment(piece)])) continue;
        if (ring_push(&stream->retransmit, &stream->retransmit_head, &stream->retransmit_count,
                      &stream->retransmit_capacity, piece) != 0)
            return -1;
        count--;
    }
    return 0;
}

int sim_video_stream_on_arrival(sim_video_stream *stream, uint64_t piece, int64_t now_us) {
    uint32_t index = sim_video_piece_segment(piece);
    uint32_t number = sim_video_piece_number(piece);
    if (index >= stream->count) return 0;
    sim_video_segment *segment = &stream->segments[index];
    if (segment->complete || segment->abandoned || number >= segment->pieces) return 0;
    if (segment->first_byte_us < 0) segment->first_byte_us = now_us;
    uint8_t bit = (uint8_t)(1u << (number % 8));
    if (segment->received[number / 8] & bit) return 0;   /* a spurious retransmission's twin */
    segment->received[number / 8] |= bit;
    if (++segment->pieces_received == segment->pieces) {
        segment->complete = 1;
        segment->completed_us = now_us;
        free(segment->received);
        segment->received = NULL;
    }
    return 0;
}

uint64_t sim_video_stream_received_bytes(const sim_video_stream *stream, uint32_t index) {
    if (index >= stream->count) return 0;
    const sim_video_segment *segment = &stream->segments[index];
    uint64_t bytes = (uint64_t)segment->pieces_received * stream->payload_bytes;
    return bytes < segment->bytes ? bytes : segment->bytes;
}

/* The first entry at or after next_handoff that is not abandoned. */
static size_t handoff_entry(const sim_video_stream *stream) {
    size_t i = stream->next_handoff;
    while (i < stream->count && stream->segments[i].abandoned) i++;
    return i;
}

int sim_video_stream_has_complete(const sim_video_stream *stream) {
    size_t i = handoff_entry(stream);
    return i < stream->count && stream->segments[i].complete;
}

const sim_video_segment *sim_video_stream_next_complete(sim_video_stream *stream) {
    size_t i = handoff_entry(stream);
    if (i >= stream->count || !stream->segments[i].complete) return NULL;
    stream->next_handoff = i + 1;
    return &stream->segments[i];
}
