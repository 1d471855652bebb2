/*
 * pcc_sim_run: wires flows, the bottleneck and the two propagation paths together over one event queue.
 * See pcc_sim.h for the topology.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_queue.h"
#include "flow_metrics.h"
#include "link.h"
#include "pcc_sim.h"
#include "schedule.h"
#include "sender.h"
#include "path_jitter.h"
#include "sim_rng.h"
#include "video_player.h"
#include "video_stream.h"

#define SIM_DEFAULT_SAMPLE_INTERVAL_US 100000
#define SIM_TICK_INTERVAL_US 1000
#define SIM_MAX_DURATION_US (86400LL * 1000000)
#define SIM_MAX_RTT_US (10LL * 1000000)
#define SIM_MIN_RATE_BPS 1e3
#define SIM_MAX_RATE_BPS 1e12
#define SIM_MAX_VIDEO_SEGMENT_S 3600.0
#define SIM_MAX_VIDEO_VBR_CV 0.5

/* Random streams: one per random process, so they never shift one another. */
enum { STREAM_LOSS = 1, STREAM_RATE_SCHEDULE, STREAM_RTT_SCHEDULE, STREAM_LOSS_SCHEDULE, STREAM_CONTROLLER = 1000,
       STREAM_SEND_JITTER = 2000, STREAM_VIDEO_VBR = 3000, STREAM_PATH_JITTER = 4000,
       STREAM_RTT_NOISE = 5000 };

typedef struct sim_flow {
    const pcc_sim_flow_config *config;
    sim_sender sender;
    sim_flow_metrics metrics;
    int active;
    int64_t rtt_us;                  /* current propagation RTT */
    int64_t send_at_us;              /* scheduled SEND event, -1 when none */
    uint64_t send_generation;
    int64_t timer_at_us;             /* scheduled SENDER_TIMER, -1 when none */
    uint64_t timer_generation;
    int64_t last_arrival_us;         /* the paths are FIFO: a shorter delay never overtakes */
    sim_path_jitter path_jitter;     /* extra forward delay after the bottleneck (off unless configured) */
    sim_rtt_noise rtt_noise;         /* extra return delay of acks and requests (off unless configured) */
    int has_pending_ack;             /* delayed acks: a packet received and not yet acknowledged */
    sim_packet pending_ack;
    uint64_t ack_timer_generation;
    int64_t last_ack_arrival_us;     /* the upstream path (acks, video requests) is FIFO too */
    /* video flows only */
    int is_video;
    sim_video_player player;
    sim_video_stream stream;
    sim_rng vbr_rng;
    int64_t player_wake_us;          /* scheduled VIDEO_PLAYER, -1 when none */
    uint64_t player_generation;
    int app_limited_signalled;       /* once per idle spell, as server/src/datagram/controller-ticker.ts */
    int64_t last_request_at_sender;  /* segment index of the newest request the sender has, -1 before */
    int64_t idle_since_us;           /* the sender has had nothing to send since, -1 while it has */
    double idle_s;
    uint32_t player_state_reports;
    uint32_t app_limited_reports;
    int *status;                     /* the world's, for the loss callback */
} sim_flow;

typedef struct sim_world {
    const pcc_sim_config *config;
    sim_event_queue events;
    mm_trace trace;
    sim_link link;
    sim_rng loss_rng;
    sim_schedule rate_schedule;
    sim_schedule rtt_schedule;
    sim_schedule loss_schedule;
    double loss_rate;
    sim_flow *flows;
    size_t flow_count;
    int64_t now_us;
    int64_t half_us;
    int64_t sample_interval_us;
    double capacity_bits_at_last_sample;
    int status;
    uint64_t events_processed;
} sim_world;

static void fail(char *error, size_t error_bytes, const char *format, ...) {
    if (error_bytes == 0) return;
    va_list args;
    va_start(args, format);
    vsnprintf(error, error_bytes, format, args);
    va_end(args);
}

void pcc_sim_config_init(pcc_sim_config *config) {
    memset(config, 0, sizeof *config);
    config->seed = 1;
    config->duration_us = 60LL * 1000000;
    config->rate_bps = 100e6;
    config->buffer_bytes = 75000;
    config->send_jitter_us = PCC_SIM_DEFAULT_SEND_JITTER_US;
    config->sample_interval_us = SIM_DEFAULT_SAMPLE_INTERVAL_US;
}

static int bitrate_ok(double bps) { return isfinite(bps) && bps >= SIM_MIN_RATE_BPS && bps <= SIM_MAX_RATE_BPS; }

