#include "stats.h"

void histogram_record(delay_histogram *h, uint64_t delay_us) {
    h->count++;
    if (delay_us > h->max_us) h->max_us = delay_us;
    if (delay_us < STATS_FINE_BINS * 10u) {
        h->fine[delay_us / 10u]++;
    } else {
        uint64_t bin = delay_us / 1000u - STATS_FINE_BINS / 100u;
        if (bin >= STATS_COARSE_BINS) bin = STATS_COARSE_BINS - 1;
        h->coarse[bin]++;
    }
}

uint64_t histogram_percentile_us(const delay_histogram *h, double percentile) {
    if (h->count == 0) return 0;
    uint64_t rank = (uint64_t)((percentile / 100.0) * (double)h->count);
    if (rank >= h->count) rank = h->count - 1;
    uint64_t seen = 0;
    for (uint32_t i = 0; i < STATS_FINE_BINS; i++) {
        seen += h->fine[i];
        if (seen > rank) return (uint64_t)(i + 1) * 10u;
    }
    for (uint32_t i = 0; i < STATS_COARSE_BINS; i++) {
        seen += h->coarse[i];
        if (seen > rank) return ((uint64_t)i + STATS_FINE_BINS / 100u + 1) * 1000u;
    }
    return h->max_us;
}

static void write_histogram(FILE *f, const char *name, const delay_histogram *h) {
    fprintf(f, "\"%s\":{\"p50\":%.3f,\"p95\":%.3f,\"p99\":%.3f,\"max\":%.3f}", name,
            (double)histogram_percentile_us(h, 50) / 1000.0, (double)histogram_percentile_us(h, 95) / 1000.0,
            (double)histogram_percentile_us(h, 99) / 1000.0, (double)h->max_us / 1000.0);
}

void stats_write_json(FILE *f, const char *name, const direction_stats *s) {
    fprintf(f,
            "\"%s\":{\"ingressPackets\":%llu,\"ingressBytes\":%llu,\"filteredPackets\":%llu,\"lossDropPackets\":%llu,"
            "\"queueDropPackets\":%llu,\"queueDropLinkBytes\":%llu,\"departedPackets\":%llu,\"departedBytes\":%llu,"
            "\"writtenPackets\":%llu,\"writeErrors\":%llu,\"opportunities\":%llu,\"maxQueuePackets\":%llu,"
            "\"maxQueueLinkBytes\":%llu,\"activeMs\":%.3f,",
            name, (unsigned long long)s->ingress_packets, (unsigned long long)s->ingress_ip_bytes,
            (unsigned long long)s->filtered_packets, (unsigned long long)s->loss_drop_packets,
            (unsigned long long)s->queue_drop_packets, (unsigned long long)s->queue_drop_bytes,
            (unsigned long long)s->departed_packets, (unsigned long long)s->departed_ip_bytes,
            (unsigned long long)s->written_packets, (unsigned long long)s->write_errors,
            (unsigned long long)s->opportunities, (unsigned long long)s->max_queue_packets,
            (unsigned long long)s->max_queue_bytes,
            s->last_write_us > s->first_ingress_us ? (double)(s->last_write_us - s->first_ingress_us) / 1000.0 : 0.0);
    write_histogram(f, "queueDelayMs", &s->queue_delay);
    fputc(',', f);
    write_histogram(f, "writeLatenessMs", &s->write_lateness);
    fputc('}', f);
}
