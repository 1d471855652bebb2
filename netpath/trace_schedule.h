/* What a mahimahi trace means to a link: each timestamp is one delivery opportunity of 1504 bytes at that
 * millisecond; repeated timestamps are several opportunities; the trace loops, each loop shifted by the last
 * timestamp (mahimahi's semantics). The timestamps are borrowed, not copied. Used by pcc-sim's link and
 * linkem's link alike. */
#ifndef NETPATH_TRACE_SCHEDULE_H
#define NETPATH_TRACE_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

#include "trace_format.h"

typedef struct mm_trace {
    const uint32_t *ms;
    size_t count;
    int64_t period_us;       /* last timestamp: one loop's length */
} mm_trace;

typedef struct mm_trace_cursor {
    size_t index;
    int64_t loop;
} mm_trace_cursor;

/* 0 when usable; otherwise -1 and a reason (empty, decreasing, beyond MM_TRACE_MAX_MS, or last timestamp 0 =
 * endless loop): the rules of trace_format.h for timestamps that did not come from a file. */
int mm_trace_init(mm_trace *trace, const uint32_t *ms, size_t count, const char **reason);
int64_t mm_trace_cursor_time_us(const mm_trace *trace, const mm_trace_cursor *cursor);
void mm_trace_cursor_next(const mm_trace *trace, mm_trace_cursor *cursor);
/* Moves the cursor to the first opportunity at or after time_us (never backwards). */
void mm_trace_cursor_seek(const mm_trace *trace, mm_trace_cursor *cursor, int64_t time_us);
/* Number of opportunities strictly before time_us. */
uint64_t mm_trace_opportunities_before(const mm_trace *trace, int64_t time_us);

#endif