static int validate_video(const pcc_sim_video_config *video, size_t i, char *error, size_t error_bytes) {
    if (video->ladder_count > PCC_SIM_VIDEO_MAX_RUNGS || (video->ladder_count > 0 && !video->ladder_bps)) {
        fail(error, error_bytes, "flow %zu: a video ladder has 1 to %d rungs", i, PCC_SIM_VIDEO_MAX_RUNGS);
        return -1;
    }
    for (size_t r = 0; r < video->ladder_count; r++) {
        if (!bitrate_ok(video->ladder_bps[r]) || (r > 0 && !(video->ladder_bps[r] > video->ladder_bps[r - 1]))) {
            fail(error, error_bytes, "flow %zu: video ladder rungs must increase, each in [1 kbit/s, 1 Tbit/s]", i);
            return -1;
        }
    }
    if (video->ladder_count == 0 && !bitrate_ok(video->bitrate_bps)) {
        fail(error, error_bytes, "flow %zu: video bitrate must be in [1 kbit/s, 1 Tbit/s]", i);
        return -1;
    }
    if (!isfinite(video->segment_s) || video->segment_s < 0 || video->segment_s > SIM_MAX_VIDEO_SEGMENT_S) {
        fail(error, error_bytes, "flow %zu: segment duration must be in (0, 3600] s", i);
        return -1;
    }
    if (video->abr_samples > PCC_SIM_VIDEO_MAX_ABR_SAMPLES || !isfinite(video->abandon_lock_s) ||
        video->abandon_lock_s < 0 || video->abandon_lock_s > SIM_MAX_VIDEO_SEGMENT_S) {
        fail(error, error_bytes, "flow %zu: ABR samples must be in [0, %d], abandonment lock in [0, 3600] s", i,
             PCC_SIM_VIDEO_MAX_ABR_SAMPLES);
        return -1;
    }
    if (!isfinite(video->vbr_cv) || video->vbr_cv < 0 || video->vbr_cv > SIM_MAX_VIDEO_VBR_CV) {
        fail(error, error_bytes, "flow %zu: VBR coefficient of variation must be in [0, 0.5]", i);
        return -1;
    }
    double segment_s = video->segment_s > 0 ? video->segment_s : SIM_VIDEO_DEFAULT_SEGMENT_S;
    if (!isfinite(video->startup_buffer_s) || video->startup_buffer_s < 0 || video->startup_buffer_s > SIM_MAX_VIDEO_SEGMENT_S ||
        !isfinite(video->max_buffer_s) || video->max_buffer_s < 0 || video->max_buffer_s > SIM_MAX_VIDEO_SEGMENT_S) {
        fail(error, error_bytes, "flow %zu: startup and maximum buffer must be in [0, 3600] s", i);
        return -1;
    }
    double startup_s = video->startup_buffer_s > 0 ? video->startup_buffer_s : segment_s;
    if (video->max_buffer_s > 0 && video->max_buffer_s < startup_s) {
        fail(error, error_bytes, "flow %zu: the maximum buffer (%g s) is below what playback needs to start (%g s)", i,
             video->max_buffer_s, startup_s);
        return -1;
    }
    return 0;
}

static int validate(const pcc_sim_config *config, char *error, size_t error_bytes) {
    if (config->duration_us <= 0 || config->duration_us > SIM_MAX_DURATION_US) {
        fail(error, error_bytes, "duration must be in (0, 1 day]");
        return -1;
    }
    if (config->flow_count == 0 || config->flow_count > PCC_SIM_MAX_FLOWS || !config->flows) {
        fail(error, error_bytes, "need 1 to %d flows", PCC_SIM_MAX_FLOWS);
        return -1;
    }
    if (config->trace_ms_count == 0) {
        if (!isfinite(config->rate_bps) || config->rate_bps < SIM_MIN_RATE_BPS || config->rate_bps > SIM_MAX_RATE_BPS) {
            fail(error, error_bytes, "link rate must be in [1 kbit/s, 1 Tbit/s]");
            return -1;
        }
    } else if (sim_schedule_is_on(&config->rate_schedule_bps)) {
        fail(error, error_bytes, "a rate schedule cannot be combined with a trace");
        return -1;
    }
    if (sim_schedule_check(&config->rate_schedule_bps, SIM_MIN_RATE_BPS, SIM_MAX_RATE_BPS) != 0) {
        fail(error, error_bytes, "rate schedule must have 1 kbit/s <= min <= max <= 1 Tbit/s and a period >= 0");
        return -1;
    }
    if (sim_schedule_check(&config->rtt_schedule_us, 1, (double)SIM_MAX_RTT_US) != 0) {
        fail(error, error_bytes, "RTT schedule must have 0 < min <= max <= 10 s and a period >= 0");
        return -1;
    }
    if (sim_schedule_check(&config->loss_schedule, 0.0, 0.999999) != 0) {
        fail(error, error_bytes, "loss schedule must have 0 <= min <= max < 1 and a period >= 0");
        return -1;
    }
    if (!isfinite(config->loss_rate) || config->loss_rate < 0.0 || config->loss_rate >= 1.0) {
        fail(error, error_bytes, "loss rate must be in [0, 1)");
        return -1;
    }
    if (config->buffer_bytes > (uint64_t)1e12) {
        fail(error, error_bytes, "buffer must be at most 1 TB");
        return -1;
    }
    if (config->send_jitter_us < 0 || config->send_jitter_us > SIM_MAX_RTT_US) {
        fail(error, error_bytes, "send jitter must be in [0, 10 s]");
        return -1;
    }
    if (!isfinite(config->jitter_sd_us) || config->jitter_sd_us < 0 || config->jitter_sd_us > SIM_MAX_RTT_US) {
        fail(error, error_bytes, "forward jitter sd must be in [0, 10 s]");
        return -1;
    }
    if (!isfinite(config->jitter_tau_us) || config->jitter_tau_us < 0 || config->jitter_tau_us > SIM_MAX_DURATION_US) {
        fail(error, error_bytes, "forward jitter time constant must be in [0, 1 day] (0: the default)");
        return -1;
    }
    if (config->ack_delay_us < 0 || config->ack_delay_us > SIM_MAX_RTT_US) {
        fail(error, error_bytes, "ack delay must be in [0, 10 s]");
        return -1;
    }
    const pcc_sim_rtt_noise *noise = &config->rtt_noise;
    if (!isfinite(noise->median_us) || noise->median_us < 0 || noise->median_us > SIM_MAX_RTT_US) {
        fail(error, error_bytes, "RTT noise median must be in [0, 10 s]");
        return -1;
    }
    if (noise->median_us > 0 &&
        (!isfinite(noise->sigma) || noise->sigma < 0 || noise->sigma > 5 || !isfinite(noise->tail_share) ||
         noise->tail_share < 0 || noise->tail_share > 1 || !isfinite(noise->tail_scale_us) || noise->tail_scale_us < 0 ||
         !isfinite(noise->tail_index) || (noise->tail_share > 0 && !(noise->tail_index >= 0.5)) || noise->tail_index > 100 ||
         !isfinite(noise->hold_us) || noise->hold_us < 0 || noise->hold_us > SIM_MAX_RTT_US ||
         !isfinite(noise->cap_us) || !(noise->cap_us > 0) || noise->cap_us > SIM_MAX_RTT_US)) {
        fail(error, error_bytes, "RTT noise: sigma in [0, 5], tail share in [0, 1], tail index in [0.5, 100], "
                                 "hold and cap in [0, 10 s] (cap > 0)");
        return -1;
    }
    if (config->sample_interval_us < 0) {
        fail(error, error_bytes, "sample interval must be >= 0");
        return -1;
    }
    for (size_t i = 0; i < config->flow_count; i++) {
        const pcc_sim_flow_config *flow = &config->flows[i];
        if (!flow->cc || flow->cc[0] == '\0') {
            fail(error, error_bytes, "flow %zu has no congestion controller", i);
            return -1;
        }
        if (strlen(flow->cc) >= PCC_SIM_NAME_BYTES) {
            fail(error, error_bytes, "flow %zu: controller name too long", i);
            return -1;
        }
        if (flow->start_us < 0 || flow->start_us >= config->duration_us) {
            fail(error, error_bytes, "flow %zu starts outside the run", i);
            return -1;
        }
        if (flow->base_rtt_us <= 0 || flow->base_rtt_us > SIM_MAX_RTT_US) {
            fail(error, error_bytes, "flow %zu: base RTT must be in (0, 10 s]", i);
            return -1;
        }
        if (flow->packet_bytes != 0 && (flow->packet_bytes < 64 || flow->packet_bytes > 65535)) {
            fail(error, error_bytes, "flow %zu: packet size must be in [64, 65535] bytes", i);
            return -1;
        }
        if (flow->video && validate_video(flow->video, i, error, error_bytes) != 0) return -1;
    }
    return 0;
}

