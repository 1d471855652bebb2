/*
 * The delivery rate a rate-based sender has validated lately, and the ceiling an application-limited sender's
 * rate must come down to. Shared by the PCC loop (pcc_loop.c) and PCP.
 *
 * A sender that could not fill its rate (the application ran out of data: the end of a video segment) learns
 * nothing about that rate, yet keeps it: a rate set before the pause, or one that grew while nothing tested it,
 * is then unleashed on a path that may have changed. Windows have rules for this (RFC 7661, RFC 9002 §7.8: no
 * growth while application-limited; draft-ietf-ccwg-ratelimited-increase asks rate-based algorithms for the
 * equivalent). Ours: whenever an MI (or a probe) the sender could not fill finishes, its rate comes down to at
 * most CC_RATE_OVER_VALIDATED x the highest delivery rate its acks measured over the last
 * CC_VALIDATION_WINDOW_SRTTS smoothed RTTs (tcp_rate.c's samples, application-limited ones included: what
 * the path delivered is validated whoever set the pace). As old samples leave the window the ceiling follows
 * what the path delivers now; after an idle gap the sender restarts from the last rate it validated.
 *
 * A sample whose interval spans a silence of the acks (path_silence.h: no ack for longer than a PTO while data was
 * out: a blackout, an outage) measures the silence, not the capacity: a packet held through it, or one sent after it
 * before anything sent after it was acked (its send interval starts at the held packets' sends). Such samples are not
 * taken, so they cannot lower the ceiling below what was validated before the silence: the rule is to hold the
 * sender to what the path showed it carries (RFC 7661's validated pipe), and a silence shows nothing of that (a low
 * sample does not lower BBR's max filter, for the same reason). Samples of packets sent and acked after it follow the
 * path.
 */
#ifndef PCC_VALIDATED_RATE_H
#define PCC_VALIDATED_RATE_H

#include "cc_algorithm.h"

/* BBR's probing gain (its ProbeBW up-phase): above what was validated by as much as a probe may test. */
#define CC_RATE_OVER_VALIDATED 1.25
/* A start-up phase that doubles per MI (Vivace's slow start, Allegro's starting) doubles on from what was
 * validated: its own growth, not a rate it reached before the pause. */
#define CC_START_OVER_VALIDATED 2.0
/* BBR's bandwidth filter spans 10 rounds: long enough to hold a delivery sample of every burst of a paced
 * sender, short enough to follow a changing link. */
#define CC_VALIDATION_WINDOW_SRTTS 10.0
/* The window is never shorter than this: at loopback RTTs the acks of one video segment span more. */
#define CC_VALIDATION_WINDOW_MIN_US 200000.0
/* The window is kept in this many sub-windows (a windowed maximum, as Linux's lib/win_minmax.c). */
#define CC_VALIDATION_SLOTS 5

typedef struct cc_validated_rate {
    double slot_max_bytes_per_s[CC_VALIDATION_SLOTS];
    int64_t slot_start_us[CC_VALIDATION_SLOTS];
    int64_t slot_last_us[CC_VALIDATION_SLOTS]; /* the slot's newest sample: it counts while that is in the window */
    int used[CC_VALIDATION_SLOTS];
    int current;
} cc_validated_rate;

/* Takes an ack's delivery-rate sample (0: none), unless its interval spans a silence of the acks (event->silence). */
void cc_validated_rate_on_ack(cc_validated_rate *v, const cc_ack_event *event);

/* The highest delivery rate of the sub-windows with a sample within the window before now_us, bytes/s; after an idle
 * gap longer than the window, the last sub-window's; 0 before any sample. */
double cc_validated_rate_bytes_per_s(const cc_validated_rate *v, const cc_rtt_view *rtt, int64_t now_us);

/* The most an application-limited sender may keep, bytes/s: gain (CC_RATE_OVER_VALIDATED or
 * CC_START_OVER_VALIDATED) x the validated rate, never below the initial rate (as pcc_clamp_to_send_ceiling), inside
 * the context's bounds; 0 before any delivery sample (then the rate is left alone). */
double cc_app_limited_rate_ceiling(const cc_validated_rate *v, const cc_context *ctx, int64_t now_us, double gain);

#endif /* PCC_VALIDATED_RATE_H */
