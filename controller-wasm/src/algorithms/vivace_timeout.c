/*
 * PCC Vivace's MI timeouts (thesis §4.4.4 "MI timeout"): an MI whose packets' fate is unknown T_timeout after
 * its feedback was due is outdated news, and the rate halves, once per epoch. The PCC loop counts T_timeout in
 * min RTTs from the feedback time the MI could expect when it opened (pcc_hooks.timeout_from_expected_feedback):
 * the literal "T_timeout sRTTs after the MI" never fires on LTE, where the sender's own queue inflates the sRTT
 * as fast as the feedback delay. Ours adds what happens after the halvings: recovery when feedback flows again,
 * and the undo of halvings that the acks' receive timestamps show were spurious.
 */
#include "vivace_state.h"

#include <math.h>

/* A late ack whose forward queueing delay is below 1/SPURIOUS_QUEUE_SHARE of its lateness was late on the way back
 * (or held by the receiver). */
#define SPURIOUS_QUEUE_SHARE 4
/* A path that got longer (a route change, the thesis's changing-RTT links of §5.2 and Fig 4.8) times MIs out like
 * congestion: the MI timeout counts min RTTs (5 x 10 ms when the path was at 10 ms), and a step to 100 ms outruns it.
 * The acks tell the two apart through the receiver's timestamps. In eq. 4.1's model (§4.3.1, eq. 4.4) a queue grows
 * at (S - C)/C while the sender exceeds the capacity and drains when it sends less: a halving to S/2 at S >= C
 * lowers the one-way delay by at least half the time it spends sending. A longer path does neither: the packets sent
 * before the halving arrive as fast as they were sent, and the delay stays up after it. So, with no loss in the
 * episode, undo the halvings when the one-way delay jumped from a path with little queue and stayed level (within
 * PATH_STEP_MAX_SLOPE x the send span from the level's first ack; a halving's drain is at least 0.5) for
 * PATH_STEP_MIN_ACKS acks of packets sent before the first halving, and for as many late acks after it. */
#define PATH_STEP_MIN_ACKS PCC_MI_MIN_PACKETS
#define PATH_STEP_MAX_SLOPE 0.25

void vivace_on_timeout(void *state, const pcc_mi_result *r) {
    vivace_state *s = state;
    double current = s->phase == STATE_SLOW_START ? r->stats.target_rate_bps / 8.0 : s->base_rate;
    if (!s->awaiting_feedback) {
        s->rate_after_first_halving = current / 2.0;
        s->path_step_open = 1;
        s->halved_at_us = s->loop.now_us;
        s->step_after_acks = 0;
        /* in slow start, recovery_target is 0 only in the first one (vivace_reenter_slow_start sets it) */
        s->halved_first_slow_start = s->phase == STATE_SLOW_START && !(s->recovery_target > 0);
        s->episode_late_on_the_way_back = 0;
        s->episode_ack_silence = 0;
    }
    s->awaiting_feedback = 1;
    vivace_note_fade(s, current);
    vivace_reset_direction(s);
    vivace_enter_probing(s, current / 2.0);
}

/* MI timeouts that interrupted the first slow start (thesis §4.4: double per MI until the utility falls) where the
 * acks, once they came, showed a silence of the return path: the rate the halvings started from was the search's
 * own guess (the initial rate or a doubling of it whose feedback was still due), never a rate the path was shown to
 * carry, so neither it nor half of it, nor the floor that more halvings reach, is a place to stop. Stopping there
 * leaves a video flow at a fraction of the link: probing's rounds (§4.4.3) climb a few percent each and a segment's
 * end re-runs them, while slow start alone doubles through such MIs; resumed from the floor, its 10-packet MIs take
 * about a second each. The search resumes from the rate before the halvings (the undo's and the timeout recovery's
 * alike), with its own guards (the exit on the first utility drop, the delivery cap, the drain), and as the first
 * slow start: no target. */
static void resume_first_slow_start(vivace_state *s, double rate) {
    s->awaiting_feedback = 0;
    s->path_step_open = 0;
    s->base_rate = rate;
    vivace_reset_direction(s);
    vivace_reenter_slow_start(s, 0.0);
}

/* The rate the episode's first halving started from. */
static double rate_before_halvings(const vivace_state *s) {
    return vivace_clamp_rate(s, 2.0 * s->rate_after_first_halving);
}

