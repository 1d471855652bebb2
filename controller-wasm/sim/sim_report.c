#include "sim_report.h"

#include <math.h>

/* JSON has no NaN or infinity; the simulator should never produce them, but never print them either. */
static double finite_or_zero(double value) { return isfinite(value) ? value : 0.0; }

/* A video flow's player: the bench's metrics (bench/harness/README.md) and its buffer level at every second. */
static void report_video_json(FILE *out, const pcc_sim_flow_config *flow, const pcc_sim_video_result *v) {
    const pcc_sim_video_config *c = flow->video;
    fprintf(out, ",\"video\":{");
    if (c->ladder_count > 0) {
        fprintf(out, "\"ladder_mbps\":[");
        for (size_t r = 0; r < c->ladder_count; r++) fprintf(out, "%s%.6g", r ? "," : "", c->ladder_bps[r] / 1e6);
        fprintf(out, "],");
    } else {
        fprintf(out, "\"bitrate_mbps\":%.6g,", c->bitrate_bps / 1e6);
    }
    fprintf(out, "\"continuous\":%s,\"buffering_ratio\":%.6g,\"buffering_ratio_with_startup\":%.6g,", c->continuous ? "true" : "false",
            finite_or_zero(v->buffering_ratio), finite_or_zero(v->buffering_ratio_with_startup));
    if (v->startup_delay_s >= 0) fprintf(out, "\"startup_delay_s\":%.6g,", finite_or_zero(v->startup_delay_s));
    else fprintf(out, "\"startup_delay_s\":null,");
    fprintf(out, "\"stall_count\":%u,\"stall_s\":%.6g,\"play_s\":%.6g,\"segments\":%u,\"switches\":%u,"
                 "\"average_bitrate_mbps\":%.6g,\"sender_idle_s\":%.6g,\"player_state_reports\":%u,"
                 "\"app_limited_reports\":%u,\"buffer_level_s\":[",
            v->stall_count, finite_or_zero(v->stall_s), finite_or_zero(v->play_s), v->segments, v->switches,
            finite_or_zero(v->average_bitrate_bps / 1e6), finite_or_zero(v->sender_idle_s), v->player_state_reports,
            v->app_limited_reports);
    for (size_t k = 0; k < v->buffer_level_count; k++) fprintf(out, "%s%.4g", k ? "," : "", (double)v->buffer_levels_s[k]);
    fprintf(out, "]");
    /* Only where the player may abandon, so the output of every other run stays as it was. */
    if (flow->video->abandon_lock_s > 0) fprintf(out, ",\"abandoned\":%u", v->abandoned);
    fputc('}', out);
}

void sim_report_json(FILE *out, const pcc_sim_config *config, const pcc_sim_result *result) {
    fprintf(out, "{\"seed\":%llu,\"duration_s\":%.6g,\"capacity_mbps\":%.6g,\"flows\":[",
            (unsigned long long)config->seed, (double)config->duration_us / 1e6,
            finite_or_zero(result->capacity_bps / 1e6));
    for (size_t i = 0; i < result->flow_count; i++) {
        const pcc_sim_flow_result *f = &result->flows[i];
        fprintf(out,
                "%s{\"cc\":\"%s\",\"start_s\":%.6g,\"throughput_mbps\":%.6g,\"throughput_last_half_mbps\":%.6g,"
                "\"p95_rtt_ms\":%.6g,\"mean_rtt_ms\":%.6g,\"min_rtt_ms\":%.6g,\"base_rtt_ms\":%.6g,"
                "\"loss_rate\":%.6g,\"detected_loss_rate\":%.6g,\"packets_sent\":%llu,\"packets_received\":%llu,"
                "\"packets_dropped_queue\":%llu,\"packets_dropped_random\":%llu,\"spurious_losses\":%llu",
                i ? "," : "", f->cc, (double)f->start_us / 1e6, finite_or_zero(f->throughput_bps / 1e6),
                finite_or_zero(f->throughput_last_half_bps / 1e6), finite_or_zero(f->p95_rtt_us / 1e3),
                finite_or_zero(f->mean_rtt_us / 1e3), finite_or_zero(f->min_rtt_us / 1e3),
                finite_or_zero(f->base_rtt_us / 1e3), finite_or_zero(f->loss_rate),
                finite_or_zero(f->detected_loss_rate), (unsigned long long)f->packets_sent,
                (unsigned long long)f->packets_received, (unsigned long long)f->packets_dropped_queue,
                (unsigned long long)f->packets_dropped_random, (unsigned long long)f->spurious_losses);
        if (f->video.is_video && i < config->flow_count && config->flows[i].video) {
            report_video_json(out, &config->flows[i], &f->video);
        }
        fputc('}', out);
    }
    fprintf(out, "],\"jain_index\":%.6g,\"link_utilization\":%.6g,\"packets_simulated\":%llu,\"events_processed\":%llu}\n",
            finite_or_zero(result->jain_index), finite_or_zero(result->link_utilization),
            (unsigned long long)result->packets_simulated, (unsigned long long)result->events_processed);
}

