#include "sim_report.h"

#include <math.h>

/* JSON has no NaN or infinity; the simulator should never produce them, but never print them either. */
static double finite_or_zero(double value) { return isfinite(value) ? value : 0.0; }

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
                "\"packets_dropped_queue\":%llu,\"packets_dropped_random\":%llu,\"spurious_losses\":%llu}",
                i ? "," : "", f->cc, (double)f->start_us / 1e6, finite_or_zero(f->throughput_bps / 1e6),
                finite_or_zero(f->throughput_last_half_bps / 1e6), finite_or_zero(f->p95_rtt_us / 1e3),
                finite_or_zero(f->mean_rtt_us / 1e3), finite_or_zero(f->min_rtt_us / 1e3),
                finite_or_zero(f->base_rtt_us / 1e3), finite_or_zero(f->loss_rate),
                finite_or_zero(f->detected_loss_rate), (unsigned long long)f->packets_sent,
                (unsigned long long)f->packets_received, (unsigned long long)f->packets_dropped_queue,
                (unsigned long long)f->packets_dropped_random, (unsigned long long)f->spurious_losses);
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
}

void sim_report_csv_header(FILE *out) {
    fprintf(out, "time_s,flow,cc,pacing_rate_mbps,send_rate_mbps,throughput_mbps,rtt_ms,cwnd_bytes,packets_lost,"
                 "queue_bytes,queue_delay_ms,capacity_mbps,cc_state,mi_utility,mi_loss_rate,gradient,mi_completed\n");
}

void sim_report_csv_row(const pcc_sim_sample *s, void *user_data) {
    FILE *out = user_data;
    fprintf(out, "%.3f,%u,%s,%.6g,%.6g,%.6g,%.6g,%.6g,%llu,%llu,%.6g,%.6g,%s,%.6g,%.6g,%.6g,%llu\n",
            (double)s->time_us / 1e6, s->flow, s->cc,
            finite_or_zero(s->pacing_rate_bps / 1e6), finite_or_zero(s->send_rate_bps / 1e6),
            finite_or_zero(s->throughput_bps / 1e6), finite_or_zero(s->rtt_us / 1e3), finite_or_zero(s->cwnd_bytes),
            (unsigned long long)s->packets_lost, (unsigned long long)s->queue_bytes,
            finite_or_zero(s->queue_delay_us / 1e3), finite_or_zero(s->capacity_bps / 1e6), s->cc_state ? s->cc_state : "",
            finite_or_zero(s->last_mi_utility), finite_or_zero(s->last_mi_loss_rate), finite_or_zero(s->gradient),
            (unsigned long long)s->mi_completed);
}
