/*
 * Silences of the path: one tracker the framework (controller.c) feeds once per ack, before the algorithm sees the
 * ack (cc_ack_event.silence), for every rule that must not take a silence for the path's capacity or RTT.
 *
 * A silence is a gap in what the path delivered. It shows on two clocks, and the tracker keeps both facts:
 *  - the acks' (the sender's clock): no ack for longer than the silence limit while data was out (the ack's packet
 *    was sent before the ack that began the gap: its delivery clock ran through it; a flow restarted from idle did
 *    not). A silence of either direction does this (a blackout, an outage, an uplink silent for seconds). The limit
 *    is a PTO (RFC 9002 §6.2.1: sRTT + max(4 rttvar, 1 ms), without the ack delay), when a sender stops waiting for
 *    feedback it expected, and at least CC_SILENCE_MIN_US. It is judged with the RTT as of the ack before the gap,
 *    so the silence's own samples do not stretch it; the first ack, with no RTT before it, is judged with RFC 9002's
 *    first PTO (CC_FIRST_SILENCE_LIMIT_US). Read by the app-limited rule (validated_rate.c): a tcp_rate.c
 *    delivery sample whose interval spans the silence measures the silence, not the capacity.
 *  - the receiver's (its receive timestamps): how long it had received nothing before the acked packet, the forward
 *    gap. Only the forward direction does this. Read by Vivace (vivace_timeout.c): a packet received after a long
 *    gap that waited in the forward queue came back with the silence in its RTT, and the sRTT it enters sizes MIs
 *    that no longer span an RTT (thesis §4.4). The tracker gives this gap, not a verdict: the limit above cannot
 *    judge it, because the acks of packets received just before a forward silence come back after it (the return
 *    path was dark too) and have already raised the sRTT when the first packet after the gap is acked (about 2.8 s
 *    after the 3 s blackout of test/recordings/vivace-10mbps-20ms-150kb-blackout-stale-mi.replay), so a PTO then is
 *    longer than the silence. The reader counts its limit in min RTTs (Vivace: its MI timeout, §4.4.4), which the
 *    silence leaves alone.
 */
#ifndef PCC_PATH_SILENCE_H
#define PCC_PATH_SILENCE_H

#include <stdint.h>

struct cc_sent_packet;
struct cc_rtt_view;

/* A gap in the acks counts as a silence only beyond this, whatever the RTT: above a paced packet's spacing at low
 * rates and the receiver's ack delay (ACK frequency). */
#define CC_SILENCE_MIN_US 200000.0
/* Before any RTT sample: the first ack counts as ending a silence when the data out waited longer than RFC 9002's first
 * PTO for it (§6.2.2: 333 ms + 4 x 333/2 ms, "a 1 second initial timeout"), which a path's first round trip stays
 * below. A session that opened into a silent uplink (ATT-LTE-driving-2016's 2.2 s from link 3.0 s) waits longer. */
#define CC_FIRST_SILENCE_LIMIT_US 999000.0

typedef struct cc_path_silence {
    int64_t limit_us;             /* the ack gap that counts as a silence, from the RTT as of the latest ack */
    int64_t last_ack_us;          /* the latest ack's time (sender's clock); 0 before any */
    int64_t ack_silence_end_us;   /* the first ack after the latest silence of the acks; 0 before any */
    int64_t last_recv_us;         /* the latest receive time an ack reported (receiver's clock); 0 before any */
    int64_t forward_gap_us;       /* the latest ack's: its receive time after the latest one before it; 0 unknown */
} cc_path_silence;

/* Every ack the framework takes, after the RTT view took its sample; recv_time_us 0 when unknown. */
void cc_path_silence_on_ack(cc_path_silence *s, const struct cc_sent_packet *packet, int64_t recv_time_us,
                            int64_t now_us, const struct cc_rtt_view *rtt);

/* Whether a packet's tcp_rate.c delivery interval holds the latest silence of the acks: it starts at the send of the
 * packet last acked when this one was sent (first_sent_time_at_send), so a packet sent before the silence ended was
 * held through it, or sent into it (one sent after it before anything sent after it was acked). */
int cc_path_silence_spans(const cc_path_silence *s, const struct cc_sent_packet *packet);

/* The first ack after the latest silence of the acks, µs (sender's clock; 0 before any): feedback that stopped
 * altogether and came back. Read by Vivace's MI-timeout recovery (vivace_timeout.c). */
int64_t cc_path_silence_ack_silence_end_us(const cc_path_silence *s);

/* How long the receiver had received nothing before the latest ack's packet, µs (receiver's clock; 0 when the ack
 * had no receive time or is the first with one; negative when it was received before the latest one). */
int64_t cc_path_silence_forward_gap_us(const cc_path_silence *s);

#endif /* PCC_PATH_SILENCE_H */