void sim_report_table(FILE *out, const pcc_sim_config *config, const pcc_sim_result *result) {
    fprintf(out, "pcc-sim: %.3g s, capacity %.4g Mbit/s, seed %llu\n", (double)config->duration_us / 1e6,
            result->capacity_bps / 1e6, (unsigned long long)config->seed);
    fprintf(out, "%-4s %-12s %8s %12s %12s %10s %10s\n", "flow", "cc", "start_s", "thru_Mbit/s", "p95_rtt_ms",
            "loss_%", "base_ms");
    for (size_t i = 0; i < result->flow_count; i++) {
        const pcc_sim_flow_result *f = &result->flows[i];
        fprintf(out, "%-4zu %-12s %8.2f %12.2f %12.2f %10.3f %10.2f\n", i, f->cc, (double)f->start_us / 1e6,
                f->throughput_bps / 1e6, f->p95_rtt_us / 1e3, f->loss_rate * 100.0, f->base_rtt_us / 1e3);
    }
    fprintf(out, "jain index (last half) %.4f, link utilization %.4f\n", result->jain_index,
            result->link_utilization);
    for (size_t i = 0; i < result->flow_count; i++) {
        const pcc_sim_video_result *v = &result->flows[i].video;
        if (!v->is_video) continue;
        char startup[32];
        if (v->startup_delay_s < 0) snprintf(startup, sizeof startup, "never");
        else snprintf(startup, sizeof startup, "%.2f s", v->startup_delay_s);
        fprintf(out, "video flow %zu: buffering ratio %.2f%%, %u stalls (%.2f s), startup %s, %u segments, "
                     "average bitrate %.3g Mbit/s, %u switches, sender idle %.2f s\n",
                i, 100.0 * v->buffering_ratio, v->stall_count, v->stall_s, startup, v->segments,
                v->average_bitrate_bps / 1e6, v->switches, v->sender_idle_s);
    }
}

void sim_report_csv_header(FILE *out) {
    fprintf(out, "time_s,flow,cc,pacing_rate_mbps,send_rate_mbps,throughput_mbps,rtt_ms,cwnd_bytes,packets_lost,"
                 "queue_bytes,queue_delay_ms,capacity_mbps,cc_state,mi_utility,mi_loss_rate,gradient,mi_completed,"
                 "video_buffer_s,video_bitrate_mbps,video_stalled\n");
}

void sim_report_csv_row(const pcc_sim_sample *s, void *user_data) {
    FILE *out = user_data;
    fprintf(out, "%.3f,%u,%s,%.6g,%.6g,%.6g,%.6g,%.6g,%llu,%llu,%.6g,%.6g,%s,%.6g,%.6g,%.6g,%llu,%.6g,%.6g,%d\n",
            (double)s->time_us / 1e6, s->flow, s->cc,
            finite_or_zero(s->pacing_rate_bps / 1e6), finite_or_zero(s->send_rate_bps / 1e6),
            finite_or_zero(s->throughput_bps / 1e6), finite_or_zero(s->rtt_us / 1e3), finite_or_zero(s->cwnd_bytes),
            (unsigned long long)s->packets_lost, (unsigned long long)s->queue_bytes,
            finite_or_zero(s->queue_delay_us / 1e3), finite_or_zero(s->capacity_bps / 1e6), s->cc_state ? s->cc_state : "",
            finite_or_zero(s->last_mi_utility), finite_or_zero(s->last_mi_loss_rate), finite_or_zero(s->gradient),
            (unsigned long long)s->mi_completed, finite_or_zero(s->video_buffer_s),
            finite_or_zero(s->video_bitrate_bps / 1e6), s->video_stalled);
}
