/* mahimahi packet-delivery traces: one line per 1504-byte delivery opportunity,
   each an integer millisecond timestamp, non-decreasing. */
#ifndef LINKEM_TRACE_H
#define LINKEM_TRACE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t *times_ms;
    size_t count;
} trace;

/* Returns 0, or -1 with a message naming the file and line in err. */
int trace_load(const char *path, trace *out, char *err, size_t err_len);
void trace_free(trace *t);

#endif