static void push(sim_world *world, sim_event_type type, int64_t time_us, uint32_t flow, uint64_t generation,
                 const sim_packet *packet) {
    sim_event event;
    memset(&event, 0, sizeof event);
    event.type = type;
    event.time_us = time_us;
    event.flow = flow;
    event.generation = generation;
    if (packet) event.packet = *packet;
    if (sim_event_queue_push(&world->events, &event) != 0) world->status = PCC_SIM_ERR_NO_MEMORY;
}

/* A video flow's sender has data when its stream does; the time it has none (after the first request) is idle. */
static void refresh_video_sender(sim_world *world, sim_flow *flow) {
    int has_data = sim_video_stream_has_data(&flow->stream);
    flow->sender.has_data = has_data;
    if (has_data) {
        flow->app_limited_signalled = 0;
        if (flow->idle_since_us >= 0) flow->idle_s += (double)(world->now_us - flow->idle_since_us) / 1e6;
        flow->idle_since_us = -1;
    } else if (flow->idle_since_us < 0 && flow->last_request_at_sender >= 0) {
        flow->idle_since_us = world->now_us;
    }
}

/* Keeps exactly one live SEND and one live SENDER_TIMER event per flow, at the times the sender wants. */
static void reschedule(sim_world *world, uint32_t index) {
    sim_flow *flow = &world->flows[index];
    if (!flow->active) return;
    if (flow->is_video) refresh_video_sender(world, flow);
    int64_t send_at = sim_sender_next_send_us(&flow->sender, world->now_us);
    if (send_at > world->config->duration_us) send_at = -1;
    if (send_at != flow->send_at_us) {
        flow->send_generation++;
        flow->send_at_us = send_at;
        if (send_at >= 0) push(world, SIM_EVENT_SEND, send_at, index, flow->send_generation, NULL);
    }
    int64_t timer_at = sim_sender_timer_us(&flow->sender);
    if (timer_at > world->config->duration_us) timer_at = -1;
    if (timer_at >= 0 && timer_at < world->now_us) timer_at = world->now_us;
    if (timer_at != flow->timer_at_us) {
        flow->timer_generation++;
        flow->timer_at_us = timer_at;
        if (timer_at >= 0) push(world, SIM_EVENT_SENDER_TIMER, timer_at, index, flow->timer_generation, NULL);
    }
}

static void on_link_delivery(void *context, const sim_packet *packet, int64_t now_us) {
    sim_world *world = context;
    sim_flow *flow = &world->flows[packet->flow];
    int64_t arrival = now_us + flow->rtt_us / 2 + (int64_t)llround(sim_path_jitter_at(&flow->path_jitter, now_us));
    if (arrival < now_us) arrival = now_us;
    if (arrival < flow->last_arrival_us) arrival = flow->last_arrival_us;
    flow->last_arrival_us = arrival;
    push(world, SIM_EVENT_ARRIVAL, arrival, packet->flow, 0, packet);
}

