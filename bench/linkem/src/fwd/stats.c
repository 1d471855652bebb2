#include "stats.h"

void stats_record_queue_delay(direction_stats *s, uint64_t delay_us) {
    if (delay_us > s->max_queue_delay_us) s->max_queue_delay_us = delay_us;
    if (delay_us < STATS_FINE_BINS * 10u) {
        s->fine[delay_us / 10u]++;
    } else {
        uint64_t bin = delay_us / 1000u - STATS_FINE_BINS / 100u;
        if (bin >= STATS_COARSE_BINS) bin = STATS_COARSE_BINS - 1;
        s->coarse[bin]++;
    }
}

uint64_t stats_queue_delay_percentile_us(const direction_stats *s, double percentile) {
    uint64_t total = s->departed_packets;
    if (total == 0) return 0;
    uint64_t rank = (uint64_t)((percentile / 100.0) * (double)total);
    if (rank >= total) rank = total - 1;
    uint64_t seen = 0;
    for (uint32_t i = 0; i < STATS_FINE_BINS; i++) {
        seen += s->fine[i];
        if (seen > rank) return (uint64_t)(i + 1) * 10u;
    }
    for (uint32_t i = 0; i < STATS_COARSE_BINS; i++) {
        seen += s->coarse[i];
        if (seen > rank) return ((uint64_t)i + STATS_FINE_BINS / 100u + 1) * 1000u;
    }
    return s->max_queue_delay_us;
}

void stats_write_json(FILE *f, const char *name, const direction_stats *s) {
    fprintf(f,
            "\"%s\":{\"ingressPackets\":%llu,\"ingressBytes\":%llu,\"filteredPackets\":%llu,\"lossDropPackets\":%llu,"
            "\"queueDropPackets\":%llu,\"queueDropLinkBytes\":%llu,\"departedPackets\":%llu,\"departedBytes\":%llu,"
            "\"writtenPackets\":%llu,\"writeErrors\":%llu,\"opportunities\":%llu,\"maxQueuePackets\":%llu,"
            "\"maxQueueLinkBytes\":%llu,\"queueDelayMs\":{\"p50\":%.3f,\"p95\":%.3f,\"max\":%.3f}}",
            name, (unsigned long long)s->ingress_packets, (unsigned long long)s->ingress_ip_bytes,
            (unsigned long long)s->filtered_packets, (unsigned long long)s->loss_drop_packets,
            (unsigned long long)s->queue_drop_packets, (unsigned long long)s->queue_drop_bytes,
            (unsigned long long)s->departed_packets, (unsigned long long)s->departed_ip_bytes,
            (unsigned long long)s->written_packets, (unsigned long long)s->write_errors,
            (unsigned long long)s->opportunities, (unsigned long long)s->max_queue_packets,
            (unsigned long long)s->max_queue_bytes, (double)stats_queue_delay_percentile_us(s, 50) / 1000.0,
            (double)stats_queue_delay_percentile_us(s, 95) / 1000.0, (double)s->max_queue_delay_us / 1000.0);
}
