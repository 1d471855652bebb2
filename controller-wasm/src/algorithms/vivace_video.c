/*
 * vivace-video: PCC Vivace whose utility hears the player (cc_on_app_state), as the thesis's discussion of
 * application-specific utilities suggests (§2.3, §4.3: the utility expresses what the application values; §5.2:
 * video). The controller is Vivace's (VIVACE_HOOKS); only the utility differs, through two knobs of eq. 4.1:
 *
 *   spare = min(buffer level now, time left to the current object's deadline)        (ms; unknown: no spare)
 *   w     = urgent_scale at spare <= buffer_low, 1 at spare >= buffer_healthy, linear between
 *   u     = R(x) - w·b·x·max(0, dRTT/dt) - c·x·L        (x in Mbit/s; R(x) = x^t, above a cap 2·cap^t - x^t)
 *   cap   = k(spare)·bitrate when spare >= buffer_healthy and the bitrate is known (Sammy's pacing), else none;
 *           k falls from 3.2 at buffer_healthy to 2.8 at twice that
 *
 * Low buffer or a near deadline: a stall costs far more than queueing delay, so the latency penalty shrinks (an
 * RTT rise that is not this flow's queue, an LTE scheduler's or a route change's, no longer pushes the rate down)
 * while the loss term, the one that keeps the flow from overrunning the buffer of the bottleneck, stays whole.
 * The scale is set by what a decision compares (§4.4.3): the probes r(1±ε), the lower one below the capacity
 * C without a queue, the upper one growing its own queue at g = (r(1+ε) - C)/C (eq. 4.4). The upper wins while
 * t·x^(t-1)·2εx > w·b·x(1+ε)·g; for the base rate to sit at C (g = ε, the upper probe's queue drained by the
 * lower's) w = 2·t·x^(t-1)/(b(1+ε)): 0.0013-0.0019 from 40 down to 1 Mbit/s, hence 0.0015. A larger w leaves
 * the base where Vivace's is, near C/(1+ε), short of a bitrate with less headroom than ε; a much smaller one lets
 * the base pass C and the queue grow until the loss term stops it.
 * Healthy buffer: full latency penalty, the friendliness eq. 4.1 was designed for (§4.3), and a reward that peaks
 * at k x the bitrate: the flow paces smoothly, leaving the link to others (Netflix's Sammy paces at
 * 2.8-3.2x the top bitrate by buffer level). k stays far above 1.4, below which a throughput-based ABR that is not
 * told the capacity falls to the lowest rendition. Without application state (no CMCD) w = 1 and no cap: the
 * utility is Vivace's, bit for bit.
 * A starving player (spare <= buffer_low) whose sender paces below the bitrate of the object it fetches, after an MI
 * that lost nothing and met no standing queue: the rate is below the capacity by an unknown amount, which is what
 * the starting phase is for (§4.4: double while the utility rises), so Vivace re-enters it, up to that bitrate (what
 * the player needs; probing goes on from there) with slow start's guards. Vivace itself waits for two clean probe
 * rounds after a fade (vivace_recovery.c); after a deep fade the rate sits near its floor, where an MI needs its
 * packets for a second or more, and that wait is seconds of stall (§5.2: a stall is what video pays for). The RTT
 * gradient does not count against a clean MI here: at that buffer eq. 4.1 barely weighs it either.
 * A bounded queue below the healthy spare (bound_queue_to_spare): the scaled-down latency term lets the base rate pass
 * the capacity C until only loss stops it, since past C both probes of a decision grow the queue and their gradients
 * differ by 2εr/C, too little for w·b to outweigh (§4.4.3). In eq. 4.4's model (§4.3.1) a rate past C delivers C
 * and adds only queue; on LTE that queue is what a fade multiplies (the bytes queued at C leave at the faded
 * capacity). So an MI that met a standing queue (its mean RTT over the min RTT) longer than a share of the player's
 * spare, and delivered less than it sent by more than ε, sets the base rate to its delivery less ε, the rate at which the
 * upper probe meets C, as slow start's exit does (§4.4).
 */