static void inject(sim_world *world, sim_packet *packet) {
    sim_flow *flow = &world->flows[packet->flow];
    if (world->loss_rate > 0.0 && sim_rng_unit(&world->loss_rng) < world->loss_rate) {
        sim_flow_metrics_on_drop(&flow->metrics, 0);
        return;
    }
    int64_t service_at;
    int accepted = sim_link_enqueue(&world->link, packet, world->now_us, &service_at);
    if (accepted < 0) {
        world->status = PCC_SIM_ERR_NO_MEMORY;
        return;
    }
    if (accepted == 0) {
        sim_flow_metrics_on_drop(&flow->metrics, 1);
        return;
    }
    if (service_at >= 0) push(world, SIM_EVENT_LINK_SERVICE, service_at, 0, 0, NULL);
}

/* What the player last told the sender (CMCD bl, br, dl with the newest request), for cc_on_app_state. */
static void report_app_state(sim_world *world, sim_flow *flow, int app_limited) {
    if (flow->last_request_at_sender < 0) return;
    const sim_video_segment *segment = &flow->stream.segments[flow->last_request_at_sender];
    int64_t deadline_us = (int64_t)llround(segment->requested_buffer_s * 1e6) - (world->now_us - segment->requested_us);
    cc_app_state state = {
        .app_limited = app_limited,
        .buffer_ms = segment->requested_buffer_s * 1e3,
        .bitrate_bps = segment->bitrate_bps,
        .deadline_us = deadline_us > 0 ? deadline_us : 0,
    };
    cc_on_app_state(flow->sender.cc, &state, world->now_us);
    if (app_limited) flow->app_limited_reports++;
    else flow->player_state_reports++;
}

static void schedule_player(sim_world *world, uint32_t index) {
    sim_flow *flow = &world->flows[index];
    int64_t wake = sim_video_player_wake_us(&flow->player);
    if (wake > world->config->duration_us) wake = -1;
    if (wake == flow->player_wake_us) return;
    flow->player_generation++;
    flow->player_wake_us = wake;
    if (wake >= 0) push(world, SIM_EVENT_VIDEO_PLAYER, wake, index, flow->player_generation, NULL);
}

/* The player asks for a segment: a new stream entry, whose request goes up the path behind the acks, carrying the
 * abort of entry `cancels` (UINT32_MAX: none). */
static int request_segment(sim_world *world, uint32_t index, double bitrate_bps, uint64_t bytes, uint32_t cancels) {
    sim_flow *flow = &world->flows[index];
    uint32_t entry = (uint32_t)flow->stream.count;
    if (sim_video_stream_request(&flow->stream, entry, bitrate_bps, bytes, world->now_us, flow->player.buffer_s) != 0) {
        world->status = PCC_SIM_ERR_NO_MEMORY;
        return -1;
    }
    int64_t at_sender = world->now_us + (flow->rtt_us - flow->rtt_us / 2) +
                        (int64_t)llround(sim_rtt_noise_at(&flow->rtt_noise, world->now_us));
    if (at_sender < flow->last_ack_arrival_us) at_sender = flow->last_ack_arrival_us;
    flow->last_ack_arrival_us = at_sender;
    sim_packet request;
    memset(&request, 0, sizeof request);
    request.piece = entry;
    push(world, SIM_EVENT_VIDEO_REQUEST, at_sender, index, cancels == UINT32_MAX ? 0 : (uint64_t)cancels + 1, &request);
    return 0;
}

/* The player at now: appends what arrived whole (in order), asks for what it wants; requests go up the path
 * behind the acks. */
static void run_player(sim_world *world, uint32_t index) {
    sim_flow *flow = &world->flows[index];
    sim_video_player_advance(&flow->player, world->now_us);
    const sim_video_segment *done;
    while ((done = sim_video_stream_next_complete(&flow->stream)) != NULL) {
        sim_video_player_on_segment(&flow->player, done->bitrate_bps, done->bytes, done->completed_us - done->first_byte_us);
    }
    /* A download the player abandons (DASH: the one outstanding is the stream's last entry) is asked again at the
     * lower rung, the same media; the abort travels up with the new request. */
    double bitrate_bps;
    if (flow->player.outstanding > 0 && flow->stream.count > 0) {
        uint32_t entry = (uint32_t)(flow->stream.count - 1);
        const sim_video_segment *current = &flow->stream.segments[entry];
        uint64_t current_bytes = current->bytes;
        double current_bps = current->bitrate_bps;
        if (!current->complete && !current->abandoned &&
            sim_video_player_check_abandon(&flow->player, sim_video_stream_received_bytes(&flow->stream, entry),
                                           current_bytes, &bitrate_bps)) {
            sim_video_stream_abandon(&flow->stream, entry);
            uint64_t bytes = (uint64_t)llround((double)current_bytes * bitrate_bps / current_bps);
            if (request_segment(world, index, bitrate_bps, bytes > 0 ? bytes : 1, entry) != 0) return;
        }
    }
    uint32_t segment;
    while (sim_video_player_want_segment(&flow->player, &segment, &bitrate_bps)) {
        double nominal_bytes = bitrate_bps * flow->player.config.segment_s / 8.0;
        double cv = flow->player.config.vbr_cv;
        /* Uniform around the nominal size: mean 1, coefficient of variation cv (the half-width is cv * sqrt(3)). */
        double factor = cv > 0 ? 1.0 + cv * sqrt(3.0) * (2.0 * sim_rng_unit(&flow->vbr_rng) - 1.0) : 1.0;
        uint64_t bytes = (uint64_t)llround(nominal_bytes * factor);
        if (request_segment(world, index, bitrate_bps, bytes > 0 ? bytes : 1, UINT32_MAX) != 0) return;
    }
    if (flow->player.out_of_memory) world->status = PCC_SIM_ERR_NO_MEMORY;
    schedule_player(world, index);
}

