/* Per-direction event log in mm-link's format, so mahimahi's analysis scripts
   (mm-throughput-graph, mm-delay-graph) read it unchanged:
     T + SIZE          arrival at the link queue
     T # 1504          delivery opportunity
     T - SIZE DELAY    departure (DELAY = ms in the link queue)
     T d PKTS BYTES    drop by the queue
   T in integer milliseconds since the emulator started; SIZE = IP length + 4. */
#ifndef LINKEM_MMLOG_H
#define LINKEM_MMLOG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    FILE *file;
    uint64_t init_us;       /* monotonic time of "timestamp 0" */
    uint64_t last_flush_us; /* readers follow the log live (npm start --network), so it is flushed this often */
} mm_log;

/* How stale a live reader's view of the log may get: the demo's queue chart follows it with this lag at most. */
#define MMLOG_FLUSH_INTERVAL_US 100000u

typedef struct {
    const char *link_name;  /* "uplink" / "downlink" */
    const char *trace_desc; /* trace path or "constant N bit/s" */
    const char *command_line;
    const char *queue_desc;
    uint64_t init_epoch_ms; /* wall clock at start, as mahimahi's "init timestamp" */
    uint64_t base_ms;       /* link schedule zero relative to init */
} mm_log_header;

/* path NULL = logging off (every call is then a no-op). */
int mmlog_open(mm_log *log, const char *path, uint64_t init_us, const mm_log_header *h, char *err, size_t err_len);
void mmlog_arrival(mm_log *log, uint64_t t_us, uint32_t size);
void mmlog_opportunity(mm_log *log, uint64_t t_us);
void mmlog_departure(mm_log *log, uint64_t t_us, uint32_t size, uint64_t arrival_us);
void mmlog_drop(mm_log *log, uint64_t t_us, uint64_t packets, uint64_t bytes);
int mmlog_close(mm_log *log);

#endif
