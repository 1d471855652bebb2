#include "mmlog.h"

#include <errno.h>
#include <string.h>

int mmlog_open(mm_log *log, const char *path, uint64_t init_us, const mm_log_header *h, char *err, size_t err_len) {
    log->file = NULL;
    log->init_us = init_us;
    log->last_flush_us = init_us;
    if (!path) return 0;
    log->file = fopen(path, "w");
    if (!log->file) {
        snprintf(err, err_len, "log %s: %s", path, strerror(errno));
        return -1;
    }
    /* large buffer: logging must not cost a syscall per packet */
    setvbuf(log->file, NULL, _IOFBF, 1 << 20);
    fprintf(log->file, "# mahimahi mm-link (%s) [%s] > %s\n", h->link_name, h->trace_desc, path);
    fprintf(log->file, "# command line: %s\n", h->command_line);
    fprintf(log->file, "# queue: %s\n", h->queue_desc);
    fprintf(log->file, "# init timestamp: %llu\n", (unsigned long long)h->init_epoch_ms);
    fprintf(log->file, "# base timestamp: %llu\n", (unsigned long long)h->base_ms);
    return 0;
}

static unsigned long long ms(const mm_log *log, uint64_t t_us) { return (unsigned long long)((t_us - log->init_us) / 1000u); }

/* One write() per interval, not per packet: the buffer stays large, a live reader sees lines at most this late. */
static void flush_if_due(mm_log *log, uint64_t t_us) {
    if (t_us - log->last_flush_us < MMLOG_FLUSH_INTERVAL_US) return;
    log->last_flush_us = t_us;
    fflush(log->file);
}

void mmlog_arrival(mm_log *log, uint64_t t_us, uint32_t size) {
    if (!log->file) return;
    fprintf(log->file, "%llu + %u\n", ms(log, t_us), size);
    flush_if_due(log, t_us);
}

void mmlog_opportunity(mm_log *log, uint64_t t_us) {
    if (!log->file) return;
    fprintf(log->file, "%llu # 1504\n", ms(log, t_us));
    flush_if_due(log, t_us);
}

void mmlog_departure(mm_log *log, uint64_t t_us, uint32_t size, uint64_t arrival_us) {
    if (!log->file) return;
    fprintf(log->file, "%llu - %u %llu\n", ms(log, t_us), size, ms(log, t_us) - ms(log, arrival_us));
    flush_if_due(log, t_us);
}

void mmlog_drop(mm_log *log, uint64_t t_us, uint64_t packets, uint64_t bytes) {
    if (log->file)
        fprintf(log->file, "%llu d %llu %llu\n", ms(log, t_us), (unsigned long long)packets, (unsigned long long)bytes);
}

int mmlog_close(mm_log *log) {
    if (!log->file) return 0;
    int rc = fclose(log->file);
    log->file = NULL;
    return rc;
}