#include "vivace_state.h"

enum {
    VIVACE_VIDEO_P_BUFFER_LOW_MS = VIVACE_P_COUNT,
    VIVACE_VIDEO_P_BUFFER_HEALTHY_MS,
    VIVACE_VIDEO_P_URGENT_LATENCY_SCALE,
    VIVACE_VIDEO_P_SMOOTH_PACING,
    VIVACE_VIDEO_P_STARVED_RESTART,
    VIVACE_VIDEO_P_QUEUE_SPARE_SHARE,
    VIVACE_VIDEO_P_FADE_CUT,
    VIVACE_VIDEO_P_STARVED_RESTART_LOWEST_RTT,
    VIVACE_VIDEO_P_COUNT
};

/* Sammy (SIGCOMM 2023): pacing multiples of the bitrate at a healthy and at a full buffer. */
#define SAMMY_MULTIPLE_HEALTHY 3.2
#define SAMMY_MULTIPLE_FULL 2.8
/* The player's state is trusted this long after its report (a CMCD report comes with every segment request). */
#define APP_STATE_MAX_AGE_US 10000000
/* The defaults of the video parameters: the healthy threshold is dash.js's stable buffer (the level its player
 * keeps), where pacing may be smooth; the low one is two 2-s segments; the urgent scale is the balance derived
 * above. */
#define VIDEO_BUFFER_LOW_MS 4000
#define VIDEO_BUFFER_HEALTHY_MS 12000
#define VIDEO_URGENT_LATENCY_SCALE 0.0015
#define VIDEO_SMOOTH_PACING 1
#define VIDEO_STARVED_RESTART 1
/* The restart's standing-queue test reads the MI's lowest RTT sample, not its mean (restart_for_starving_player). */
#define VIDEO_STARVED_RESTART_LOWEST_RTT 1
/* The queue a low-buffer sender may keep, as a share of the player's spare: 1/20, so that the queued bytes still leave
 * within the spare after a 20x fade (Verizon-LTE-short falls from 6 to 0.24-0.8 Mbit/s within a second); never
 * below one min RTT (RTT noise and the queue a probe at C(1+ε) builds within an MI). */
#define VIDEO_QUEUE_SPARE_SHARE 0.05
#define VIDEO_QUEUE_MIN_RTTS 1.0
/* The fade cut (cut_to_delivery_in_fade): acks whose delivery-rate samples stay under this share of the rate sent.
 * Slow start sends at most twice the delivery rate its acks measured (slow_start_delivery_gain 2), and a probe past
 * the capacity C delivers C / (1 + ε), so on a link that did not change the samples stay at half or more. */
#define VIDEO_FADE_CUT_DELIVERY_SHARE 0.5
/* ... for at least this many min RTTs of acks, with every ack's RTT beyond the noise allowance and the last above the
 * first: a fade that lasts, not an LTE scheduler's gap of tens of ms at full capacity (TMobile-LTE-short's 100-ms
 * capacity swings 3x). */
#define VIDEO_FADE_CUT_SPAN_MIN_RTTS 2.0
/* ... and at least this long: RTT noise pulls the min RTT below the path's (8 ms of noise put pcc-sim's at 20 ms on a
 * 40-ms path), and a delay excursion of the noise's own length (tens of ms) stalls the acks and then releases them. */
#define VIDEO_FADE_CUT_SPAN_MIN_US 150000.0
#define VIDEO_FADE_CUT 0
#define VIDEO_REGAIN_WITHOUT_QUEUE 1
/* LTE's capacity swings 3x within 100 ms (TMobile-LTE-short): a first slow start that ends on one MI's RTT gradient
 * ends on whichever dip it meets first (vivace_slow_start.c, slow_start_persistent_queue). */
#define VIDEO_SLOW_START_PERSISTENT_QUEUE 1
/* gradient_span_ms (vivace_utility.c): off, as for vivace. A 300-ms span (about three of an LTE scheduler's swings)
 * raised the rate on TMobile-LTE-short in pcc-sim, but test_fade_recovery's batched receiver then meets its fade at a
 * low point of the rate's oscillation, and the recovery, which targets the rate before the fade, falls short. */