static void handle_video_request(sim_world *world, const sim_event *event) {
    sim_flow *flow = &world->flows[event->flow];
    uint32_t segment = (uint32_t)event->packet.piece;
    if (event->generation > 0) sim_video_stream_cancel_at_sender(&flow->stream, (uint32_t)(event->generation - 1));
    sim_video_stream_request_arrived(&flow->stream, segment);
    flow->last_request_at_sender = segment;
    report_app_state(world, flow, 0);
    reschedule(world, event->flow);
}

static void handle_video_player(sim_world *world, const sim_event *event) {
    sim_flow *flow = &world->flows[event->flow];
    if (event->generation != flow->player_generation) return;
    flow->player_wake_us = -1;
    run_player(world, event->flow);
}

static void on_video_packet_lost(void *context, uint64_t pn) {
    sim_flow *flow = context;
    if (sim_video_stream_on_lost(&flow->stream, pn) != 0) *flow->status = PCC_SIM_ERR_NO_MEMORY;
}

static void handle_send(sim_world *world, const sim_event *event) {
    sim_flow *flow = &world->flows[event->flow];
    if (event->generation != flow->send_generation) return;
    flow->send_at_us = -1;
    sim_packet packet;
    memset(&packet, 0, sizeof packet);
    int sent = sim_sender_send(&flow->sender, world->now_us, &packet);
    if (sent < 0) {
        world->status = PCC_SIM_ERR_NO_MEMORY;
        return;
    }
    if (sent > 0) {
        packet.flow = event->flow;
        if (flow->is_video) {
            int status = 0;
            packet.piece = sim_video_stream_take(&flow->stream, packet.pn, &status);
            if (status != 0) world->status = PCC_SIM_ERR_NO_MEMORY;
            /* After the turn, as the origin's ControllerTicker.afterTurn: out of data now, say so once. */
            if (!sim_video_stream_has_data(&flow->stream) && !flow->app_limited_signalled) {
                report_app_state(world, flow, 1);
                flow->app_limited_signalled = 1;
            }
        }
        sim_flow_metrics_on_sent(&flow->metrics, packet.bytes);
        inject(world, &packet);
    }
    reschedule(world, event->flow);
}

/* An ack leaves the receiver now: one per packet on an uncongested, lossless reverse path, FIFO. */
static void send_ack(sim_world *world, uint32_t index, const sim_packet *packet) {
    sim_flow *flow = &world->flows[index];
    int64_t back = world->now_us + (flow->rtt_us - flow->rtt_us / 2) +
                   (int64_t)llround(sim_rtt_noise_at(&flow->rtt_noise, world->now_us));
    if (back < flow->last_ack_arrival_us) back = flow->last_ack_arrival_us;
    flow->last_ack_arrival_us = back;
    push(world, SIM_EVENT_ACK, back, index, 0, packet);
}

static void handle_arrival(sim_world *world, const sim_event *event) {
    sim_flow *flow = &world->flows[event->flow];
    sim_packet packet = event->packet;
    packet.received_us = world->now_us;
    sim_flow_metrics_on_received(&flow->metrics, packet.bytes, world->now_us >= world->half_us);
    if (flow->is_video) {
        sim_video_stream_on_arrival(&flow->stream, packet.piece, world->now_us);
        if (sim_video_stream_has_complete(&flow->stream)) run_player(world, event->flow);
    }
    if (world->config->ack_delay_us <= 0) {
        send_ack(world, event->flow, &packet);
    } else if (flow->has_pending_ack) {
        /* the second packet: both acknowledged now (the timer is void) */
        flow->has_pending_ack = 0;
        flow->ack_timer_generation++;
        send_ack(world, event->flow, &flow->pending_ack);
        send_ack(world, event->flow, &packet);
    } else {
        flow->has_pending_ack = 1;
        flow->pending_ack = packet;
        flow->ack_timer_generation++;
        push(world, SIM_EVENT_ACK_TIMER, world->now_us + world->config->ack_delay_us, event->flow,
             flow->ack_timer_generation, NULL);
    }
}

static void handle_ack_timer(sim_world *world, const sim_event *event) {
    sim_flow *flow = &world->flows[event->flow];
    if (event->generation != flow->ack_timer_generation || !flow->has_pending_ack) return;
    flow->has_pending_ack = 0;
    send_ack(world, event->flow, &flow->pending_ack);
}

static void handle_ack(sim_world *world, const sim_event *event) {
    sim_flow *flow = &world->flows[event->flow];
    int64_t rtt_us = 0;
    if (sim_sender_on_ack(&flow->sender, event->packet.pn, event->packet.received_us, world->now_us, &rtt_us)) {
        if (sim_flow_metrics_on_rtt(&flow->metrics, rtt_us) != 0) world->status = PCC_SIM_ERR_NO_MEMORY;
    }
    if (flow->is_video) sim_video_stream_on_acked(&flow->stream, event->packet.pn);
    reschedule(world, event->flow);
}