/* The first MI of the current epoch that completes after MI-timeout halvings shows that feedback flows again.
 * Halvings on a link that kept acking (congestion, or capacity falling under the rate) leave the rate far down,
 * and from there the gradient climbs by 5%, 15%, ... per round of four MIs: at low rates with 10-packet MIs, tens
 * of seconds. Like TCP's slow start up to ssthresh after a retransmission timeout, the rate now doubles per MI
 * while the utility rises, up to the rate the first halving left; a utility drop ends it as it ends slow start.
 * Returns 1 when recovery started (the result is consumed). */
int vivace_start_timeout_recovery(vivace_state *s) {
    s->awaiting_feedback = 0;
    if (s->halved_first_slow_start && s->episode_late_on_the_way_back) {
        resume_first_slow_start(s, rate_before_halvings(s));
        return 1;
    }
    if (s->base_rate < s->rate_after_first_halving) {
        vivace_reenter_slow_start(s, s->rate_after_first_halving);
        return 1;
    }
    /* One halving, and the feedback had stopped altogether (a silence of the acks, path_silence.h: a blackout; the
     * sender's MIs could not close in it, a video player's requests did not get through): the rate is already what
     * the halving left, a recovery at its target, and the halving measured a silence, not a queue. The recovery's next
     * MI is its last step and decides as that step does (vivace_extend_recovery, vivace_recovery.c): clean, the
     * doubling goes on to the rate before the halving (§4.4); met a queue or lost, probing goes on from here. Left to
     * probing, the rate would stay near half the link: a round needs four filled MIs in a row (§4.4.3), and after a
     * blackout a player's short requests leave some unfilled. A halving while acks still came (an LTE capacity dip)
     * is left to the gradient, as before. */
    if (!vivace_flag(s, VIVACE_P_ONE_HALVING_RECOVERY) || !s->episode_ack_silence ||
        !vivace_fade_began_above(s, s->base_rate)) {
        return 0;
    }
    vivace_reenter_slow_start(s, s->base_rate);
    return 1;
}

/* Back to the rate before the first halving of the episode, like TCP's spurious-RTO undo (RFC 5682 F-RTO, Eifel). */
static void undo_halvings(vivace_state *s) {
    double before = rate_before_halvings(s);
    if (s->halved_first_slow_start) {
        resume_first_slow_start(s, before);
        return;
    }
    s->awaiting_feedback = 0;
    s->recovery_target = 0.0;
    s->path_step_open = 0;
    vivace_reset_direction(s);
    vivace_enter_probing(s, before);
    s->base_rate = before; /* past the send-rate ceiling: the halved MIs sent little, but this rate was sent */
}

/* How far a one-way delay may move and still be the same level: that share of the MI timeout (the steps that time
 * MIs out are longer than the timeout, their forward half longer than half of it). */
static double level_tolerance_us(const vivace_state *s) {
    return PATH_STEP_MAX_SLOPE * (double)pcc_loop_mi_timeout_us(&s->loop);
}

/* Whether a packet's one-way delay is within PATH_STEP_MAX_SLOPE x the send time between them of an earlier one's,
 * and on the same level: received at the pace it was sent, neither draining nor building a queue. */
static int flat(const vivace_state *s, int64_t one_way_us, int64_t sent_us, int64_t first_one_way_us, int64_t first_sent_us) {
    double change_us = fabs((double)(one_way_us - first_one_way_us));
    return change_us <= PATH_STEP_MAX_SLOPE * (double)(sent_us - first_sent_us) && change_us <= level_tolerance_us(s);
}

/* Every timestamped ack: the run of acks whose one-way delay stays level (level_tolerance_us), and whether
 * the run began with a jump from a path with little queue (the ack before it met less than 1/SPURIOUS_QUEUE_SHARE of
 * the jump as forward queue). LTE links change their capacity under a standing queue, and such a queue can stay level
 * by chance while the capacity moves with the rate; a longer path appears at once, between two packets. */
static void track_level(vivace_state *s, int64_t sent_us, int64_t one_way_us, int64_t previous_one_way_us) {
    if (s->level_acks == 0 || fabs((double)(one_way_us - s->level_first_one_way_us)) > level_tolerance_us(s)) {
        int64_t jump_us = one_way_us - previous_one_way_us;
        int64_t queue_before_us = previous_one_way_us - s->min_one_way_us;
        s->level_from_empty_path = SPURIOUS_QUEUE_SHARE * queue_before_us < jump_us;
        s->level_first_sent_us = sent_us;
        s->level_first_one_way_us = one_way_us;
        s->level_acks = s->level_acks_before_halving = 0;
    }
    s->level_acks++;
    if (!s->path_step_open || sent_us < s->halved_at_us) s->level_acks_before_halving++;
}

