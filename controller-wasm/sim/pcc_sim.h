/*
 * pcc-sim: a deterministic, seeded, discrete-event packet-level simulator of a dumbbell bottleneck.
 *
 * N flows, each driven by a controller of the library (include/pcc/cc.h), share one droptail bottleneck:
 *
 *   sender_i --(random loss)--> [droptail queue, bytes] --link (constant rate or mahimahi trace)-->
 *       --(one-way delay)--> receiver_i --(one-way delay, no loss, no queue)--> sender_i (acks)
 *
 * Time is integer microseconds, every random draw comes from `seed`, and simultaneous events are processed
 * in insertion order, so the same config gives the same result, bit for bit. The API reads no files and
 * prints nothing (the CLI in sim_main.c does), so it compiles unchanged to WebAssembly.
 */
#ifndef PCC_SIM_H
#define PCC_SIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PCC_SIM_MAX_FLOWS 64
#define PCC_SIM_NAME_BYTES 32
#define PCC_SIM_DEFAULT_SEND_JITTER_US 500
/* About one monitor interval at 30 ms: the real path's one-way delay drifts over an MI (path_jitter.h). */
#define PCC_SIM_DEFAULT_JITTER_TAU_US 30000
#define PCC_SIM_STR_(x) #x
#define PCC_SIM_STR(x) PCC_SIM_STR_(x)

/* A value redrawn uniformly in [min, max] at t = 0, period, 2·period, ... (seeded). period_us = 0: off. */
typedef struct pcc_sim_schedule {
    double min_value;
    double max_value;
    int64_t period_us;
} pcc_sim_schedule;

/* A flow that is a DASH video player instead of a bulk sender (video_player.h, video_stream.h). The player asks
 * for one segment at a time; the request travels up the path (half the RTT, behind the acks) and the sender then
 * has that segment's bytes to send, and nothing once they are out (app-limited, reported to the controller with
 * cc_on_app_state as the origin does). Segments carry whole packets; lost ones are sent again. */
#define PCC_SIM_VIDEO_MAX_RUNGS 16
#define PCC_SIM_VIDEO_MAX_ABR_SAMPLES 16
typedef struct pcc_sim_video_config {
    double bitrate_bps;          /* the one rendition (CBR or VBR); ignored when ladder_count > 0 */
    const double *ladder_bps;    /* ABR: rungs in increasing order, chosen by a throughput rule; NULL: none */
    size_t ladder_count;
    double segment_s;            /* segment duration; 0 = 2 s */
    double vbr_cv;               /* 0: CBR; else segment sizes vary around the nominal with this coefficient of
                                  * variation (uniform, seeded, the same factor for every rung), at most 0.5 */
    int continuous;              /* 1: no request gaps: the player keeps max_buffer_s of media asked for and the
                                  * sender streams the segments back to back (the thesis's RTSP-over-TCP proxy, §5.2) */
    double startup_buffer_s;     /* media needed to start (and resume after a stall); 0 = one segment */
    double max_buffer_s;         /* no request while the buffer holds this much; 0 = dash.js's rule (30 s at the
                                  * top rendition, 18 s below) */
    size_t abr_samples;          /* segments in the throughput rule's harmonic mean; 0 = SIM_VIDEO_ABR_SAMPLES (4),
                                  * at most PCC_SIM_VIDEO_MAX_ABR_SAMPLES */
    double abandon_lock_s;       /* 0: never abandon. Else the player page's abandonment rule (player/src/dash/
                                  * abandon-rule.ts, here without its 1-s margin): a download whose rest, at its
                                  * throughput so far, would arrive after the buffer ran dry is abandoned and asked again at the rung that throughput allows, and the ABR
                                  * does not switch up for this long (the page's ABANDON_LOCK_MS: 4 s) */
} pcc_sim_video_config;

typedef struct pcc_sim_flow_config {
    const char *cc;            /* algorithm name, e.g. "vivace" (see cc_algorithm_name_at) */
    const char *cc_params;     /* optional "name=value,name=value" set with cc_param_set; NULL or "" for none */
    int64_t start_us;          /* when the flow starts sending (bulk, always backlogged) */
    int64_t base_rtt_us;       /* two-way propagation delay, split evenly between the two directions */
    uint32_t packet_bytes;     /* size of every packet on the wire; 0 = 1500 */
    const pcc_sim_video_config *video; /* NULL: a bulk sender; else a video player (bitrate or ladder given) */
} pcc_sim_flow_config;