#define VIDEO_GRADIENT_SPAN_MS 0

static const cc_param_desc vivace_video_params[VIVACE_VIDEO_P_COUNT] = {
    VIVACE_PARAM_ROWS(900, 0, VIDEO_REGAIN_WITHOUT_QUEUE, VIDEO_SLOW_START_PERSISTENT_QUEUE, VIDEO_GRADIENT_SPAN_MS),
    {"video_buffer_low_ms", VIDEO_BUFFER_LOW_MS, 0, 600000,
     "spare time (buffer, or time to the deadline) at or below which the latency penalty is scaled down fully, ms (two 2-s segments)"},
    {"video_buffer_healthy_ms", VIDEO_BUFFER_HEALTHY_MS, 0, 600000,
     "spare time at or above which the full latency penalty applies and pacing may be smooth, ms (dash.js's stable buffer)"},
    {"video_urgent_latency_scale", VIDEO_URGENT_LATENCY_SCALE, 0, 1, "factor on b (eq. 4.1) when the buffer is low or the deadline near"},
    {"video_smooth_pacing", VIDEO_SMOOTH_PACING, 0, 1,
     "boolean; 1: with a healthy buffer and a known bitrate, the utility peaks at 2.8-3.2x the bitrate (Sammy)"},
    {"video_starved_restart", VIDEO_STARVED_RESTART, 0, 1,
     "boolean; 1: a clean MI below the current object's bitrate while the buffer is low re-enters the starting phase, up to that bitrate"},
    {"video_queue_spare_share", VIDEO_QUEUE_SPARE_SHARE, 0, 1,
     "below the healthy spare, an MI whose standing queue exceeds this share of the spare (at least one min RTT) and that delivered less than the base rate sets the base to its delivery less epsilon; 0: off"},
    {"video_fade_cut", VIDEO_FADE_CUT, 0, 1,
     "boolean; 1: acks whose delivery-rate samples stay under half the rate sent for two min RTTs (150 ms at least), with RTTs beyond the noise allowance and rising, set the rate to what the link delivered over them less epsilon and drain the queue, at once"},
    {"video_starved_restart_lowest_rtt", VIDEO_STARVED_RESTART_LOWEST_RTT, 0, 1,
     "boolean; 1: the starving player's restart is held by a standing queue only when the MI's lowest RTT sample is above 1.5 x the min RTT (0: its mean RTT, which a lone packet's wait for an LTE link's transmit opportunity passes with no queue)"},
};

typedef struct vivace_video_state {
    vivace_state vivace;             /* first: Vivace's hooks and the PCC loop receive this state */
    /* the adjustment, fixed per decision epoch so the MIs a decision compares are valued alike */
    uint64_t adjust_epoch;
    int have_adjust;
    double latency_scale;
    double throughput_cap_mbps;
    /* the fade cut: the run of acks that showed a fade (0: none), its first ack's queue and delivered count */
    int64_t fade_acks_since_us;
    int64_t fade_first_queue_us;
    uint64_t fade_first_delivered_bytes;
    int64_t fade_cut_at_us;          /* the last cut: only acks of packets sent after it count */
} vivace_video_state;

static double param(const vivace_video_state *s, int index) { return s->vivace.loop.ctx->params[index]; }

/* The player's spare time now, ms: the buffer level less the report's age (the buffer drains in real time while
 * nothing arrives, so this is a lower bound) or the time left to the deadline, whichever is less; negative when
 * neither is known or the report is stale. */
