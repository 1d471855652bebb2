/* The DASH client of a video flow: its playback buffer (in seconds of media), startup and stalls, when it asks for
 * the next segment, and at which bitrate (a throughput rule over a ladder, like dash.js's). It knows nothing of
 * packets: video_stream.h carries the segments, simulator.c joins the two. Time only moves forward through
 * sim_video_player_advance, so every metric is exact to the microsecond, whatever the events in between. */
#ifndef PCC_SIM_VIDEO_PLAYER_H
#define PCC_SIM_VIDEO_PLAYER_H

#include <stddef.h>
#include <stdint.h>

#include "pcc_sim.h"

/* dash.js 5.2's streaming.buffer defaults: the buffer it keeps ahead (bufferTimeDefault) and, when playing the top
 * rendition, bufferTimeAtTopQuality. A single-rendition stream is always at its top. */
#define SIM_VIDEO_BUFFER_TARGET_S 18.0
#define SIM_VIDEO_BUFFER_TARGET_TOP_S 30.0
#define SIM_VIDEO_DEFAULT_SEGMENT_S 2.0
/* The throughput rule: the harmonic mean of the last N segment throughputs (dash.js's VOD sample count), times a
 * safety factor (dash.js's bandwidthSafetyFactor), picks the highest rung below it. Before the first sample the
 * player starts at the highest rung not above dash.js's default initial video bitrate (else the lowest). */
#define SIM_VIDEO_ABR_SAMPLES 4
#define SIM_VIDEO_ABR_SAFETY 0.9
#define SIM_VIDEO_ABR_INITIAL_BPS 1e6

typedef enum sim_video_state { SIM_VIDEO_STARTUP, SIM_VIDEO_PLAYING, SIM_VIDEO_STALLED } sim_video_state;

typedef struct sim_video_player {
    pcc_sim_video_config config;     /* segment_s and startup_buffer_s resolved */
    double ladder_bps[PCC_SIM_VIDEO_MAX_RUNGS];
    size_t rungs;                    /* 1 for a single rendition */
    sim_video_state state;
    double buffer_s;                 /* media appended and not yet played, at updated_us */
    int64_t updated_us;
    int64_t start_us;                /* the session starts with the flow */
    int64_t end_us;                  /* the run's end: per-second levels stop there */
    int64_t playback_started_us;     /* -1 until the first frame */
    double stall_s;
    double play_s;
    uint32_t stall_count;
    /* requests */
    uint32_t next_request;           /* index of the next segment to ask for */
    uint32_t outstanding;            /* asked for, not yet appended */
    double outstanding_s;            /* their media duration */
    size_t rung;                     /* rung of the last request */
    /* the throughput rule's samples, bits per second, newest last */
    double throughput_bps[PCC_SIM_VIDEO_MAX_ABR_SAMPLES];
    size_t abr_samples;              /* config.abr_samples resolved */
    size_t throughput_count;
    /* abandonment (config.abandon_lock_s > 0) */
    int64_t requested_us;            /* when the outstanding download was asked for (DASH: one at a time) */
    int64_t upswitch_locked_until_us; /* no rung above locked_rung before this */
    size_t locked_rung;
    uint32_t abandoned;
    /* metrics of appended segments */
    uint32_t appended;
    double bitrate_sum_bps;
    uint32_t switches;
    double last_appended_bps;
    /* the buffer level at every whole second (owned) */
    float *levels_s;
    size_t level_count;
    size_t level_capacity;
    int64_t next_level_us;
    int out_of_memory;
} sim_video_player;

/* config must be valid (pcc_sim_run checks it). */
void sim_video_player_init(sim_video_player *player, const pcc_sim_video_config *config, int64_t start_us,
                           int64_t end_us);
void sim_video_player_free(sim_video_player *player);
/* Moves the player's clock to now_us: plays out the buffer, starts a stall when it runs dry, records the buffer
 * level at each whole second passed. */
void sim_video_player_advance(sim_video_player *player, int64_t now_us);
/* The buffer target the player fills to (dash.js's rule unless max_buffer_s was given). */
double sim_video_player_target_s(const sim_video_player *player);
/* After advancing to now_us: 1 when the player asks for another segment now, with its index and bitrate (the
 * request is counted as outstanding), else 0. DASH: one request at a time, after the previous segment arrived,
 * while the buffer is below target. Continuous: while buffer + outstanding media is below target. */
int sim_video_player_want_segment(sim_video_player *player, uint32_t *index, double *bitrate_bps);
/* dash.js AbandonRequestsRule's thresholds: it judges a download only after this long, and checks on its progress
 * events (every ~50-100 ms; the simulator looks every SIM_VIDEO_ABANDON_CHECK_US). */
#define SIM_VIDEO_ABANDON_MIN_ELAPSED_US 500000
#define SIM_VIDEO_ABANDON_CHECK_US 100000
/* After advancing to now_us, with abandonment on and a DASH download outstanding for which bytes_received of
 * bytes_total have arrived: 1 when the player abandons it (the download is doomed: at its throughput so far the
 * rest arrives after the buffer runs dry, a lower rung fits that throughput and its whole segment is smaller than
 * what is left), with the bitrate to ask the same segment again at (the request stays outstanding, from now);
 * up-switches are then held for abandon_lock_s. Else 0. */
int sim_video_player_check_abandon(sim_video_player *player, uint64_t bytes_received, uint64_t bytes_total,
                                   double *bitrate_bps);
/* Segment index (the next in order) was received whole; its bytes took transfer_us from first to last byte
 * (the throughput rule's sample, as dash.js measures a download). Call after advancing to now_us. */
void sim_video_player_on_segment(sim_video_player *player, double bitrate_bps, uint64_t bytes, int64_t transfer_us);
/* When the player next needs the clock without any segment arriving (its buffer runs dry, or drains to where
 * it asks again), or INT64_MAX. */
int64_t sim_video_player_wake_us(const sim_video_player *player);
/* Fills the result (levels up to end_us; the player is advanced to end_us first). The result takes the levels. */
void sim_video_player_finish(sim_video_player *player, pcc_sim_video_result *out);

#endif