/* Called once per flow at the end of every sample interval (default 100 ms). */
typedef struct pcc_sim_sample {
    int64_t time_us;               /* end of the interval */
    uint32_t flow;                 /* flow index */
    const char *cc;
    double pacing_rate_bps;        /* controller's pacing rate at time_us */
    double cwnd_bytes;             /* controller's window (CC_CWND_UNLIMITED_BYTES when rate-based) */
    double send_rate_bps;          /* bits sent in the interval / interval */
    double throughput_bps;         /* bits received by the receiver in the interval / interval */
    double rtt_us;                 /* mean RTT sample of acks in the interval, 0 when none */
    uint64_t packets_lost;         /* dropped in the network during the interval (queue + random) */
    uint64_t queue_bytes;          /* bottleneck queue occupancy at time_us (all flows) */
    double queue_delay_us;         /* queueing delay of the last packet that left the bottleneck */
    double capacity_bps;           /* bottleneck capacity offered in the interval */
    /* the controller's telemetry at time_us (cc_get_telemetry), for diagnosing its decisions */
    const char *cc_state;          /* static string, "" before the flow starts */
    double last_mi_utility;
    double last_mi_loss_rate;
    double gradient;
    double last_mi_rtt_gradient;   /* the last MI's RTT regression slope (dimensionless), before any filter */
    uint64_t mi_completed;
    double video_buffer_s;         /* video flows: the player's buffer at time_us (0 for bulk flows) */
    double video_bitrate_bps;      /* video flows: bitrate of the last segment asked for */
    int video_stalled;             /* video flows: 1 while playback is stalled */
} pcc_sim_sample;

typedef void (*pcc_sim_sample_fn)(const pcc_sim_sample *sample, void *user_data);

/* Return-path RTT noise (path_jitter.h): one extra delay per hold_us epoch, lognormal (median median_us, shape
 * sigma) or with probability tail_share Pareto (scale tail_scale_us, index tail_index), capped at cap_us, added to
 * every ack (and video request) of the epoch; the return path stays FIFO. median_us = 0: off. */
typedef struct pcc_sim_rtt_noise {
    double median_us;
    double sigma;
    double tail_share;
    double tail_scale_us;
    double tail_index;
    double hold_us;
    double cap_us;
} pcc_sim_rtt_noise;

typedef struct pcc_sim_config {
    uint64_t seed;
    int64_t duration_us;
    /* Bottleneck: a constant rate, or a mahimahi trace (millisecond timestamps, non-decreasing) when
     * trace_ms_count > 0. rate_schedule_bps, when on, redraws the constant rate every period. */
    double rate_bps;
    const uint32_t *trace_ms;
    size_t trace_ms_count;
    pcc_sim_schedule rate_schedule_bps;
    uint64_t buffer_bytes;          /* droptail limit on bytes waiting (the packet being sent is not counted) */
    double loss_rate;               /* random loss of data packets before the queue, in [0, 1) */
    /* Each packet leaves its sender a uniform random 0..send_jitter_us after its pacing time, as an OS
     * timer releases it late. Exactly paced flows phase-lock to a full droptail queue: the big flow's
     * packets take each freed slot and small flows' packets meet a full queue (the phase effects of
     * Floyd and Jacobson, 1992). 0: exact pacing. */
    int64_t send_jitter_us;
    /* Forward-path delay jitter (path_jitter.h): each data packet's one-way delay after the bottleneck gets an
     * extra, slowly wandering delay (zero mean, standard deviation jitter_sd_us, correlation time
     * jitter_tau_us), one seeded process per flow; the path stays FIFO. jitter_sd_us = 0: off (the default). */
    double jitter_sd_us;
    double jitter_tau_us;           /* 0 = PCC_SIM_DEFAULT_JITTER_TAU_US */
    pcc_sim_rtt_noise rtt_noise;    /* off unless median_us > 0 (sim_args: --rtt-noise real-path) */
    /* A delayed-ack receiver (QUIC's default, RFC 9000 §13.2.2): every second packet is acknowledged at once, a lone
     * one after ack_delay_us (QUIC's max_ack_delay: 25 ms), so that packet's RTT sample carries the wait.
     * 0: every packet acknowledged at once (the default). */
    int64_t ack_delay_us;
    pcc_sim_schedule loss_schedule; /* when on, replaces loss_rate every period */
    pcc_sim_schedule rtt_schedule_us; /* when on, replaces every flow's base RTT every period */
    size_t flow_count;
    const pcc_sim_flow_config *flows;
    int64_t sample_interval_us;     /* time series interval; 0 = 100 ms */
    pcc_sim_sample_fn on_sample;    /* optional */
    void *user_data;
} pcc_sim_config;