static double spare_ms(const cc_app_view *app, int64_t now_us) {
    if (app->buffer_ms < 0 && app->deadline_us < 0) return -1.0;
    double age_us = (double)(now_us - app->updated_us);
    if (age_us > APP_STATE_MAX_AGE_US) return -1.0;
    if (age_us < 0) age_us = 0;
    double buffer = app->buffer_ms >= 0 ? app->buffer_ms - age_us / 1000.0 : 0.0;
    double deadline = app->deadline_us >= 0 ? ((double)app->deadline_us - age_us) / 1000.0 : 0.0;
    double spare = app->buffer_ms < 0 ? deadline : app->deadline_us < 0 ? buffer : (buffer < deadline ? buffer : deadline);
    return spare > 0 ? spare : 0.0;
}

/* w and the cap from the spare time (see the header comment). */
static void adjust_for(const vivace_video_state *s, double spare, double bitrate_bps, double *latency_scale,
                       double *cap_mbps) {
    *latency_scale = 1.0;
    *cap_mbps = 0.0;
    if (spare < 0) return;
    double low = param(s, VIVACE_VIDEO_P_BUFFER_LOW_MS), healthy = param(s, VIVACE_VIDEO_P_BUFFER_HEALTHY_MS);
    double urgent = param(s, VIVACE_VIDEO_P_URGENT_LATENCY_SCALE);
    if (healthy < low) healthy = low;
    if (spare <= low) {
        *latency_scale = urgent;
    } else if (spare < healthy) {
        *latency_scale = urgent + (1.0 - urgent) * (spare - low) / (healthy - low);
    }
    if (spare >= healthy && healthy > 0 && bitrate_bps > 0 && param(s, VIVACE_VIDEO_P_SMOOTH_PACING) >= 0.5) {
        double fullness = (spare - healthy) / healthy;
        if (fullness > 1) fullness = 1;
        double multiple = SAMMY_MULTIPLE_HEALTHY + (SAMMY_MULTIPLE_FULL - SAMMY_MULTIPLE_HEALTHY) * fullness;
        *cap_mbps = multiple * bitrate_bps * 1e-6;
    }
}

static double vivace_video_utility(void *state, const pcc_mi_result *r, double *noise_var) {
    vivace_video_state *s = state;
    const pcc_loop *loop = &s->vivace.loop;
    if (!s->have_adjust || s->adjust_epoch != loop->epoch) {
        const cc_app_view *app = loop->ctx->app;
        adjust_for(s, spare_ms(app, loop->now_us), app->bitrate_bps, &s->latency_scale, &s->throughput_cap_mbps);
        s->adjust_epoch = loop->epoch;
        s->have_adjust = 1;
    }
    /* regain_without_queue (vivace_recovery.c) serves a player that waits for data (its spare below the healthy
     * level, w < 1), and never past the rate the utility wants at most; a healthy or unknown buffer values latency as
     * Vivace does (§4.3). */
    s->vivace.regain_held = !(s->latency_scale < 1.0);
    s->vivace.regain_ceiling = s->throughput_cap_mbps / 8e-6;
    return vivace_mi_utility_adjusted(state, r, noise_var, s->latency_scale, s->throughput_cap_mbps);
}

/* The starting phase for a starving player (see the header comment): after Vivace's own handling of a finished MI,
 * a clean MI below the bitrate the player is fetching, while its spare time is low, doubles the rate up to that
 * bitrate. Clean means the tests eq. 4.1's low-buffer form still weighs: no loss, no standing queue (one that
 * delayed every packet of the MI, vivace_mi_queue_stood); an RTT gradient alone does not count, as it barely does in
 * the utility at that buffer. */
