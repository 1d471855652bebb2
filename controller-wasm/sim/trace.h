/* A mahimahi link trace: each line is the millisecond timestamp of one delivery opportunity of 1504 bytes;
 * repeated timestamps are several opportunities; the trace loops, each loop shifted by the last timestamp
 * (mahimahi's semantics). The timestamps are borrowed, not copied. */
#ifndef PCC_SIM_TRACE_H
#define PCC_SIM_TRACE_H

#include <stddef.h>
#include <stdint.h>

typedef struct sim_trace {
    const uint32_t *ms;
    size_t count;
    int64_t period_us;       /* last timestamp: one loop's length */
} sim_trace;

typedef struct sim_trace_cursor {
    size_t index;
    int64_t loop;
} sim_trace_cursor;

/* 0 when usable; otherwise -1 and a reason (empty, decreasing, or last timestamp 0 = endless loop). */
int sim_trace_init(sim_trace *trace, const uint32_t *ms, size_t count, const char **reason);
int64_t sim_trace_cursor_time_us(const sim_trace *trace, const sim_trace_cursor *cursor);
void sim_trace_cursor_next(const sim_trace *trace, sim_trace_cursor *cursor);
/* Moves the cursor to the first opportunity at or after time_us (never backwards). */
void sim_trace_cursor_seek(const sim_trace *trace, sim_trace_cursor *cursor, int64_t time_us);
/* Number of opportunities strictly before time_us. */
uint64_t sim_trace_opportunities_before(const sim_trace *trace, int64_t time_us);

#endif
