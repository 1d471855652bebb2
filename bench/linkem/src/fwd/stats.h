/* Per-direction counters and the link-queue delay distribution, for the exit summary. */
#ifndef LINKEM_STATS_H
#define LINKEM_STATS_H

#include <stdint.h>
#include <stdio.h>

/* Delay histogram: 10 us bins up to 100 ms, then 1 ms bins up to 60 s. */
#define STATS_FINE_BINS 10000u
#define STATS_COARSE_BINS 59900u

typedef struct {
    uint64_t count;
    uint64_t max_us;
    uint32_t fine[STATS_FINE_BINS];
    uint32_t coarse[STATS_COARSE_BINS];
} delay_histogram;

void histogram_record(delay_histogram *h, uint64_t delay_us);
/* Percentile (0..100) in microseconds (bin upper edge); 0 if empty. */
uint64_t histogram_percentile_us(const delay_histogram *h, double percentile);

typedef struct {
    uint64_t ingress_packets, ingress_ip_bytes;     /* read from the TUN */
    uint64_t filtered_packets;                      /* not addressed across the link: never forwarded */
    uint64_t loss_drop_packets;                     /* random loss */
    uint64_t queue_drop_packets, queue_drop_bytes;  /* bytes = link bytes (IP + 4) */
    uint64_t departed_packets, departed_ip_bytes;   /* left the link */
    uint64_t written_packets, write_errors;         /* written to the far TUN */
    uint64_t first_ingress_us, last_write_us;       /* span of activity, for throughput figures */
    uint64_t opportunities;
    uint64_t max_queue_packets, max_queue_bytes;
    delay_histogram queue_delay;   /* link queue arrival to departure (model time) */
    delay_histogram write_lateness; /* model departure time to the actual write: the emulator's own timing error */
} direction_stats;

void stats_write_json(FILE *f, const char *name, const direction_stats *s);

#endif