static void handle_timer(sim_world *world, const sim_event *event) {
    sim_flow *flow = &world->flows[event->flow];
    if (event->generation != flow->timer_generation) return;
    flow->timer_at_us = -1;
    sim_sender_on_timer(&flow->sender, world->now_us);
    if (flow->is_video && flow->sender.probe_credit > 0 && !sim_video_stream_has_data(&flow->stream) &&
        sim_video_stream_probe(&flow->stream, flow->sender.probe_credit) != 0) {
        world->status = PCC_SIM_ERR_NO_MEMORY;
    }
    reschedule(world, event->flow);
}

static void handle_tick(sim_world *world, const sim_event *event) {
    sim_flow *flow = &world->flows[event->flow];
    sim_sender_on_tick(&flow->sender, world->now_us);
    reschedule(world, event->flow);
    int64_t next = world->now_us + SIM_TICK_INTERVAL_US;
    if (next <= world->config->duration_us) push(world, SIM_EVENT_TICK, next, event->flow, 0, NULL);
}

static void handle_flow_start(sim_world *world, const sim_event *event) {
    sim_flow *flow = &world->flows[event->flow];
    flow->active = 1;
    if (flow->is_video) run_player(world, event->flow);
    reschedule(world, event->flow);
    push(world, SIM_EVENT_TICK, world->now_us + SIM_TICK_INTERVAL_US, event->flow, 0, NULL);
}

static int64_t next_schedule_draw(const sim_world *world) {
    int64_t next = world->rate_schedule.next_draw_us;
    if (world->rtt_schedule.next_draw_us < next) next = world->rtt_schedule.next_draw_us;
    if (world->loss_schedule.next_draw_us < next) next = world->loss_schedule.next_draw_us;
    return next;
}

static void handle_schedule(sim_world *world) {
    if (sim_schedule_advance(&world->rate_schedule, world->now_us)) {
        sim_link_set_rate(&world->link, world->rate_schedule.value, world->now_us);
    }
    sim_schedule_advance(&world->loss_schedule, world->now_us);
    world->loss_rate = world->loss_schedule.value;
    if (sim_schedule_advance(&world->rtt_schedule, world->now_us)) {
        int64_t rtt_us = (int64_t)llround(world->rtt_schedule.value);
        for (size_t i = 0; i < world->flow_count; i++) world->flows[i].rtt_us = rtt_us;
    }
    int64_t next = next_schedule_draw(world);
    if (next <= world->config->duration_us) push(world, SIM_EVENT_SCHEDULE, next, 0, 0, NULL);
}

static void handle_sample(sim_world *world) {
    const pcc_sim_config *config = world->config;
    double capacity_bits = sim_link_capacity_bits(&world->link, world->now_us);
    double interval_s = (double)world->sample_interval_us / 1e6;
    for (size_t i = 0; i < world->flow_count; i++) {
        sim_flow *flow = &world->flows[i];
        if (flow->is_video) sim_video_player_advance(&flow->player, world->now_us);
        if (config->on_sample) {
            sim_flow_metrics *m = &flow->metrics;
            pcc_sim_sample sample;
            memset(&sample, 0, sizeof sample);
            sample.time_us = world->now_us;
            sample.flow = (uint32_t)i;
            sample.cc = flow->config->cc;
            sample.cc_state = "";
            if (flow->active) {
                sample.pacing_rate_bps = cc_pacing_rate_bytes_per_s(flow->sender.cc) * 8.0;
                sample.cwnd_bytes = cc_cwnd_bytes(flow->sender.cc);
                cc_telemetry telemetry;
                memset(&telemetry, 0, sizeof telemetry);
                cc_get_telemetry(flow->sender.cc, &telemetry);
                sample.cc_state = telemetry.state ? telemetry.state : "";
                sample.last_mi_utility = telemetry.last_mi_utility;
                sample.last_mi_loss_rate = telemetry.last_mi_loss_rate;
                sample.gradient = telemetry.gradient;
                sample.last_mi_rtt_gradient = telemetry.last_mi_rtt_gradient;
                sample.mi_completed = telemetry.mi_completed;
            }
            sample.send_rate_bps = (double)m->interval_bytes_sent * 8.0 / interval_s;
            sample.throughput_bps = (double)m->interval_bytes_received * 8.0 / interval_s;
            sample.rtt_us = m->interval_rtt_count ? m->interval_rtt_sum_us / (double)m->interval_rtt_count : 0.0;
            sample.packets_lost = m->interval_packets_lost;
            sample.queue_bytes = sim_link_queue_bytes(&world->link);
            sample.queue_delay_us = world->link.last_sojourn_us;
            sample.capacity_bps = (capacity_bits - world->capacity_bits_at_last_sample) / interval_s;
            if (flow->is_video) {
                sample.video_buffer_s = flow->player.buffer_s;
                sample.video_bitrate_bps = flow->player.ladder_bps[flow->player.rung];
                sample.video_stalled = flow->player.state == SIM_VIDEO_STALLED;
            }
            config->on_sample(&sample, config->user_data);
        }
        sim_flow_metrics_reset_interval(&flow->metrics);
    }
    world->capacity_bits_at_last_sample = capacity_bits;
    int64_t next = world->now_us + world->sample_interval_us;
    if (next <= config->duration_us) push(world, SIM_EVENT_SAMPLE, next, 0, 0, NULL);
}