/* What a video flow's player saw (is_video = 0 for bulk flows). Definitions as the bench's (bench/harness/README.md):
 * buffering ratio = stall time / (stall + playing time), startup excluded. */
typedef struct pcc_sim_video_result {
    int is_video;
    double buffering_ratio;
    double buffering_ratio_with_startup; /* (startup + stall) / (startup + stall + playing) */
    double startup_delay_s;              /* flow start to first frame; -1 when playback never started */
    double stall_s;
    double play_s;
    uint32_t stall_count;
    uint32_t segments;                   /* segments played or in the buffer (appended) */
    uint32_t switches;                   /* rendition changes between consecutive segments */
    uint32_t abandoned;                  /* downloads abandoned and asked again lower (abandon_lock_s > 0) */
    double average_bitrate_bps;          /* mean nominal bitrate of the appended segments */
    double sender_idle_s;                /* time the sender had nothing to send after its first request */
    uint32_t player_state_reports;       /* cc_on_app_state calls with the player's state (one per request) */
    uint32_t app_limited_reports;        /* cc_on_app_state calls with app_limited = 1 (one per idle spell) */
    /* The buffer level (s) at every whole second of the run, 1..duration: buffer_levels_s[k] at k + 1 s.
     * Allocated by pcc_sim_run, released by pcc_sim_result_free. */
    float *buffer_levels_s;
    size_t buffer_level_count;
} pcc_sim_video_result;

typedef struct pcc_sim_flow_result {
    char cc[PCC_SIM_NAME_BYTES];
    int64_t start_us;
    double throughput_bps;           /* bits received / time from start to end of run */
    double throughput_last_half_bps; /* bits received in the last half of the run / that half */
    double p95_rtt_us;               /* 95th percentile of per-packet RTT samples */
    double mean_rtt_us;
    double min_rtt_us;
    double base_rtt_us;              /* the flow's configured propagation RTT (mean when scheduled) */
    double loss_rate;                /* packets dropped in the network / packets sent */
    double detected_loss_rate;       /* packets the sender declared lost (RFC 9002) / packets sent */
    uint64_t packets_sent;
    uint64_t packets_received;
    uint64_t packets_dropped_queue;
    uint64_t packets_dropped_random;
    uint64_t packets_declared_lost;
    uint64_t spurious_losses;        /* declared lost, then acknowledged */
    pcc_sim_video_result video;
} pcc_sim_flow_result;

typedef struct pcc_sim_result {
    size_t flow_count;
    pcc_sim_flow_result flows[PCC_SIM_MAX_FLOWS];
    double jain_index;               /* Jain's fairness index of the flows' last-half throughputs */
    double link_utilization;         /* bytes delivered by the bottleneck / bytes it could deliver */
    double capacity_bps;             /* mean bottleneck capacity over the run */
    uint64_t events_processed;
    uint64_t packets_simulated;      /* data packets sent by all flows */
} pcc_sim_result;

enum pcc_sim_status {
    PCC_SIM_OK = 0,
    PCC_SIM_ERR_INVALID = -1,   /* bad configuration; the error text says which field */
    PCC_SIM_ERR_NO_MEMORY = -2
};

/* Fills a config with the defaults (100 Mbit/s, 30 ms, 75 KB, no loss, 60 s, seed 1, no flows). */
void pcc_sim_config_init(pcc_sim_config *config);

/* Runs one simulation. On error returns a negative pcc_sim_status and writes a one-line reason into
 * error (if error_bytes > 0); nothing is leaked either way. */
int pcc_sim_run(const pcc_sim_config *config, pcc_sim_result *result, char *error, size_t error_bytes);
/* Releases what a run allocated in result (video flows' buffer levels); a no-op for bulk-only runs. */
void pcc_sim_result_free(pcc_sim_result *result);

#ifdef __cplusplus
}
#endif
#endif /* PCC_SIM_H */