/* An ack of a packet sent after the first halving of an open episode (PATH_STEP_MIN_ACKS above): the delay must not
 * have gone down (an ack no longer late closes the episode: the halving relieved something), and the level that
 * began with a jump before the halving must still hold. */
static void judge_path_step(vivace_state *s, const cc_ack_event *event, int64_t one_way_us, int late) {
    int64_t sent_us = event->packet->sent_time_us;
    if (sent_us < s->halved_at_us) return;
    if (!late) {
        s->path_step_open = 0;
        return;
    }
    if (s->step_after_acks == 0 || !flat(s, one_way_us, sent_us, s->step_after_one_way_us, s->step_after_sent_us)) {
        s->step_after_acks = 0; /* draining (or growing): judge again from here */
        s->step_after_sent_us = sent_us;
        s->step_after_one_way_us = one_way_us;
    }
    s->step_after_acks++;
    if (s->step_after_acks >= PATH_STEP_MIN_ACKS && s->level_from_empty_path && s->level_first_sent_us < s->halved_at_us &&
        s->level_acks_before_halving >= PATH_STEP_MIN_ACKS) {
        undo_halvings(s);
    }
}

void vivace_on_loss(void *state, const cc_loss_event *event) {
    (void)event;
    vivace_state *s = state;
    s->path_step_open = 0; /* the episode lost packets: not only a longer path */
}

/* How late the ack came, from its packet's send time: a receiver that held its acks and reported the hold as ack
 * delay gives an RTT sample at the path's RTT, yet its late acks timed the MI out just the same. */
static int64_t ack_late_us(const vivace_state *s, const cc_ack_event *event) {
    return (event->now_us - event->packet->sent_time_us) - s->loop.ctx->rtt->min_rtt_us;
}

/* Whether an ack more than the MI timeout late was delayed on the way back: its packet met little forward queue. */
static int late_on_the_way_back(const vivace_state *s, int64_t one_way_us, int64_t late_us) {
    return late_us > pcc_loop_mi_timeout_us(&s->loop) && SPURIOUS_QUEUE_SHARE * (one_way_us - s->min_one_way_us) < late_us;
}

/* Whether the forward link held this ack's packet through a silence: the receiver had received nothing for longer
 * than the MI timeout before it (the forward gap, path_silence.h), and the packet met more than the MI timeout of
 * forward queue (its one-way delay above the lowest). A blackout of both directions does that: its RTT sample, and the
 * sRTT it enters, hold the blackout, not the path, as held acks do after a return-path silence. A queue that drains
 * delivers all along (no gap), and a sender that was idle sends into an empty queue (no wait). The MI timeout counts
 * min RTTs: the sRTT at such an ack already holds the silence (path_silence.h), the min RTT does not. */
static int held_through_forward_silence(const vivace_state *s, const cc_ack_event *event, int64_t one_way_us) {
    if (!vivace_flag(s, VIVACE_P_FORWARD_SILENCE_MI)) return 0;
    int64_t timeout_us = pcc_loop_mi_timeout_us(&s->loop);
    return cc_path_silence_forward_gap_us(event->silence) > timeout_us && one_way_us - s->min_one_way_us > timeout_us;
}

/* Whether an ack shows that the delay which timed the MI out cleared before the first halving, with no loss in the
 * episode (path_step_open): the packet was sent before it, at the rate that timed out, and came back on time (not
 * late) through an empty forward path. In eq. 4.1's model (§4.3.1, eq. 4.4) the sender's own queue drains only
 * when it sends below the capacity, so a queue that emptied while it still sent that rate was not its doing: a
 * stall of the receiving host (a browser tab's event loop that reads nothing for a while, then everything) or of
 * the path, which a halving relieves of nothing. An on-time ack that arrives after the halving is of a packet sent
 * less than an RTT and the MI timeout before it, after the late MI. */
static int cleared_before_halving(const vivace_state *s, const cc_ack_event *event, int64_t one_way_us, int late) {
    int64_t timeout_us = pcc_loop_mi_timeout_us(&s->loop);
    return event->packet->sent_time_us < s->halved_at_us && !late &&
           SPURIOUS_QUEUE_SHARE * (one_way_us - s->min_one_way_us) < timeout_us;
}