static void dispatch(sim_world *world, const sim_event *event) {
    switch (event->type) {
    case SIM_EVENT_FLOW_START: handle_flow_start(world, event); break;
    case SIM_EVENT_SEND: handle_send(world, event); break;
    case SIM_EVENT_SENDER_TIMER: handle_timer(world, event); break;
    case SIM_EVENT_TICK: handle_tick(world, event); break;
    case SIM_EVENT_LINK_SERVICE: {
        int64_t next = sim_link_service(&world->link, world->now_us, on_link_delivery, world);
        if (next >= 0) push(world, SIM_EVENT_LINK_SERVICE, next, 0, 0, NULL);
        break;
    }
    case SIM_EVENT_ARRIVAL: handle_arrival(world, event); break;
    case SIM_EVENT_ACK: handle_ack(world, event); break;
    case SIM_EVENT_SCHEDULE: handle_schedule(world); break;
    case SIM_EVENT_SAMPLE: handle_sample(world); break;
    case SIM_EVENT_VIDEO_REQUEST: handle_video_request(world, event); break;
    case SIM_EVENT_VIDEO_PLAYER: handle_video_player(world, event); break;
    case SIM_EVENT_ACK_TIMER: handle_ack_timer(world, event); break;
    }
}

static void summarise(sim_world *world, pcc_sim_result *result) {
    const pcc_sim_config *config = world->config;
    int64_t duration_us = config->duration_us;
    double half_s = (double)(duration_us - world->half_us) / 1e6;
    double sum = 0.0, sum_squares = 0.0;
    uint64_t packets = 0;
    for (size_t i = 0; i < world->flow_count; i++) {
        sim_flow *flow = &world->flows[i];
        sim_flow_metrics *m = &flow->metrics;
        pcc_sim_flow_result *out = &result->flows[i];
        snprintf(out->cc, sizeof out->cc, "%s", flow->config->cc);
        out->start_us = flow->config->start_us;
        double active_s = (double)(duration_us - flow->config->start_us) / 1e6;
        out->throughput_bps = (double)m->bytes_received * 8.0 / active_s;
        out->throughput_last_half_bps = half_s > 0 ? (double)m->bytes_received_last_half * 8.0 / half_s : 0.0;
        out->p95_rtt_us = sim_flow_metrics_rtt_quantile_us(m, 0.95);
        out->mean_rtt_us = m->rtt_count ? m->rtt_sum_us / (double)m->rtt_count : 0.0;
        out->min_rtt_us = m->rtt_count ? (double)m->rtt_min_us : 0.0;
        out->base_rtt_us = sim_schedule_is_on(&config->rtt_schedule_us)
                               ? (config->rtt_schedule_us.min_value + config->rtt_schedule_us.max_value) / 2.0
                               : (double)flow->config->base_rtt_us;
        out->packets_sent = m->packets_sent;
        out->packets_received = m->packets_received;
        out->packets_dropped_queue = m->packets_dropped_queue;
        out->packets_dropped_random = m->packets_dropped_random;
        out->packets_declared_lost = flow->sender.packets_declared_lost;
        out->spurious_losses = flow->sender.spurious_losses;
        double sent = m->packets_sent ? (double)m->packets_sent : 1.0;
        out->loss_rate = (double)(m->packets_dropped_queue + m->packets_dropped_random) / sent;
        out->detected_loss_rate = (double)flow->sender.packets_declared_lost / sent;
        if (flow->is_video) {
            sim_video_player_finish(&flow->player, &out->video);
            if (flow->idle_since_us >= 0) flow->idle_s += (double)(duration_us - flow->idle_since_us) / 1e6;
            out->video.sender_idle_s = flow->idle_s;
            out->video.player_state_reports = flow->player_state_reports;
            out->video.app_limited_reports = flow->app_limited_reports;
        }
        sum += out->throughput_last_half_bps;
        sum_squares += out->throughput_last_half_bps * out->throughput_last_half_bps;
        packets += m->packets_sent;
    }
    result->flow_count = world->flow_count;
    result->jain_index = sum_squares > 0 ? sum * sum / ((double)world->flow_count * sum_squares) : 0.0;
    double capacity_bits = sim_link_capacity_bits(&world->link, duration_us);
    result->capacity_bps = capacity_bits / ((double)duration_us / 1e6);
    result->link_utilization = capacity_bits > 0 ? (double)world->link.delivered_bytes * 8.0 / capacity_bits : 0.0;
    result->events_processed = world->events_processed;
    result->packets_simulated = packets;
}

static void release(sim_world *world) {
    if (world->flows) {
        for (size_t i = 0; i < world->flow_count; i++) {
            sim_sender_free(&world->flows[i].sender);
            sim_flow_metrics_free(&world->flows[i].metrics);
            if (world->flows[i].is_video) {
                sim_video_player_free(&world->flows[i].player);
                sim_video_stream_free(&world->flows[i].stream);
            }
        }
        free(world->flows);
    }
    sim_link_free(&world->link);
    sim_event_queue_free(&world->events);
}

