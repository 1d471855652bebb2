#include "flow_metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void sim_flow_metrics_init(sim_flow_metrics *metrics) {
    memset(metrics, 0, sizeof *metrics);
    metrics->rtt_min_us = UINT32_MAX;
}

void sim_flow_metrics_free(sim_flow_metrics *metrics) {
    free(metrics->rtt_samples_us);
    sim_flow_metrics_init(metrics);
}

void sim_flow_metrics_on_sent(sim_flow_metrics *metrics, uint32_t bytes) {
    metrics->packets_sent++;
    metrics->interval_bytes_sent += bytes;
}

void sim_flow_metrics_on_received(sim_flow_metrics *metrics, uint32_t bytes, int in_last_half) {
    metrics->packets_received++;
    metrics->bytes_received += bytes;
    if (in_last_half) metrics->bytes_received_last_half += bytes;
    metrics->interval_bytes_received += bytes;
}

void sim_flow_metrics_on_drop(sim_flow_metrics *metrics, int by_queue) {
    if (by_queue) metrics->packets_dropped_queue++;
    else metrics->packets_dropped_random++;
    metrics->interval_packets_lost++;
}

int sim_flow_metrics_on_rtt(sim_flow_metrics *metrics, int64_t rtt_us) {
    if (metrics->rtt_count == metrics->rtt_capacity) {
        size_t capacity = metrics->rtt_capacity ? metrics->rtt_capacity * 2 : 4096;
        uint32_t *samples = realloc(metrics->rtt_samples_us, capacity * sizeof *samples);
        if (!samples) return -1;
        metrics->rtt_samples_us = samples;
        metrics->rtt_capacity = capacity;
    }
    uint32_t sample = rtt_us <= 0 ? 0 : rtt_us >= (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)rtt_us;
    metrics->rtt_samples_us[metrics->rtt_count++] = sample;
    metrics->rtt_sum_us += sample;
    if (sample < metrics->rtt_min_us) metrics->rtt_min_us = sample;
    metrics->interval_rtt_sum_us += sample;
    metrics->interval_rtt_count++;
    return 0;
}

static int compare_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

double sim_flow_metrics_rtt_quantile_us(sim_flow_metrics *metrics, double q) {
    if (metrics->rtt_count == 0) return 0.0;
    qsort(metrics->rtt_samples_us, metrics->rtt_count, sizeof *metrics->rtt_samples_us, compare_u32);
    double rank = ceil(q * (double)metrics->rtt_count);
    size_t index = rank < 1.0 ? 0 : (size_t)rank - 1;
    if (index >= metrics->rtt_count) index = metrics->rtt_count - 1;
    return metrics->rtt_samples_us[index];
}

void sim_flow_metrics_reset_interval(sim_flow_metrics *metrics) {
    metrics->interval_bytes_sent = 0;
    metrics->interval_bytes_received = 0;
    metrics->interval_packets_lost = 0;
    metrics->interval_rtt_sum_us = 0;
    metrics->interval_rtt_count = 0;
}