static void restart_for_starving_player(vivace_video_state *video, const pcc_mi_outcome *outcome) {
    vivace_state *s = &video->vivace;
    const pcc_mi_result *r = outcome->result;
    if (param(video, VIVACE_VIDEO_P_STARVED_RESTART) < 0.5) return;
    if (!outcome->valid || r->app_limited || r->timed_out || r->stats.packets_lost > 0) return;
    if (s->phase == STATE_SLOW_START || s->drain_duration_us > 0 || s->awaiting_feedback) return;
    const cc_app_view *app = s->loop.ctx->app;
    double spare = spare_ms(app, s->loop.now_us);
    if (spare < 0 || spare > param(video, VIVACE_VIDEO_P_BUFFER_LOW_MS)) return;
    double needed_rate = app->bitrate_bps / 8.0; /* bytes/s */
    /* After a fade the starting phase goes back up to the rate the fade began from, as Vivace's own recovery would
     * (vivace_recovery.c): the bitrate is what the player needs, not a bound on what the link had. So it also starts
     * when the rate is already above the bitrate but below that: after a dip the player asks for its lowest rendition,
     * and a rate a little above it refills no buffer (it only keeps up), while a download-time-weighted ABR estimate
     * takes those slow transfers for the path's. */
    double target_rate = s->fade_pending && s->rate_before_fade > needed_rate ? s->rate_before_fade : needed_rate;
    int queue = param(video, VIVACE_VIDEO_P_STARVED_RESTART_LOWEST_RTT) >= 0.5 ? vivace_mi_queue_stood(s, r)
                                                                              : vivace_mi_standing_queue(s, r);
    if (!(s->base_rate < target_rate) || queue) return;
    vivace_recover_up_to(s, target_rate); /* the end of the object (an MI the sender could not fill) holds its doubling */
}

/* The queue bound (see the header comment): while the low-buffer utility is in force (w < 1), a probing MI that met a
 * standing queue longer than the allowance and delivered less than the base rate measured C (eq. 4.4: past C the
 * link delivers C); the base goes to C(1 - ε), where the upper probe meets C, and probing starts anew from there. */
static void bound_queue_to_spare(vivace_video_state *video, const pcc_mi_outcome *outcome) {
    vivace_state *s = &video->vivace;
    const pcc_mi_result *r = outcome->result;
    double share = param(video, VIVACE_VIDEO_P_QUEUE_SPARE_SHARE);
    if (!(share > 0) || !video->have_adjust || !(video->latency_scale < 1.0)) return;
    if (!outcome->valid || r->app_limited || r->timed_out) return;
    if (s->phase != STATE_PROBING || s->drain_duration_us > 0 || s->awaiting_feedback) return;
    double spare = spare_ms(s->loop.ctx->app, s->loop.now_us);
    double min_rtt_us = (double)s->loop.ctx->rtt->min_rtt_us;
    if (spare < 0 || !(min_rtt_us > 0)) return;
    double allowance_us = share * spare * 1000.0;
    if (allowance_us < VIDEO_QUEUE_MIN_RTTS * min_rtt_us) allowance_us = VIDEO_QUEUE_MIN_RTTS * min_rtt_us;
    if (!(r->stats.avg_rtt_us - min_rtt_us > allowance_us)) return;
    double delivered = r->stats.throughput_bps / 8.0; /* bytes/s */
    /* Capacity shows as a delivery short of what this MI itself sent, less ε, not short of the base rate: the lower
     * probe sends r(1-ε) and so delivers less than r on any link, and with RTT noise above the one-min-RTT allowance
     * (a browser's delayed acks on a sub-ms path) each such MI would cut the base by ~2ε, a ratchet down to the
     * floor. ε is within a probe pair's swing (§4.4.3), so a capacity short of the upper probe is still caught. */
    double shortfall_of = r->stats.send_rate_bps / 8.0 * (1.0 - vivace_param(s, VIVACE_P_EPSILON));
    if (!(delivered > 0) || !(delivered < shortfall_of)) return;
    vivace_enter_probing(s, delivered * (1.0 - vivace_param(s, VIVACE_P_EPSILON)));
}

/* The fade cut (see the header comment): acks that for two min RTTs delivered under half of the rate sent while the
 * RTT stood beyond its noise and rose: the capacity fell under the rate. An MI's result would say so only once its
 * last packet is acknowledged, behind the queue it measures (seconds in a deep fade, and the MI itself is an sRTT
 * long), so the acks decide. The rate goes to what the run delivered, less ε, at once, and one drain MI
 * removes what was queued. */