/* MI-timeout halvings assume the silence was congestion. A path's return direction alone also goes silent for
 * seconds (LTE uplinks): the data got through, only the acks waited, and the halvings leave the rate at the floor,
 * where 10-packet MIs take about a second each. Receive timestamps tell the two apart: a late ack whose packet met
 * no forward queue (its one-way delay near the lowest seen, while it came more than the MI timeout after the path's
 * RTT) was delayed on the way back. Then, like TCP's spurious-RTO undo (RFC 5682 F-RTO, Eifel), the rate returns
 * to what it was before the first halving. */
void vivace_timeout_on_ack(vivace_state *s, const cc_ack_event *event) {
    if (s->awaiting_feedback && cc_path_silence_ack_silence_end_us(event->silence) > s->halved_at_us) {
        s->episode_ack_silence = 1; /* the episode's feedback stopped altogether and came back */
    }
    /* The first ack ended a silence (path_silence.h: the data out waited longer than the first PTO for it): its RTT
     * sample, and the sRTT and min RTT it starts, are the wait. No one-way delay came before it to tell the return path
     * from the forward one, but nothing came before it either: the sRTT is the silence's alone, and the MIs it sizes
     * hold their rate for seconds with no decision (§4.4: an MI spans about an RTT). vivace_on_ack ends them once a
     * packet sent after the silence shows the path's RTT. */
    int64_t silence_end_us = cc_path_silence_ack_silence_end_us(event->silence);
    int first_rtt_silence = vivace_flag(s, VIVACE_P_FIRST_RTT_SILENCE);
    if (first_rtt_silence && !s->acked_any && silence_end_us == event->now_us) {
        s->srtt_has_return_delay = s->first_rtt_in_silence = 1;
    }
    s->acked_any = 1;
    if (s->first_rtt_in_silence && event->packet->sent_time_us >= silence_end_us) s->first_rtt_in_silence = 0;
    /* An MI open when a silence ended leaves the send-rate ceiling alone (monitor_interval.c). */
    s->loop.tracker.ack_silence_end_us = first_rtt_silence ? silence_end_us : 0;
    int64_t one_way_us;
    if (!vivace_ack_one_way_us(event, &one_way_us)) return;
    int64_t previous_one_way_us = s->have_one_way ? s->last_one_way_us : one_way_us;
    if (!s->have_one_way || one_way_us < s->min_one_way_us) s->min_one_way_us = one_way_us;
    s->have_one_way = 1;
    s->last_one_way_us = one_way_us;
    track_level(s, event->packet->sent_time_us, one_way_us, previous_one_way_us);
    int64_t late_us = ack_late_us(s, event);
    int late_with_no_queue = late_on_the_way_back(s, one_way_us, late_us);
    int first_slow_start_late = s->awaiting_feedback && s->halved_first_slow_start && late_with_no_queue;
    if (s->awaiting_feedback && late_with_no_queue) s->episode_late_on_the_way_back = 1;
    /* Only a packet sent after the first halving tells what the forward path does now: one sent before may have
     * crossed it just before the capacity fell, its ack held by a return path that went silent at the same time
     * (an LTE fade in both directions, a blackout), while everything since waits behind a full buffer. That is
     * enough to resume an interrupted first slow start once an MI completes (its first MI meets any such queue and
     * ends it), and to end the open MI that the silence's sRTT sized once the RTT is back near the minimum
     * (vivace_on_ack), not to undo the halvings at once. */
    int delayed_on_the_way_back = late_with_no_queue && event->packet->sent_time_us >= s->halved_at_us;
    int held_by_silent_link = held_through_forward_silence(s, event, one_way_us);
    /* the sRTT now holds that silence: vivace_on_ack shortens the open MI it sized */
    if (delayed_on_the_way_back || first_slow_start_late || held_by_silent_link) s->srtt_has_return_delay = 1;
    if (!s->awaiting_feedback && !s->path_step_open) return;
    int late = late_us > pcc_loop_mi_timeout_us(&s->loop);
    if (s->awaiting_feedback && delayed_on_the_way_back) {
        undo_halvings(s);
        return;
    }
    if (s->path_step_open && cleared_before_halving(s, event, one_way_us, late)) {
        undo_halvings(s);
        return;
    }
    if (s->path_step_open) judge_path_step(s, event, one_way_us, late);
}