int pcc_sim_run(const pcc_sim_config *config, pcc_sim_result *result, char *error, size_t error_bytes) {
    if (error_bytes > 0) error[0] = '\0';
    if (!config || !result) {
        fail(error, error_bytes, "config and result are required");
        return PCC_SIM_ERR_INVALID;
    }
    memset(result, 0, sizeof *result);
    if (validate(config, error, error_bytes) != 0) return PCC_SIM_ERR_INVALID;

    sim_world world;
    memset(&world, 0, sizeof world);
    world.config = config;
    sim_event_queue_init(&world.events);
    if (config->trace_ms_count > 0) {
        const char *reason = NULL;
        if (mm_trace_init(&world.trace, config->trace_ms, config->trace_ms_count, &reason) != 0) {
            fail(error, error_bytes, "bad trace: %s", reason);
            return PCC_SIM_ERR_INVALID;
        }
        sim_link_init_trace(&world.link, &world.trace, config->buffer_bytes);
    } else {
        sim_link_init_rate(&world.link, config->rate_bps, config->buffer_bytes);
    }
    sim_rng_seed(&world.loss_rng, config->seed, STREAM_LOSS);
    sim_schedule_init(&world.rate_schedule, &config->rate_schedule_bps, config->seed, STREAM_RATE_SCHEDULE,
                      config->rate_bps);
    sim_schedule_init(&world.rtt_schedule, &config->rtt_schedule_us, config->seed, STREAM_RTT_SCHEDULE, 0.0);
    sim_schedule_init(&world.loss_schedule, &config->loss_schedule, config->seed, STREAM_LOSS_SCHEDULE,
                      config->loss_rate);
    world.loss_rate = config->loss_rate;
    world.half_us = config->duration_us / 2;
    world.sample_interval_us = config->sample_interval_us > 0 ? config->sample_interval_us
                                                               : SIM_DEFAULT_SAMPLE_INTERVAL_US;
    world.flow_count = config->flow_count;
    world.flows = calloc(config->flow_count, sizeof *world.flows);
    if (!world.flows) {
        release(&world);
        fail(error, error_bytes, "out of memory");
        return PCC_SIM_ERR_NO_MEMORY;
    }
    /* Pushed first: schedules drawn at t = 0 apply before any flow starting at t = 0 sends. */
    if (next_schedule_draw(&world) != INT64_MAX) push(&world, SIM_EVENT_SCHEDULE, 0, 0, 0, NULL);
    for (size_t i = 0; i < config->flow_count; i++) {
        sim_flow *flow = &world.flows[i];
        flow->config = &config->flows[i];
        sim_flow_metrics_init(&flow->metrics);
        flow->rtt_us = config->flows[i].base_rtt_us;
        flow->send_at_us = -1;
        flow->timer_at_us = -1;
        char reason[160] = "";
        if (sim_sender_init(&flow->sender, flow->config, sim_rng_derive(config->seed, STREAM_CONTROLLER + i), reason,
                            sizeof reason) != 0) {
            world.flow_count = i + 1;
            release(&world);
            fail(error, error_bytes, "flow %zu: %s", i, reason);
            return PCC_SIM_ERR_INVALID;
        }
        sim_sender_set_send_jitter(&flow->sender, config->send_jitter_us, config->seed, STREAM_SEND_JITTER + i);
        sim_path_jitter_init(&flow->path_jitter, config->jitter_sd_us,
                             config->jitter_tau_us > 0 ? config->jitter_tau_us : PCC_SIM_DEFAULT_JITTER_TAU_US,
                             config->seed, STREAM_PATH_JITTER + i);
        sim_rtt_noise_init(&flow->rtt_noise, &config->rtt_noise, config->seed, STREAM_RTT_NOISE + i);
        flow->player_wake_us = -1;
        if (flow->config->video) {
            flow->is_video = 1;
            sim_video_player_init(&flow->player, flow->config->video, flow->config->start_us, config->duration_us);
            sim_video_stream_init(&flow->stream, flow->sender.packet_bytes);
            sim_rng_seed(&flow->vbr_rng, config->seed, STREAM_VIDEO_VBR + i);
            flow->sender.data_limited = 1;
            flow->sender.on_declared_lost = on_video_packet_lost;
            flow->sender.lost_context = flow;
            flow->status = &world.status;
            /* Nothing to send before the first request: no app-limited news until data came and went. */
            flow->app_limited_signalled = 1;
            flow->last_request_at_sender = -1;
            flow->idle_since_us = -1;
        }
        push(&world, SIM_EVENT_FLOW_START, flow->config->start_us, (uint32_t)i, 0, NULL);
    }
    push(&world, SIM_EVENT_SAMPLE, world.sample_interval_us, 0, 0, NULL);

    sim_event event;
    while (world.status == PCC_SIM_OK && sim_event_queue_pop(&world.events, &event)) {
        if (event.time_us > config->duration_us) break;
        /* The run covers [0, duration): only the last time-series sample happens at duration itself. */
        if (event.time_us == config->duration_us && event.type != SIM_EVENT_SAMPLE) continue;
        world.now_us = event.time_us;
        world.events_processed++;
        dispatch(&world, &event);
    }
    if (world.status != PCC_SIM_OK) {
        release(&world);
        fail(error, error_bytes, "out of memory");
        return world.status;
    }
    summarise(&world, result);
    release(&world);
    return PCC_SIM_OK;
}

void pcc_sim_result_free(pcc_sim_result *result) {
    if (!result) return;
    for (size_t i = 0; i < result->flow_count && i < PCC_SIM_MAX_FLOWS; i++) {
        free(result->flows[i].video.buffer_levels_s);
        result->flows[i].video.buffer_levels_s = NULL;
        result->flows[i].video.buffer_level_count = 0;
    }
}