static void cut_to_delivery_in_fade(vivace_video_state *video, const cc_ack_event *event) {
    vivace_state *s = &video->vivace;
    if (param(video, VIVACE_VIDEO_P_FADE_CUT) < 0.5 || !(vivace_param(s, VIVACE_P_LATENCY_COEFFICIENT) > 0)) return;
    if (event->delivery_rate_app_limited || !(event->delivery_rate_bytes_per_s > 0)) return; /* says nothing */
    double min_rtt_us = (double)event->rtt->min_rtt_us;
    double rate_now = vivace_pending_rate(s);
    /* The queue this ack met: on the receiver's clock when the ack carries it (vivace_timeout.c keeps the lowest
     * one-way delay), so that acks held on the way back (a busy receiver, an uplink gap) are no fade; else the RTT's. */
    int64_t one_way_us, queue_us = event->rtt_us - (int64_t)min_rtt_us;
    if (s->have_one_way && vivace_ack_one_way_us(event, &one_way_us)) queue_us = one_way_us - s->min_one_way_us;
    int fading = !s->awaiting_feedback && min_rtt_us > 0 && event->packet->sent_time_us > video->fade_cut_at_us &&
                 (double)queue_us > vivace_no_queue_allowance_us(s) &&
                 event->delivery_rate_bytes_per_s < VIDEO_FADE_CUT_DELIVERY_SHARE * rate_now;
    if (!fading) {
        video->fade_acks_since_us = 0;
        return;
    }
    if (video->fade_acks_since_us == 0) {
        video->fade_acks_since_us = event->now_us;
        video->fade_first_queue_us = queue_us;
        video->fade_first_delivered_bytes = event->delivered_bytes;
    }
    int64_t span_us = event->now_us - video->fade_acks_since_us;
    if ((double)span_us < VIDEO_FADE_CUT_SPAN_MIN_RTTS * min_rtt_us || (double)span_us < VIDEO_FADE_CUT_SPAN_MIN_US) return;
    if (!(queue_us > video->fade_first_queue_us)) return; /* no growing queue (yet) */
    /* What the link delivered over the run, by the acks' clock: a delivery-rate sample spans its packet's flight,
     * which began before the fade, so it lags by an RTT of the old capacity. It too must be short of the rate. */
    double delivered = (double)(event->delivered_bytes - video->fade_first_delivered_bytes) / ((double)span_us * 1e-6);
    if (!(delivered > 0) || !(delivered < VIDEO_FADE_CUT_DELIVERY_SHARE * rate_now)) return;
    video->fade_acks_since_us = 0;
    video->fade_cut_at_us = event->now_us;
    vivace_note_fade(s, rate_now); /* the recoveries (vivace_recovery.c) know the rate it began from */
    s->recovery_target = 0.0;
    vivace_enter_probing(s, delivered * (1.0 - vivace_param(s, VIVACE_P_EPSILON)));
    vivace_schedule_drain(s, delivered);
}

static void vivace_video_on_ack(void *state, const cc_ack_event *event) {
    vivace_on_ack(state, event);
    cut_to_delivery_in_fade(state, event);
}

static void vivace_video_on_result(void *state, const pcc_mi_outcome *outcome) {
    vivace_on_result(state, outcome);
    bound_queue_to_spare(state, outcome);
    restart_for_starving_player(state, outcome);
}

static const pcc_hooks vivace_video_hooks = VIVACE_HOOKS_WITH_ACK_RESULT(vivace_video_utility, vivace_video_on_ack,
                                                                         vivace_video_on_result);

static void vivace_video_init(void *state, cc_context *ctx, int64_t now_us) {
    (void)now_us;
    vivace_init_with_hooks(state, ctx, &vivace_video_hooks);
}

const cc_ops cc_ops_vivace_video = {
    .name = "vivace-video",
    .description = "PCC Vivace whose utility hears the player: throughput first at a low buffer, low latency and smooth pacing at a healthy one",
    .state_size = sizeof(vivace_video_state),
    .params = vivace_video_params,
    .param_count = VIVACE_VIDEO_P_COUNT,
    .delivery_rate_unused = 0, /* slow start reads it */
    .init = vivace_video_init,
    PCC_LOOP_OPS,
};
