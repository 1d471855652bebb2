/* Per-direction counters and the link-queue delay distribution, for the exit summary. */
#ifndef LINKEM_STATS_H
#define LINKEM_STATS_H

#include <stdint.h>
#include <stdio.h>

/* Delay histogram: 10 us bins up to 100 ms, then 1 ms bins up to 60 s. */
#define STATS_FINE_BINS 10000u
#define STATS_COARSE_BINS 59900u

typedef struct {
    uint64_t ingress_packets, ingress_ip_bytes;     /* read from the TUN */
    uint64_t filtered_packets;                      /* not addressed across the link: never forwarded */
    uint64_t loss_drop_packets;                     /* random loss */
    uint64_t queue_drop_packets, queue_drop_bytes;  /* bytes = link bytes (IP + 4) */
    uint64_t departed_packets, departed_ip_bytes;   /* left the link */
    uint64_t written_packets, write_errors;         /* written to the far TUN */
    uint64_t opportunities;
    uint64_t max_queue_packets, max_queue_bytes;
    uint64_t max_queue_delay_us;
    uint32_t fine[STATS_FINE_BINS];
    uint32_t coarse[STATS_COARSE_BINS];
} direction_stats;

void stats_record_queue_delay(direction_stats *s, uint64_t delay_us);
/* Percentile (0..100) of the recorded queue delays in microseconds (bin upper edge); 0 if none. */
uint64_t stats_queue_delay_percentile_us(const direction_stats *s, double percentile);
void stats_write_json(FILE *f, const char *name, const direction_stats *s);

#endif
